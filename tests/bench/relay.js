// The relay under load: the same requests sent straight to a loopback upstream and through the
// relay (`npm run proxy` with --connect-to that upstream), in the same run and in alternating
// rounds, with the relay's RSS before and after each round. The load generator is plain node:http
// with keep-alive connections; the upstream and the relay are processes of their own.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { median, percentile } from './measure.js';

const RUN_JS = fileURLToPath(new URL('../../src/node/relay/run.js', import.meta.url));

/** A small JSON answer, about the size of the service's profile answer. */
const UPSTREAM_SCRIPT = `
const body = JSON.stringify({ data: { name: 'Ada Demo', avatar: 'https://example.com/a.png', openid: 'o'.repeat(32), unionid: 'u'.repeat(32) }, now: 1700000000, success: true });
require('node:http').createServer((req, res) => {
	res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
	res.end(body);
}).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });
`;

/**
 * The floor: the least a Node relay can do (node:http in, node:http out over keep-alive, no checks),
 * so the figure shows what the relay's checks cost beyond the extra hop itself.
 */
const FLOOR_SCRIPT = `
const http = require('node:http');
const [host, port] = process.argv[1].split(':');
const agent = new http.Agent({ keepAlive: true });
http.createServer((req, res) => {
	const out = http.request({ host, port, agent, path: req.url.slice(req.url.indexOf('/', 9)), headers: { host: 'open.tapapis.cn', authorization: req.headers.authorization || '' } }, (answer) => {
		const chunks = [];
		answer.on('data', (chunk) => chunks.push(chunk));
		answer.on('end', () => {
			const body = Buffer.concat(chunks);
			res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'], 'content-length': body.byteLength });
			res.end(body);
		});
	});
	out.on('error', () => { res.writeHead(502); res.end(); });
	out.end();
}).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });
`;

/**
 * @param {string[]} args
 * @returns {Promise<{ url: string, pid: number, stop: () => void }>}
 */
function startProcess(args) {
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	return new Promise((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`not listening within 30 s:\n${output}`)),
			30_000
		);
		/** @param {Buffer} chunk */
		const read = (chunk) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
			if (match?.[1]) {
				clearTimeout(timer);
				resolve({ url: match[1], pid: child.pid ?? 0, stop: () => child.kill() });
			}
		};
		child.stdout.on('data', read);
		child.stderr.on('data', read);
		child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
	});
}

/** @param {number} pid @returns {Promise<number | null>} bytes */
async function rssOf(pid) {
	try {
		const status = await readFile(`/proc/${pid}/status`, 'utf8');
		const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
		return kib === undefined ? null : Number(kib) * 1024;
	} catch {
		return null;
	}
}

/**
 * Sends `total` GETs to `url`, `concurrency` at a time over keep-alive connections.
 * @param {string} url
 * @param {{ total: number, concurrency: number, headers?: Record<string, string> }} load
 */
async function load(url, { total, concurrency, headers = {} }) {
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	/** @type {number[]} */
	const latencies = [];
	let errors = 0;
	let next = 0;
	const one = () =>
		new Promise((resolve) => {
			const started = performance.now();
			const outgoing = request(url, { agent, headers }, (incoming) => {
				incoming.resume();
				incoming.on('end', () => {
					latencies.push(performance.now() - started);
					if (incoming.statusCode !== 200) errors += 1;
					resolve(undefined);
				});
				incoming.on('error', () => {
					errors += 1;
					resolve(undefined);
				});
			});
			outgoing.on('error', () => {
				errors += 1;
				resolve(undefined);
			});
			outgoing.end();
		});
	const worker = async () => {
		while (next < total) {
			next += 1;
			await one();
		}
	};
	const started = performance.now();
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = (performance.now() - started) / 1000;
	agent.destroy();
	return {
		rps: total / seconds,
		p50: median(latencies),
		p99: percentile(latencies, 0.99),
		errors
	};
}

/**
 * @typedef {{ rps: number, p50: number, p99: number, errors: number }} LoadFigures
 * @typedef {{ straight: LoadFigures, floor: LoadFigures, relayed: LoadFigures, rssBefore: number | null, rssAfter: number | null }} Round
 */

/**
 * Alternating rounds: straight to the upstream, through the floor proxy, through the relay.
 * @param {{ rounds?: number, total?: number, concurrency?: number, warmUp?: number }} [options]
 * @returns {Promise<{ rounds: Round[], concurrency: number, total: number }>}
 */
export async function relayLoad({
	rounds = 4,
	total = 4000,
	concurrency = 16,
	warmUp = 1000
} = {}) {
	const upstream = await startProcess(['-e', UPSTREAM_SCRIPT]);
	/** @type {{ url: string, pid: number, stop: () => void } | null} */
	let relay = null;
	/** @type {{ url: string, pid: number, stop: () => void } | null} */
	let floor = null;
	try {
		floor = await startProcess(['-e', FLOOR_SCRIPT, upstream.url.replace('http://', '')]);
		relay = await startProcess([
			RUN_JS,
			'--port',
			'0',
			'--connect-to',
			`open.tapapis.cn=${upstream.url.replace('http://', '')}`
		]);
		const path = '/account/profile/v1?client_id=demo-client-0001';
		const straightUrl = `${upstream.url}${path}`;
		const relayedUrl = `${relay.url}/https://open.tapapis.cn${path}`;
		const floorUrl = `${floor.url}/https://open.tapapis.cn${path}`;
		const headers = { authorization: 'MAC id="kid",ts="1700000000",nonce="n",mac="bWFj"' };
		await load(straightUrl, { total: warmUp, concurrency, headers });
		await load(floorUrl, { total: warmUp, concurrency, headers });
		await load(relayedUrl, { total: warmUp, concurrency, headers });
		/** @type {Round[]} */
		const results = [];
		for (let round = 0; round < rounds; round++) {
			const rssBefore = await rssOf(relay.pid);
			const straight = await load(straightUrl, { total, concurrency, headers });
			const floorFigures = await load(floorUrl, { total, concurrency, headers });
			const relayed = await load(relayedUrl, { total, concurrency, headers });
			results.push({
				straight,
				floor: floorFigures,
				relayed,
				rssBefore,
				rssAfter: await rssOf(relay.pid)
			});
		}
		return { rounds: results, concurrency, total };
	} finally {
		relay?.stop();
		floor?.stop();
		upstream.stop();
	}
}
