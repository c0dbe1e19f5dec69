// `npm run triage` starts here. Node 20 cannot run TypeScript: the triage (and the protocol core
// and /verify's diagnosis it uses) runs from a bundle Vite builds on first use
// (src/build/triage-bundle.js), or, where that fails, through Vite's module runner. Whatever
// happens, the process ends with one line and a status (cli.ts's USAGE), never a stack trace.
import { fileURLToPath } from 'node:url';

// Vite colors its errors for a terminal: escape codes say nothing in a log.
// eslint-disable-next-line no-control-regex
const COLORS = /\u001b\[[\d;]*m/g;

/**
 * One line for a failure that cli.ts's main did not catch (loading it, or an error from nowhere).
 * @param {unknown} error
 */
function die(error) {
	const message = error instanceof Error ? error.message : String(error);
	const line = message.replace(COLORS, '').replace(/\s+/g, ' ').trim().slice(0, 500);
	process.stderr.write(`triage: internal error: ${line}\n`);
	process.exit(2);
}
process.on('uncaughtException', die);
process.on('unhandledRejection', die);
// A reader that went away (| head) is not an error to report.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

let main;
/** The pool's worker thread file: only a bundled run has one (see triage-bundle.js). */
let poolThread = null;
try {
	const { triageBundle } = await import('../../build/triage-bundle.js');
	const bundle = await triageBundle();
	({ main } = await import(bundle.cli.href));
	poolThread = bundle.thread;
} catch (bundleError) {
	// Without a bundle (a read-only folder, a failed build), Vite's module runner loads the
	// TypeScript as it is: slower to start, and on one thread.
	try {
		const { runnerImport } = await import('vite');
		({
			module: { main }
		} = await runnerImport(fileURLToPath(new URL('./cli.ts', import.meta.url)), {
			configFile: false,
			logLevel: 'silent',
			resolve: { alias: { $lib: fileURLToPath(new URL('../../lib', import.meta.url)) } }
		}));
	} catch (error) {
		die(error instanceof Error ? error : bundleError);
	}
}
// npm runs a script in the package's folder; FILE and the other paths were typed in INIT_CWD.
if (process.env.npm_lifecycle_event === 'triage' && process.env.INIT_CWD)
	process.chdir(process.env.INIT_CWD);
process.exitCode = await main(process.argv.slice(2), undefined, { poolThread });
