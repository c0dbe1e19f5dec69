// The OpenAPI document: valid OpenAPI 3.1, and the facts of this folder in it, so that a fact added
// here (an operation, an error code, a status, a deployment) shows up in the document or fails here.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { BASE_STRING_RULES, MAC_ALGORITHM, parseAuthorization } from '$lib/mac';
import { DEPLOYMENTS, REGIONS } from './deployments';
import { ERROR_CODES, type ErrorCode } from './error-codes';
import {
	OPENAPI_VERSION,
	SANDBOX_HEADERS,
	SECURITY_SCHEME,
	errorStatuses,
	openApiDocument
} from './openapi';
import { OPERATIONS, SCOPES, type Operation } from './operations';

type Node = Record<string, unknown>;

const document = openApiDocument();

/** The value at a `#/…` JSON pointer of the document. */
function pointer(ref: string): Node {
	expect(ref.startsWith('#/')).toBe(true);
	let node: unknown = document;
	for (const part of ref.slice(2).split('/')) {
		node = (node as Node)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
		expect(node, ref).toBeTypeOf('object');
	}
	return node as Node;
}

/** `node`, or what its $ref names. */
function deref(node: unknown): Node {
	const object = node as Node;
	return typeof object.$ref === 'string' ? pointer(object.$ref) : object;
}

const at = (node: unknown, ...keys: string[]): unknown =>
	keys.reduce<unknown>((inner, key) => deref(inner)[key], node);

const operationOf = (id: Operation) => at(document, 'paths', OPERATIONS[id].path, 'get') as Node;
const operations = Object.keys(OPERATIONS) as Operation[];

/** The statuses of ERROR_CODES, each with its codes, read from account-api alone. */
function statusesOfTheCodes(): Record<string, ErrorCode[]> {
	const statuses: Record<string, ErrorCode[]> = {};
	for (const [code, { status }] of Object.entries(ERROR_CODES))
		(statuses[String(status)] ??= []).push(code as ErrorCode);
	return statuses;
}

/** The schema of the JSON body of a response, its $refs followed to the envelope. */
function bodySchema(response: unknown): Node {
	return deref(at(response, 'content', 'application/json', 'schema'));
}

describe('the OpenAPI document', () => {
	it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
		const validator = new Validator();
		const result = await validator.validate(document);
		expect(result.errors).toBeUndefined();
		expect(result.valid).toBe(true);
		expect(validator.version).toBe('3.1');
		expect(document.openapi).toBe(OPENAPI_VERSION);
		// The validator reads the whole document: a $ref to nothing is refused.
		const broken = structuredClone(document);
		(at(broken, 'components', 'responses', 'Error404') as Node).content = {
			'application/json': { schema: { $ref: '#/components/schemas/Nothing' } }
		};
		expect((await new Validator().validate(broken)).valid).toBe(false);
	});

	it('is JSON as it is: what the build writes is what was built', () => {
		expect(JSON.parse(JSON.stringify(document))).toEqual(document);
	});

	it('has the paths of the operations, GET alone, each with client_id required in the query', () => {
		expect(Object.keys(at(document, 'paths') as Node)).toEqual(
			operations.map((id) => OPERATIONS[id].path)
		);
		for (const id of operations) {
			expect(Object.keys(at(document, 'paths', OPERATIONS[id].path) as Node)).toEqual(['get']);
			const parameters = (operationOf(id).parameters as unknown[]).map(deref);
			expect(parameters).toEqual([
				expect.objectContaining({
					name: 'client_id',
					in: 'query',
					required: true,
					schema: { type: 'string', minLength: 1 }
				})
			]);
		}
	});

	it('asks each operation for the MAC token with the scope it needs', () => {
		for (const id of operations)
			expect(operationOf(id).security).toEqual([{ [SECURITY_SCHEME]: [OPERATIONS[id].scope] }]);
		expect(document.security).toEqual([{ [SECURITY_SCHEME]: [] }]);
	});

	it('answers 200 and the status of every error code, each status with its codes alone', () => {
		const statuses = statusesOfTheCodes();
		expect(
			Object.fromEntries([...errorStatuses()].map(([s, codes]) => [String(s), codes]))
		).toEqual(statuses);
		for (const id of operations) {
			const responses = operationOf(id).responses as Node;
			expect(Object.keys(responses).sort()).toEqual(['200', ...Object.keys(statuses)].sort());
			for (const [status, codes] of Object.entries(statuses)) {
				const envelope = bodySchema(responses[status]);
				expect(at(envelope, 'properties', 'success')).toMatchObject({ const: false });
				const [object, narrowed] = at(envelope, 'properties', 'data', 'allOf') as Node[];
				expect(object).toEqual({ $ref: '#/components/schemas/ErrorObject' });
				expect(at(narrowed, 'properties', 'error', 'enum')).toEqual(codes);
			}
		}
		expect(
			at(document, 'components', 'schemas', 'ErrorObject', 'properties', 'error', 'enum')
		).toEqual(Object.keys(ERROR_CODES));
	});

	it('wraps every body in the envelope, the error object with code, error and error_description', () => {
		const envelopes = Object.entries(at(document, 'components', 'schemas') as Node).filter(
			([name]) => name.endsWith('Envelope')
		);
		expect(envelopes.length).toBe(operations.length + errorStatuses().size);
		for (const [, envelope] of envelopes) {
			expect(envelope).toMatchObject({
				type: 'object',
				required: ['data', 'now', 'success'],
				additionalProperties: false
			});
			expect(at(envelope, 'properties', 'now')).toMatchObject({ type: 'integer' });
		}
		const error = at(document, 'components', 'schemas', 'ErrorObject') as Node;
		expect(error.required).toEqual(['code', 'error', 'error_description']);
		expect(at(error, 'properties', 'code')).toMatchObject({ type: 'integer' });
		expect(at(error, 'properties', 'msg')).toMatchObject({ type: 'string' });
	});

	it('answers the resources of spec §2.1 and §2.2 on success', () => {
		const fields = (id: Operation) => {
			const envelope = bodySchema(at(operationOf(id), 'responses', '200'));
			expect(at(envelope, 'properties', 'success')).toMatchObject({ const: true });
			return deref(at(envelope, 'properties', 'data')).required;
		};
		expect(fields('basic-info')).toEqual(['openid', 'unionid']);
		expect(fields('profile')).toEqual(['name', 'avatar', 'openid', 'unionid']);
	});

	it("serves from the deployments' base URLs, the defaults unless a build names others", () => {
		expect(document.servers).toEqual(
			REGIONS.map((region) => ({
				url: DEPLOYMENTS[region].defaultBaseUrl,
				description: `${DEPLOYMENTS[region].label} deployment`
			}))
		);
		const own = openApiDocument({ domestic: 'https://a.test', overseas: 'https://b.test' });
		expect((own.servers as Node[]).map(({ url }) => url)).toEqual([
			'https://a.test',
			'https://b.test'
		]);
	});

	it('describes the MAC scheme as an apiKey in Authorization: header, base string, HMAC-SHA-1, Base64', () => {
		const scheme = at(document, 'components', 'securitySchemes', SECURITY_SCHEME) as Node;
		expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
		const description = String(scheme.description);
		// The seven lines, named and ordered as the core builds them.
		const lines = [...description.matchAll(/^(\d)\. ([^:\n]+):/gm)];
		expect(lines.map(([, number]) => Number(number))).toEqual(
			BASE_STRING_RULES.map((_, index) => index + 1)
		);
		expect(lines.map(([, , name]) => name)).toEqual(BASE_STRING_RULES.map((rule) => rule.name));
		expect(description).toContain(MAC_ALGORITHM.toUpperCase());
		expect(description).toContain(`\`${MAC_ALGORITHM}\``);
		expect(description).toContain('Base64');
		expect(description).toContain(`${OPERATIONS.profile.path}?client_id=`);
		for (const scope of SCOPES) expect(description).toContain(`\`${scope}\``);
		// The header as the core reads it.
		const header = /`(Authorization: MAC [^`]+)`/.exec(description)?.[1] ?? '';
		expect(parseAuthorization(header.slice('Authorization: '.length))).toMatchObject({
			id: '<kid>',
			ts: '<ts>',
			nonce: '<nonce>',
			mac: '<mac>'
		});
		for (const name of Object.keys(SANDBOX_HEADERS)) expect(description).toContain(name);
	});

	it("documents the sandbox's diagnosis headers as optional on every error answer, on no success", () => {
		const headers = at(document, 'components', 'headers') as Node;
		expect(Object.keys(headers)).toEqual(Object.keys(SANDBOX_HEADERS));
		for (const header of Object.values(headers))
			expect(header).toMatchObject({ required: false, schema: { type: 'string' } });
		for (const id of operations) {
			const responses = operationOf(id).responses as Node;
			for (const [status, response] of Object.entries(responses)) {
				const documented = Object.keys((deref(response).headers as Node | undefined) ?? {});
				expect(documented).toEqual(status === '200' ? [] : Object.keys(SANDBOX_HEADERS));
			}
		}
	});
});
