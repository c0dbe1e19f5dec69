// `npm run triage` starts here. Node 20 cannot run TypeScript, so Vite's module runner loads the
// triage (and the protocol core and /verify's diagnosis it uses) without a build step.
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const { module } = await runnerImport(fileURLToPath(new URL('./cli.ts', import.meta.url)), {
	configFile: false,
	logLevel: 'silent',
	resolve: { alias: { $lib: fileURLToPath(new URL('..', import.meta.url)) } }
});
process.exitCode = await module.main(process.argv.slice(2));
