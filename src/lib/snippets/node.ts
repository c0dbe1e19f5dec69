import { m } from '$lib/paraglide/messages.js';
import { comment, fixedNote, inlineKeyNote, purpose, resolve } from './common';
import { jsString as str } from './string-literals';
import type { SnippetOptions } from './types';

/** Node.js 18+: node:crypto and the global fetch, as an ES module. */
export function nodeSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	const env = `process.env.${o.macKeyEnv}`;
	const macKey =
		o.inlineMacKey === undefined
			? `const macKey = ${env};
if (!macKey) {
  console.error(${str(o.missingKey)});
  process.exit(1);
}`
			: `// ${inlineKeyNote()}
const macKey = ${str(o.inlineMacKey)};`;
	const tsNonce = o.fixed
		? `// ${fixedNote()}
const ts = ${str(o.fixed.ts)};
const nonce = ${str(o.fixed.nonce)};`
		: `const ts = String(Math.floor(Date.now() / 1000));
const nonce = randomBytes(16).toString('base64');`;
	const sep = o.separator;

	return `${purpose('//', 'node sign.mjs', o.inlineMacKey === undefined ? o.macKeyEnv : null)}
import { createHmac${o.fixed ? '' : ', randomBytes'} } from 'node:crypto';

const url = ${str(o.url)};
const kid = ${str(o.kid)};
${macKey}

/** ${m.snippets_node_base_string()} */
function baseString(url, ts, nonce) {
  const u = new URL(url);
${comment('  // ', m.snippets_node_uri())}
  const uri = u.href.split('#')[0].slice(u.origin.length) || '/';
  // ${m.snippets_node_host()}
  // ${m.snippets_program_port()}
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return [ts, nonce, 'GET', uri, u.hostname, port, ''].map((line) => \`\${line}\\n\`).join('');
}

function sign(macKey, text) {
  // ${m.snippets_program_utf8()}
  return createHmac('sha1', Buffer.from(macKey, 'utf8')).update(text, 'utf8').digest('base64');
}

${tsNonce}
const mac = sign(macKey, baseString(url, ts, nonce));
const header = \`MAC id="\${kid}"${sep}ts="\${ts}"${sep}nonce="\${nonce}"${sep}mac="\${mac}"\`;
console.log(\`Authorization: \${header}\`);
if (process.env.DRY_RUN === '1') process.exit(0);

const response = await fetch(url, { headers: { Authorization: header } });
console.log(response.status, response.statusText);
console.log(await response.text());
`;
}
