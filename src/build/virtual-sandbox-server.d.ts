// What the build's sandbox-server-asset plugin (sandbox-server-bundle.js) tells the page of the
// file it ships.
declare module 'virtual:sandbox-server' {
	export const FILE_NAME: string;
	/** Hex SHA-256 of the file. */
	export const SHA256: string;
	export const BYTES: number;
}
