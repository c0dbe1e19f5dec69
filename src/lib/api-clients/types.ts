import type { Operation } from '$lib/account-api/operations';
import type { Region } from '$lib/account-api/deployments';

/**
 * The request as the signing page's form stands when a download is asked for: what each API
 * client's files are made from. Never a mac_key: each file leaves it empty, to be put in the
 * client's own secret variable.
 */
export interface ClientRequestForm {
	region: Region;
	/** The deployment's base URL as the form has it, e.g. https://open.tapapis.cn. */
	baseUrl: string;
	/** The operation on screen; a collection holds both, this one first. */
	operation: Operation;
	kid: string;
	clientId: string;
}

/** One file of a download: its path inside the download (a folder for Bruno) and its text. */
export interface DownloadFile {
	path: string;
	text: string;
}
