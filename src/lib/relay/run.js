// `npm run proxy` starts here. Node 20 cannot run TypeScript, so Vite's module runner loads the
// relay's TypeScript (and the protocol core it shares with the page) without a build step.
import { runnerImport } from 'vite';

const { module } = await runnerImport(new URL('./cli.ts', import.meta.url).pathname, {
	configFile: false,
	logLevel: 'silent'
});
const server = await module.main(process.argv.slice(2));
if (server) {
	const stop = () => server.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}
