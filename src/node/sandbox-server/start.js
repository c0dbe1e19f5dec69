// `npm run sandbox` starts here: builds sandbox-server.mjs as the site's build does (a second or
// two; src/build/sandbox-server-bundle.js), then runs it in this process, so that the options, the
// first line and the exit statuses are those of the file integrators download.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleSandboxServer, FILE_NAME } from '../../build/sandbox-server-bundle.js';

const dir = fileURLToPath(new URL('../../../node_modules/.cache/sandbox-server/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}${FILE_NAME}`, await bundleSandboxServer());
await import(pathToFileURL(`${dir}${FILE_NAME}`).href);
