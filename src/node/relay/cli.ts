import { SandboxService, SandboxUnreachable } from '$lib/sandbox/service';
import { startSandboxServer } from '../sandbox-server/server';
import { MAX_CONNECTIONS } from '../http/serve';
import { splitHttpUrl } from '$lib/http/url';
import {
	createRelayCore,
	DEFAULT_ALLOWED_ORIGINS,
	DEFAULT_UPSTREAM_HOSTS,
	relayError
} from '$lib/relay/handler';
import { coarseTimers, nodeUpstream, resolveHost, serveRelay } from './node';

const USAGE = `Usage: npm run proxy -- [options]

A relay for the account service, which answers no CORS preflight: the page sends the signed request
here, and the relay forwards it unchanged.

  --port N               port to listen on (default 8787; 0 picks a free one)
  --host ADDRESS         address to listen on (default 127.0.0.1)
  --allow-host HOST      also relay to HOST (repeatable; default: ${DEFAULT_UPSTREAM_HOSTS.join(', ')})
  --allow-origin ORIGIN  pages allowed to use the relay (repeatable; replaces the default:
                         ${DEFAULT_ALLOWED_ORIGINS.join(', ')})
  --connect-to HOST=IP:PORT
                         reach HOST at IP:PORT over plain HTTP, passing Host and X-Forwarded-Proto
  --timeout SECONDS      upstream time limit (default 10)
  --max-bytes N          largest upstream response relayed (default 1048576)
  --max-connections N    client connections served at once; more are answered 503 (default ${MAX_CONNECTIONS})
  --sandbox              answer with the built-in sandbox service instead of the real one
  --serve-sandbox        be the sandbox server itself (no relay), as \`npm run sandbox\` starts it
                         with its defaults; see \`npm run sandbox -- --help\`
  --help                 this text
`;

interface Args {
	port: number;
	host: string;
	allowHosts: string[];
	allowOrigins: string[];
	connectTo: Map<string, string>;
	timeoutMs: number;
	maxBytes: number;
	maxConnections: number;
	sandbox: boolean;
	serveSandbox: boolean;
}

export function parseArgs(argv: readonly string[]): Args | string {
	const args: Args = {
		port: 8787,
		host: '127.0.0.1',
		allowHosts: [...DEFAULT_UPSTREAM_HOSTS],
		allowOrigins: [],
		connectTo: new Map(),
		timeoutMs: 10_000,
		maxBytes: 1024 * 1024,
		maxConnections: MAX_CONNECTIONS,
		sandbox: false,
		serveSandbox: false
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = (): string => {
			const next = argv[++i];
			if (next === undefined) throw new Error(`${flag} needs a value`);
			return next;
		};
		try {
			if (flag === '--help' || flag === '-h') return USAGE;
			else if (flag === '--port') args.port = Number(value());
			else if (flag === '--host') args.host = value();
			else if (flag === '--allow-host') args.allowHosts.push(value().toLowerCase());
			else if (flag === '--allow-origin') args.allowOrigins.push(value());
			else if (flag === '--connect-to') {
				const [host, address] = value().split('=');
				if (
					!host ||
					!address?.includes(':') ||
					typeof splitHttpUrl(`http://${address}`) === 'string'
				)
					throw new Error('--connect-to takes HOST=IP:PORT');
				args.connectTo.set(host.toLowerCase(), address);
			} else if (flag === '--timeout') args.timeoutMs = Number(value()) * 1000;
			else if (flag === '--max-bytes') args.maxBytes = Number(value());
			else if (flag === '--max-connections') args.maxConnections = Number(value());
			else if (flag === '--sandbox') args.sandbox = true;
			else if (flag === '--serve-sandbox') args.serveSandbox = true;
			else throw new Error(`Unknown option ${flag}`);
		} catch (error) {
			return `${(error as Error).message}\n\n${USAGE}`;
		}
	}
	if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
		return `--port must be 0 to 65535\n\n${USAGE}`;
	if (!Number.isInteger(args.maxConnections) || args.maxConnections < 1)
		return `--max-connections must be a whole number of 1 or more\n\n${USAGE}`;
	return args;
}

export async function main(
	argv: readonly string[]
): Promise<{ url: string; close: () => Promise<void> } | null> {
	const args = parseArgs(argv);
	if (typeof args === 'string') {
		console.log(args);
		return null;
	}
	if (args.serveSandbox) {
		const server = await startSandboxServer({
			host: args.host,
			port: args.port,
			maxConnections: args.maxConnections
		});
		console.log(
			`sandbox service listening on ${server.url} (answers for the host it is called by)`
		);
		return server;
	}
	const sandbox = new SandboxService({ hosts: () => args.allowHosts });
	const sandboxHandler = async (request: Request, target?: string) => {
		try {
			return await sandbox.handle(request, target);
		} catch (error) {
			if (!(error instanceof SandboxUnreachable)) throw error;
			return new Response(JSON.stringify({ message: error.message }), {
				status: 502,
				headers: { 'content-type': 'application/json; charset=utf-8' }
			});
		}
	};
	const relay = createRelayCore({
		allowHosts: args.allowHosts,
		allowOrigins: args.allowOrigins.length > 0 ? args.allowOrigins : DEFAULT_ALLOWED_ORIGINS,
		upstream: args.sandbox
			? async ({ url, path, headers }) => sandboxHandler(new Request(url, { headers }), path)
			: nodeUpstream(args.connectTo),
		resolveHost,
		trustedHosts: args.sandbox ? args.allowHosts : [...args.connectTo.keys()],
		timeoutMs: args.timeoutMs,
		maxBytes: args.maxBytes,
		schedule: coarseTimers()
	});
	const server = await serveRelay(relay, {
		host: args.host,
		port: args.port,
		maxConnections: args.maxConnections,
		refuse: relayError
	});
	console.log(
		`relay listening on ${server.url}${args.sandbox ? ' (answering with the sandbox service)' : ''}`
	);
	console.log(
		`proxy setting for the page: ${server.url}/ (prefix) or ${server.url}/?url={url} (template)`
	);
	return server;
}
