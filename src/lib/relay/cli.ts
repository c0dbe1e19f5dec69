import { initialSandboxState, SandboxService, SandboxUnreachable } from '$lib/sandbox/service';
import { wrap } from '$lib/account-api/envelope';
import { createRelayCore, DEFAULT_ALLOWED_ORIGINS, DEFAULT_UPSTREAM_HOSTS } from './handler';
import {
	coarseTimers,
	MAX_CONNECTIONS,
	nodeUpstream,
	resolveHost,
	serve,
	serveRelay,
	type Refusal
} from './node';
import { RELAY_ERRORS } from './protocol';
import { splitHttpUrl } from './url';
import { withDiagnosis } from './sandbox-diagnosis';

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
  --serve-sandbox        be the sandbox service itself (no relay), for a relay in front of it; a
                         wrong mac is answered with X-Sandbox-Diagnosis: the mistake that
                         reproduces it and the likely client
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

/**
 * How the sandbox service refuses what its server cannot read: the service's own error body, as
 * invalid_request; a fault or a full server is the service's server_error. `now` stamps the body.
 */
export function serviceRefusal(now: () => number): Refusal {
	return (code, message) =>
		new Response(
			JSON.stringify(
				wrap(
					{
						code: 0,
						error:
							code === 'internal' || code === 'too_many_connections'
								? 'server_error'
								: 'invalid_request',
						error_description: message,
						msg: message
					},
					false,
					now()
				)
			),
			{
				status: RELAY_ERRORS[code].status,
				headers: { 'content-type': 'application/json; charset=utf-8' }
			}
		);
}

export async function main(
	argv: readonly string[]
): Promise<{ url: string; close: () => Promise<void> } | null> {
	const args = parseArgs(argv);
	if (typeof args === 'string') {
		console.log(args);
		return null;
	}
	const sandbox = new SandboxService(initialSandboxState(), { hosts: () => args.allowHosts });
	const sandboxHandler = async (request: Request, target?: string) => {
		try {
			const answer = await sandbox.handle(request, target);
			// The sandbox server says why a mac is wrong (X-Sandbox-Diagnosis); the relay does not.
			return args.serveSandbox
				? await withDiagnosis(sandbox.state, request, target, answer)
				: answer;
		} catch (error) {
			if (!(error instanceof SandboxUnreachable)) throw error;
			return new Response(JSON.stringify({ message: error.message }), {
				status: 502,
				headers: { 'content-type': 'application/json; charset=utf-8' }
			});
		}
	};
	if (args.serveSandbox) {
		const refuse = serviceRefusal(Date.now);
		const server = await serve(sandboxHandler, {
			host: args.host,
			port: args.port,
			trustForwarded: true,
			refuse,
			maxConnections: args.maxConnections
		});
		console.log(
			`sandbox service listening on ${server.url} (answers for ${args.allowHosts.join(', ')})`
		);
		return server;
	}
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
		maxConnections: args.maxConnections
	});
	console.log(
		`relay listening on ${server.url}${args.sandbox ? ' (answering with the sandbox service)' : ''}`
	);
	console.log(
		`proxy setting for the page: ${server.url}/ (prefix) or ${server.url}/?url={url} (template)`
	);
	return server;
}
