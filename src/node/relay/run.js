// `npm run proxy` starts here. Node 20 cannot run TypeScript, so Vite's module runner loads the
// relay's TypeScript (and the protocol core it shares with the page) without a build step.
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const { module } = await runnerImport(fileURLToPath(new URL('./cli.ts', import.meta.url)), {
	configFile: false,
	logLevel: 'silent',
	// The sandbox server's diagnosis ($lib/diagnosis) reads the core as $lib/mac.
	resolve: { alias: { $lib: fileURLToPath(new URL('../../lib', import.meta.url)) } }
});
const server = await module.main(process.argv.slice(2));
if (server) {
	const stop = () => server.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}
