import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { wrap } from '$lib/account-api/envelope';
import { parseAuthorization } from '$lib/mac';
import { maskKid } from '$lib/diagnosis/mask-kid';
import { SERVER_REFUSALS } from '$lib/http/refusals';
import { originAllowed } from '$lib/http/origins';
import {
	listen,
	plain,
	readTarget,
	write,
	type Listening,
	type PlainAnswer,
	type Refusal
} from '../http/serve';
import {
	SandboxService,
	type SandboxOutcome,
	type SandboxToken,
	type ServiceAnswer
} from '$lib/sandbox/service';
import { BASE_STRING_HEADER, DIAGNOSIS_HEADER, diagnosisOf, headerSafe } from './diagnosis';
import { EventStreams } from './events';
import { Faults } from './faults';
import { Journal } from '$lib/sandbox/journal';
import { defaultArgs, type SandboxServerArgs } from './options';
import { Recorder } from './record';

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
				status: SERVER_REFUSALS[code].status,
				headers: { 'content-type': 'application/json; charset=utf-8' }
			}
		);
}

export interface SandboxServerOptions extends Partial<Omit<SandboxServerArgs, 'accountsFile'>> {
	/** The accounts' tokens (from --accounts); the demo accounts' when left out. */
	tokens?: SandboxToken[];
	/** The server's clock, for tests; Date.now by default. */
	now?: () => number;
}

export interface SandboxServer extends Listening {
	service: SandboxService;
	journal: Journal;
}

const JOURNAL_PATH = '/__sandbox/journal';
const EVENTS_PATH = '/__sandbox/events';
const EXPOSED = ['date', DIAGNOSIS_HEADER, BASE_STRING_HEADER].join(', ');

/**
 * The sandbox server: the service of the spec over HTTP, for integrators' tests. It answers for any
 * Host it is called by (the scheme from X-Forwarded-Proto behind a TLS proxy), verifies the path and
 * query bytes exactly as received, and says why a request failed (unless strict).
 */
export async function startSandboxServer(
	options: SandboxServerOptions = {}
): Promise<SandboxServer> {
	const args = { ...defaultArgs(), ...options };
	const now = options.now ?? Date.now;
	const service = new SandboxService({
		now,
		// node:crypto in the request's own task: SubtleCrypto's HMAC goes through Node's thread pool,
		// which cost more than the rest of a request.
		hmac: (macKey, base) => createHmac('sha1', macKey).update(base, 'utf8').digest('base64'),
		tokens: options.tokens,
		windowSeconds: args.windowSeconds,
		maxNonces: args.maxNonces,
		revealBaseString: !args.strict
	});
	const journal = new Journal(args.journalSize);
	const events = new EventStreams(journal);
	const faults = new Faults(args.faults, args.seed);
	const recorder = args.record === null ? null : new Recorder(args.record);
	const refuse = serviceRefusal(() => service.now());
	const serveOptions = {
		host: args.host,
		port: args.port,
		trustForwarded: true,
		refuse,
		maxConnections: args.maxConnections
	};

	/** CORS headers for an allowed Origin; none for another or none. */
	const cors = (incoming: IncomingMessage): Record<string, string> => {
		const origin = incoming.headers.origin;
		if (origin === undefined || !originAllowed(origin, args.allowOrigins)) return {};
		return {
			'access-control-allow-origin': origin,
			'access-control-expose-headers': EXPOSED,
			vary: 'Origin'
		};
	};

	const answerPreflight = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
		const allowed = cors(incoming);
		if (allowed['access-control-allow-origin'] === undefined) {
			const text = `The origin ${incoming.headers.origin ?? '(none)'} may not call this sandbox: start it with --allow-origin <origin>.`;
			return write(outgoing, await plain(refuse('method_not_allowed', text)));
		}
		const headers: Record<string, string> = {
			...allowed,
			'access-control-allow-methods': 'GET, DELETE',
			'access-control-allow-headers': 'authorization',
			'access-control-max-age': '600'
		};
		// Chrome's local network access: a public page asking a loopback server asks first.
		if (incoming.headers['access-control-request-private-network'] === 'true')
			headers['access-control-allow-private-network'] = 'true';
		write(outgoing, { status: 204, headers, body: null });
	};

	const answerJournal = async (
		incoming: IncomingMessage,
		outgoing: ServerResponse,
		path: string
	) => {
		const headers = { ...cors(incoming), 'cache-control': 'no-store' };
		const method = incoming.method ?? 'GET';
		if (path === JOURNAL_PATH && method === 'GET')
			return write(outgoing, json(200, { entries: journal.entries() }, headers));
		if (path === JOURNAL_PATH && method === 'DELETE') {
			journal.clear();
			return write(outgoing, { status: 204, headers, body: null });
		}
		if (path === EVENTS_PATH && method === 'GET') {
			if (events.full) {
				const text = 'Too many event streams are open; close one and try again.';
				return write(
					outgoing,
					withHeaders(await plain(refuse('too_many_connections', text)), headers)
				);
			}
			return events.open(outgoing, headers);
		}
		if (path === JOURNAL_PATH || path === EVENTS_PATH) {
			const text = `${method} is not served at ${path}.`;
			return write(outgoing, withHeaders(await plain(refuse('method_not_allowed', text)), headers));
		}
		return write(
			outgoing,
			toPlain(service.error(service.now(), 'not_found', `No resource at ${path}.`), headers)
		);
	};

	const answerService = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
		const received = readTarget(incoming, serveOptions);
		if ('code' in received)
			return write(outgoing, await plain(refuse(received.code, received.message)));
		const method = incoming.method ?? 'GET';
		const url = `${received.scheme}://${received.authority}${received.path}`;
		const header = incoming.headers.authorization;
		const authorization = header === undefined ? null : header;
		let kid: string | null = null;
		try {
			kid = authorization === null ? null : parseAuthorization(authorization).id;
		} catch {
			// An unreadable header: the service says so, and a fault counts it under no kid.
		}
		const fault = faults.next(kid ?? '');
		let answer: Omit<ServiceAnswer, 'outcome'> & { outcome: SandboxOutcome };
		if (fault) {
			const text = `The sandbox injected this error (--fault ${fault.spec}).`;
			answer = {
				...service.error(service.now(), fault.code, text),
				outcome: { verdict: 'fault', kid, params: null, baseString: null, token: null }
			};
		} else {
			answer = await service.decide({ method, url, authorization, target: received.path });
		}
		if (args.latencyMs > 0) await new Promise((done) => setTimeout(done, args.latencyMs));
		const { outcome } = answer;
		const diagnosis =
			outcome.verdict === 'fault'
				? `reason=fault; fault=${fault?.spec ?? ''}`
				: await diagnosisOf(outcome, { method, url, authorization }, (kid) =>
						service.tokenFor(kid)
					);
		const headers: Record<string, string> = args.strict ? {} : cors(incoming);
		if (!args.strict && diagnosis !== null) {
			headers[DIAGNOSIS_HEADER] = headerSafe(diagnosis);
			if (outcome.baseString !== null) headers[BASE_STRING_HEADER] = headerSafe(outcome.baseString);
		}
		write(outgoing, toPlain(answer, headers));
		const time = new Date(now()).toISOString();
		const maskedAuthorization =
			authorization === null || kid === null
				? authorization
				: authorization.split(`"${kid}"`).join(`"${maskKid(kid)}"`);
		journal.add({
			time,
			method,
			url,
			kid: kid === null ? null : maskKid(kid),
			status: answer.status,
			verdict: outcome.verdict,
			diagnosis,
			baseString: outcome.baseString,
			authorization: maskedAuthorization
		});
		recorder?.write({
			method,
			url,
			authorization: args.recordKids ? authorization : maskedAuthorization,
			time,
			status: answer.status
		});
	};

	const server = await listen(async (incoming, outgoing) => {
		const target = incoming.url ?? '';
		const path = target.split('?')[0] ?? '';
		if (incoming.method === 'OPTIONS' && target.startsWith('/'))
			return answerPreflight(incoming, outgoing);
		if (path.startsWith('/__sandbox/')) return answerJournal(incoming, outgoing, path);
		return answerService(incoming, outgoing);
	}, serveOptions);

	return {
		url: server.url,
		service,
		journal,
		close: async () => {
			events.closeAll();
			await server.close();
			recorder?.close();
		}
	};
}

function json(status: number, body: unknown, headers: Record<string, string>): PlainAnswer {
	return {
		status,
		headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
		body: new TextEncoder().encode(JSON.stringify(body))
	};
}

function toPlain(
	answer: Omit<ServiceAnswer, 'outcome'>,
	headers: Record<string, string>
): PlainAnswer {
	return {
		status: answer.status,
		statusText: answer.statusText,
		headers: { ...answer.headers, ...headers },
		body: new TextEncoder().encode(answer.body)
	};
}

function withHeaders(answer: PlainAnswer, headers: Record<string, string>): PlainAnswer {
	return { ...answer, headers: { ...answer.headers, ...headers } };
}
