// `npm run triage` starts here. Node 20 cannot run TypeScript, so Vite's module runner loads the
// triage (and the protocol core and /verify's diagnosis it uses) without a build step. Whatever
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
try {
	const { runnerImport } = await import('vite');
	({
		module: { main }
	} = await runnerImport(fileURLToPath(new URL('./cli.ts', import.meta.url)), {
		configFile: false,
		logLevel: 'silent',
		resolve: { alias: { $lib: fileURLToPath(new URL('..', import.meta.url)) } }
	}));
} catch (error) {
	die(error);
}
// npm runs a script in the package's folder; FILE and the other paths were typed in INIT_CWD.
if (process.env.npm_lifecycle_event === 'triage' && process.env.INIT_CWD)
	process.chdir(process.env.INIT_CWD);
process.exitCode = await main(process.argv.slice(2));
