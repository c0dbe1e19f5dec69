// The entry point that the build bundles into sandbox-server.mjs (and `npm run sandbox` runs).
import { main } from './main';

const status = await main(process.argv.slice(2));
if (status !== null) process.exitCode = status;
