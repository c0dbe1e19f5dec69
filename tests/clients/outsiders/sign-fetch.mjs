// An integrator's Node.js signer (fetch's Request, node:crypto): not the vendor's sample.
// node sign-fetch.mjs <kid> <key> <url> <ts> <variant> <style>
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

const [kid, key, url, given, variant, style] = process.argv.slice(2);
const ts = variant === 'ts-milliseconds' ? String(Date.now()) : given;
const { pathname, search, hostname } = new URL(url);
const nonce = style === 'a' ? randomUUID() : randomBytes(16).toString('base64');
const base = `${ts}\n${nonce}\nGET\n${pathname}${search}\n${hostname}\n443\n\n`;
const mac = createHmac(variant === 'hmac-sha256' ? 'sha256' : 'sha1', key)
	.update(base)
	.digest('base64');
const header = `MAC id="${kid}", ts="${ts}", nonce="${nonce}", mac="${mac}"`;
new Request(url, { headers: { Authorization: header } });
console.log(header);
