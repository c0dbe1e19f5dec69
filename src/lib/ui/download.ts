// Revoking at once can cancel a download that the click has only just started.
const REVOKE_AFTER_MS = 1000;

/** Saves text as a file through a Blob URL: nothing is uploaded, the browser writes it locally. */
export function downloadText(
	fileName: string,
	text: string,
	type = 'text/plain;charset=utf-8'
): void {
	downloadBlob(fileName, new Blob([text], { type }));
}

/** Saves a Blob as a file, as downloadText does. */
export function downloadBlob(fileName: string, blob: Blob): void {
	const href = URL.createObjectURL(blob);
	const link = document.createElement('a');
	link.href = href;
	link.download = fileName;
	link.click();
	setTimeout(() => URL.revokeObjectURL(href), REVOKE_AFTER_MS);
}
