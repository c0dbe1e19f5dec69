// The verify page lists an NDJSON or log-lines paste as the triage page reads it: triage's own line
// readers, given to the verify desk from here (src/lib/verify does not import src/lib/triage).
import type { LinesReader, LoggedLine } from '$lib/verify/paste/parse-signed-request';
import { readLogLine, readNdjsonLine } from '$lib/triage/read/read-lines';
import { detectFormat } from '$lib/triage/read/readers';

/** The MAC-signed requests of a paste of one request a line; null for a HAR or an empty paste. */
export const readLines: LinesReader = (text) => {
	const format = detectFormat(text.slice(0, 4096));
	if (format === null || format === 'har') return null;
	const read = format === 'ndjson' ? readNdjsonLine : readLogLine;
	const requests: LoggedLine[] = [];
	text.split(/\r\n|\n|\r/).forEach((line, index) => {
		const item = read(index + 1, line);
		if (item.kind === 'request') requests.push(item.request);
	});
	return { format, requests };
};
