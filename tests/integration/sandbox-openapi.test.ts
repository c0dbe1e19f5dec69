// The sandbox server's real answers, over loopback, against the service's OpenAPI document: success
// for each operation and every error code, each answer's status, content type, headers and body as
// the document says for that path and status. The bodies are validated with ajv as JSON Schema
// 2020-12, OpenAPI 3.1's dialect, the document added whole so that its $refs resolve as written.
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '$lib/account-api/error-codes';
import { SANDBOX_HEADERS, openApiDocument } from '$lib/account-api/openapi';
import { OPERATIONS, operationUrl, type Operation } from '$lib/account-api/operations';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { authorizationHeader, baseString, randomNonce, requestTarget, sign } from '$lib/mac';
import { DEMO_ACCOUNTS, type DemoAccount } from '$lib/sandbox/accounts';
import { BASE_STRING_HEADER, DIAGNOSIS_HEADER } from '../../src/node/sandbox-server/diagnosis';
import { parseFault } from '../../src/node/sandbox-server/faults';
import { startSandboxServer, type SandboxServer } from '../../src/node/sandbox-server/server';
import { rawRequest, type RawAnswer } from './relay-processes';

type Node = Record<string, unknown>;

const DOCUMENT_ID = 'https://openapi.invalid/openapi.json';
const document = openApiDocument();
const operations = Object.keys(OPERATIONS) as Operation[];

// Strict: a keyword ajv does not know in a schema it compiles is an error, not a silent pass. The
// document's own top-level members (openapi, info, paths, components …) are no JSON Schema keywords:
// declared as such, ajv resolves `#/components/schemas/…` into them and compiles only the schemas.
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addVocabulary(Object.keys(document));
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

/** A JSON pointer's escaping of one key. */
const escaped = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

function nodeAt(pointer: string): Node {
	let node: unknown = document;
	for (const part of pointer.slice(2).split('/'))
		node = (node as Node)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
	expect(node, pointer).toBeTypeOf('object');
	return node as Node;
}

/** The response the document gives for `path` and `status`, and the pointer it lives at. */
function documentedResponse(path: string, status: number): { pointer: string; response: Node } {
	const at = `#/paths/${escaped(path)}/get/responses/${status}`;
	const response = nodeAt(at);
	const pointer = typeof response.$ref === 'string' ? response.$ref : at;
	return { pointer, response: nodeAt(pointer) };
}

/**
 * Checks an answer against the document's response for `path` and `status`: the status, a media
 * type the response has, the body valid against its schema, and no X-Sandbox-* header that the
 * response does not document. Returns the body.
 */
function expectDocumented(answer: RawAnswer, path: string, status: number): Node {
	expect(answer.status).toBe(status);
	const { pointer, response } = documentedResponse(path, status);
	const mediaType =
		(answer.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
	expect(Object.keys(response.content as Node)).toContain(mediaType);
	const validate = ajv.getSchema(`${DOCUMENT_ID}${pointer}/content/${escaped(mediaType)}/schema`);
	if (!validate) throw new Error(`no schema at ${pointer}`);
	const body = JSON.parse(answer.body) as Node;
	validate(body);
	expect(validate.errors ?? [], answer.body).toEqual([]);
	const documented = Object.keys((response.headers as Node | undefined) ?? {}).map((name) =>
		name.toLowerCase()
	);
	const sent = Object.keys(answer.headers).filter((name) => name.startsWith('x-sandbox-'));
	for (const name of sent) expect(documented).toContain(name);
	return body;
}

const account = (id: string): DemoAccount => {
	const found = DEMO_ACCOUNTS.find((candidate) => candidate.id === id);
	if (!found) throw new Error(`no demo account ${id}`);
	return found;
};
const both = account('demo-profile');
const basicOnly = account('demo-basic');

/** Path and query of an operation's URL for `clientId`, as operationUrl writes it. */
const target = (path: string, clientId: string) =>
	operationUrl('http://127.0.0.1', path, clientId).slice('http://127.0.0.1'.length);

/** Sends one GET of `target` to `server` over a fresh loopback connection, as the bytes say. */
function get(server: SandboxServer, target: string, authorization?: string): Promise<RawAnswer> {
	const port = Number(new URL(server.url).port);
	const lines = [
		`GET ${target} HTTP/1.1`,
		`Host: 127.0.0.1:${port}`,
		...(authorization === undefined ? [] : [`Authorization: ${authorization}`]),
		'Connection: close',
		'',
		''
	];
	return rawRequest(port, lines.join('\r\n'));
}

/** Sends `target` signed for `signer` now (or at `ts`), with its key (or `macKey`). */
async function signed(
	server: SandboxServer,
	target: string,
	signer: DemoAccount,
	{ ts = String(Math.floor(Date.now() / 1000)), macKey = signer.macKey } = {}
): Promise<RawAnswer> {
	const nonce = randomNonce('letters');
	const url = `${server.url}${target}`;
	const mac = await sign(macKey, baseString({ ts, nonce, method: 'GET', ...requestTarget(url) }));
	return get(server, target, authorizationHeader({ id: signer.kid, ts, nonce, mac }));
}

let sandbox: SandboxServer;
/** A second server whose first request of each kid is answered server_error. */
let faulty: SandboxServer;

beforeAll(async () => {
	const fault = parseFault('server_error:first=1');
	if (typeof fault === 'string') throw new Error(fault);
	[sandbox, faulty] = await Promise.all([
		startSandboxServer({ port: 0 }),
		startSandboxServer({ port: 0, faults: [fault] })
	]);
});

afterAll(async () => {
	await Promise.all([sandbox?.close(), faulty?.close()]);
});

const OTHER_PATH = '/account/nothing/v1';

/**
 * A request the sandbox answers with each error code, and the path whose responses document it
 * (null: a path that is no operation's, documented by every operation's response of that status).
 * Keyed by every code: an error code added to account-api needs its case here.
 */
const ERROR_CASES: Record<
	ErrorCode,
	{ what: string; path: string | null; send: () => Promise<RawAnswer> }
> = {
	invalid_request: {
		what: 'no Authorization header',
		path: OPERATIONS['basic-info'].path,
		send: () => get(sandbox, target(OPERATIONS['basic-info'].path, both.clientId))
	},
	invalid_time: {
		what: `ts ${10 * TS_WINDOW_SECONDS} s behind the clock`,
		path: OPERATIONS.profile.path,
		send: () =>
			signed(sandbox, target(OPERATIONS.profile.path, both.clientId), both, {
				ts: String(Math.floor(Date.now() / 1000) - 10 * TS_WINDOW_SECONDS)
			})
	},
	invalid_client: {
		what: 'a client_id that is not the token’s application',
		path: OPERATIONS['basic-info'].path,
		send: () => signed(sandbox, target(OPERATIONS['basic-info'].path, 'not-this-client'), both)
	},
	access_denied: {
		what: 'a mac signed with the wrong key',
		path: OPERATIONS.profile.path,
		send: () =>
			signed(sandbox, target(OPERATIONS.profile.path, both.clientId), both, {
				macKey: 'not-the-mac-key'
			})
	},
	forbidden: {
		what: 'an account with basic_info alone asking for the profile',
		path: OPERATIONS.profile.path,
		send: () => signed(sandbox, target(OPERATIONS.profile.path, basicOnly.clientId), basicOnly)
	},
	not_found: {
		what: 'a path that is no operation’s',
		path: null,
		send: () => signed(sandbox, target(OTHER_PATH, both.clientId), both)
	},
	server_error: {
		what: 'a fault injected by --fault server_error:first=1',
		path: OPERATIONS.profile.path,
		send: () => signed(faulty, target(OPERATIONS.profile.path, both.clientId), both)
	}
};

describe("the sandbox server's answers, against the OpenAPI document", () => {
	it('uses demo accounts with the scopes the cases need', () => {
		expect(both.scopes).toEqual(
			expect.arrayContaining(operations.map((id) => OPERATIONS[id].scope))
		);
		expect(basicOnly.scopes).not.toContain(OPERATIONS.profile.scope);
		expect(basicOnly.clientId).toBe(both.clientId);
		expect(operations.map((id) => OPERATIONS[id].path)).not.toContain(OTHER_PATH);
	});

	it('documents as optional the diagnosis headers the sandbox sends, by their names', () => {
		expect(Object.keys(SANDBOX_HEADERS).map((name) => name.toLowerCase())).toEqual([
			DIAGNOSIS_HEADER,
			BASE_STRING_HEADER
		]);
	});

	for (const id of operations) {
		it(`answers ${OPERATIONS[id].path} 200 with the wrapped resource`, async () => {
			const path = OPERATIONS[id].path;
			const answer = await signed(sandbox, target(path, both.clientId), both);
			const body = expectDocumented(answer, path, 200);
			expect(body.success).toBe(true);
			expect(Object.keys(answer.headers).filter((name) => name.startsWith('x-sandbox-'))).toEqual(
				[]
			);
		});
	}

	for (const [code, { what, path, send }] of Object.entries(ERROR_CASES)) {
		const status = ERROR_CODES[code as ErrorCode].status;
		it(`answers ${code} (${what}) ${status}, wrapped, with its diagnosis`, async () => {
			const answer = await send();
			for (const documented of path === null ? operations.map((id) => OPERATIONS[id].path) : [path])
				expect(expectDocumented(answer, documented, status).data).toMatchObject({ error: code });
			expect(answer.headers[DIAGNOSIS_HEADER]).toMatch(/^reason=/);
			if (code === 'access_denied') {
				expect(answer.headers[BASE_STRING_HEADER]).toBeTruthy();
				expect(JSON.parse(answer.body).data.sandbox_base_string).toBeTypeOf('string');
			}
		});
	}

	it('has a case for every error code of account-api', () => {
		expect(Object.keys(ERROR_CASES)).toEqual(Object.keys(ERROR_CODES));
	});

	it('refuses a body that drifts from the document', async () => {
		const path = OPERATIONS.profile.path;
		const validate = (status: number) => {
			const { pointer } = documentedResponse(path, status);
			const schema = ajv.getSchema(`${DOCUMENT_ID}${pointer}/content/application~1json/schema`);
			if (!schema) throw new Error(`no schema for ${status}`);
			return (body: unknown) => schema(body) === true;
		};
		const ok = JSON.parse((await signed(sandbox, target(path, both.clientId), both)).body) as {
			data: Node;
			now: number;
			success: boolean;
		};
		expect(validate(200)(ok)).toBe(true);
		const { unionid: _dropped, ...withoutUnionid } = ok.data;
		void _dropped;
		const drifted: unknown[] = [
			ok.data, // bare, not wrapped
			{ ...ok, data: withoutUnionid },
			{ ...ok, data: { ...ok.data, nickname: 'extra' } },
			{ ...ok, success: false },
			{ ...ok, now: String(ok.now) },
			{ ...ok, extra: true }
		];
		for (const body of drifted) expect(validate(200)(body), JSON.stringify(body)).toBe(false);
		// An error body under a status its code does not carry, or with a code of no error.
		const forbidden = JSON.parse((await ERROR_CASES.forbidden.send()).body) as { data: Node };
		expect(validate(ERROR_CODES.forbidden.status)(forbidden)).toBe(true);
		expect(validate(ERROR_CODES.invalid_request.status)(forbidden)).toBe(false);
		expect(
			validate(ERROR_CODES.forbidden.status)({
				...forbidden,
				data: { ...forbidden.data, error: 'unauthorized' }
			})
		).toBe(false);
		expect(
			validate(ERROR_CODES.forbidden.status)({
				...forbidden,
				data: { ...forbidden.data, code: '0' }
			})
		).toBe(false);
	});
});
