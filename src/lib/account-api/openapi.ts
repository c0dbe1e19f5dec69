// The service's OpenAPI 3.1 document (openapi.json in the build, linked from the sandbox page), built
// from the facts of this folder: the operations and their scopes, the error codes and their statuses,
// the envelope, the deployments. A fact changed there changes the document; openapi.test.ts checks
// the document against them and tests/unit/sandbox-openapi.test.ts checks the sandbox's answers
// against the document. Relative imports only: the build may import it before its aliases exist.
import { DEPLOYMENTS, REGIONS, type Region } from './deployments';
import type { Envelope, ErrorObject } from './envelope';
import { ERROR_CODES, STATUS_TEXTS, type ErrorCode } from './error-codes';
import { OPERATIONS, SCOPES, type Operation } from './operations';
import { TS_WINDOW_SECONDS } from './ts-window';

type Schema = Record<string, unknown>;

/** The OpenAPI version written: 3.1.0, which every 3.1 tool reads. */
export const OPENAPI_VERSION = '3.1.0';

/** The name of the security scheme in components.securitySchemes. */
export const SECURITY_SCHEME = 'mac';

/**
 * The headers the sandbox server (never the real service) adds to an answer that failed a check,
 * unless started with --strict: why (src/node/sandbox-server/diagnosis.ts writes them in lower
 * case).
 */
export const SANDBOX_HEADERS = {
	'X-Sandbox-Diagnosis':
		'Sandbox server only, on a failed request: why it failed, as `reason=<check>` (for example `reason=ts-outside-window`), and for a mac that does not match `; mistake=<id>; client=<id>; confidence=<level>`; when the host signed is not the one called, also `; signed=<host>; called=<host:port>; hint="signed <host> but called <host:port>: sign the host you call"`. ASCII only. Not sent by the real service, nor by a sandbox started with --strict.',
	'X-Sandbox-Base-String':
		'Sandbox server only, on a failed request whose Authorization header could be read: the base string the sandbox built from the request, as one line (a line feed written `\\n`, a backslash `\\\\`, other characters outside printable ASCII `\\uXXXX`). Compare it with the one you signed. Not sent by the real service, nor by a sandbox started with --strict.'
} as const;

/** The resources of spec §2.1 and §2.2, the answer of each operation (spec §4). */
const RESOURCES = {
	'basic-info': {
		name: 'BasicInfo',
		noun: 'basic information',
		section: '2.1',
		fields: ['openid', 'unionid']
	},
	profile: {
		name: 'Profile',
		noun: 'detailed profile',
		section: '2.2',
		fields: ['name', 'avatar', 'openid', 'unionid']
	}
} as const satisfies Record<
	Operation,
	{ name: string; noun: string; section: string; fields: readonly string[] }
>;

type ResourceField = (typeof RESOURCES)[Operation]['fields'][number];

const FIELDS: Record<ResourceField, string> = {
	openid:
		'Unique identifier of the authorized user within one application: different per application for the same player, always identical for the same application and player.',
	unionid:
		"Unique identifier of the authorized user within one vendor: identical across all of one vendor's applications for the same player, different between vendors.",
	name: 'User name.',
	avatar: "Address of the user's avatar image."
};

/** What each operation is called in code generated from the document (`basic-info` → getBasicInfo). */
function operationId(id: Operation): string {
	return `get${id.replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase())}`;
}

const ref = (kind: 'schemas' | 'responses' | 'parameters' | 'headers', name: string) => ({
	$ref: `#/components/${kind}/${name}`
});

/** The statuses of the error codes, lowest first, each with its codes in ERROR_CODES' order. */
export function errorStatuses(): Map<number, ErrorCode[]> {
	const byStatus = new Map<number, ErrorCode[]>();
	const codes = Object.keys(ERROR_CODES) as ErrorCode[];
	for (const code of codes) {
		const { status } = ERROR_CODES[code];
		byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
	}
	return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The wrapped body (envelope.ts) around `data`, with `success` fixed to the answer's kind. */
function envelope(data: Schema, success: boolean, description: string): Schema {
	const properties = {
		data,
		now: {
			type: 'integer',
			description:
				"The server's clock when it answered, in whole seconds since the Unix epoch (compare it with ts after invalid_time)."
		},
		success: { const: success, description: success ? 'true on success.' : 'false on an error.' }
	} satisfies Record<keyof Envelope<unknown>, Schema>;
	return {
		type: 'object',
		description,
		required: Object.keys(properties),
		properties,
		additionalProperties: false
	};
}

/** The error object of spec §2.4, as the real service sends it (and the sandbox). */
function errorObject(): Schema {
	const properties = {
		code: { type: 'integer', description: 'Reserved for future problem tracking.' },
		error: {
			type: 'string',
			enum: Object.keys(ERROR_CODES),
			description: 'Error code for program logic (spec §7).'
		},
		error_description: { type: 'string', description: 'Human-readable text for developers.' },
		msg: { type: 'string', description: 'Extra text the real service may add.' },
		sandbox_base_string: {
			type: 'string',
			description:
				'Sandbox server only, in the answer to a mac that does not match (unless --strict): the base string the sandbox built from the request.'
		}
	} satisfies Record<keyof ErrorObject, Schema>;
	return {
		type: 'object',
		title: 'Error object (spec §2.4)',
		required: ['code', 'error', 'error_description'],
		properties,
		additionalProperties: false
	};
}

/** The mac_algorithm of spec §2.3, as the description names it. */
const ALGORITHM = { name: 'HMAC-SHA-1', id: 'hmac-sha-1' };

/**
 * The base string's lines (spec §5.3), named as mac/base-string.ts's BASE_STRING_RULES name them
 * (openapi.test.ts checks both): the core is not imported, so that the build's config can import
 * this module as it is, without the $lib alias.
 */
function baseStringLines(examplePath: string): string[] {
	return [
		'ts: the same value as in the header, byte for byte (padding included)',
		'nonce: the same value as in the header',
		'HTTP method: in upper case (`GET`)',
		`request URI: path plus query string exactly as sent, for example \`${examplePath}?client_id=<client_id>\``,
		'host: the host name actually called, in lower case, without the port',
		'port: the port of the URL; without one `443` for https (`80` for http)',
		'ext (extra data): empty for this service, so the base string ends with two line feeds'
	];
}

/** How the MAC token is computed and sent (spec §5), in Markdown. */
function macDescription(): string {
	const lines = baseStringLines(OPERATIONS.profile.path);
	return [
		"A MAC token, computed per request by the application's server (spec §5); not a fixed key. Every request carries one header:",
		'',
		'`Authorization: MAC id="<kid>",ts="<ts>",nonce="<nonce>",mac="<mac>"`',
		'',
		'(the four parts separated by a comma, with or without a following space), where:',
		'',
		"- `id` is the kid of the credential from the SDK's login result (equal to the access token);",
		'- `ts` is the current time in decimal whole seconds since the Unix epoch;',
		'- `nonce` is a random string, new for every request;',
		`- \`mac\` is ${ALGORITHM.name} (mac_algorithm \`${ALGORITHM.id}\`) over the base string (UTF-8), keyed with mac_key (UTF-8 bytes), the digest encoded with standard Base64. mac_key is a secret that stays on the server and is never sent.`,
		'',
		'The base string is seven lines, each terminated by a line feed (`\\n`), in this order:',
		'',
		...lines.map((line, index) => `${index + 1}. ${line}`),
		'',
		'The host signed must be the host called (the domestic or the overseas deployment).',
		'',
		`The scopes a credential may hold: ${SCOPES.map((scope) => `\`${scope}\``).join(', ')}; each operation lists the one it needs as the role of this scheme. A token without it is answered \`forbidden\`.`,
		'',
		`The window for ts is not stated by the service; the sandbox accepts ±${TS_WINDOW_SECONDS} s of its clock (an assumption) and answers \`invalid_time\` outside it.`,
		'',
		`On a failed request the sandbox server (never the real service) also sends the response headers ${Object.keys(
			SANDBOX_HEADERS
		)
			.map((name) => `\`${name}\``)
			.join(' and ')}: why it failed, and the base string it built.`
	].join('\n');
}

/** The default base URL of each deployment. */
const DEFAULT_BASE_URLS = Object.fromEntries(
	REGIONS.map((region) => [region, DEPLOYMENTS[region].defaultBaseUrl])
) as Record<Region, string>;

/**
 * The service's OpenAPI 3.1 document, as JSON-ready data. `baseUrls` are the servers (a build's own,
 * where its environment names others); the deployments' defaults when left out.
 */
export function openApiDocument(
	baseUrls: Readonly<Record<Region, string>> = DEFAULT_BASE_URLS
): Record<string, unknown> {
	const statuses = errorStatuses();
	const errorResponse = (status: number) => `Error${status}`;

	const schemas: Record<string, Schema> = { ErrorObject: errorObject() };
	for (const { name, noun, section, fields } of Object.values(RESOURCES)) {
		schemas[name] = {
			type: 'object',
			title: `${noun[0]?.toUpperCase()}${noun.slice(1)} (spec §${section})`,
			required: [...fields],
			properties: Object.fromEntries(
				fields.map((field) => [field, { type: 'string', description: FIELDS[field] }])
			),
			additionalProperties: false
		};
		schemas[`${name}Envelope`] = envelope(
			ref('schemas', name),
			true,
			`The wrapped ${noun} (spec §${section}).`
		);
	}

	const responses: Record<string, Schema> = {};
	for (const [status, codes] of statuses) {
		const name = errorResponse(status);
		schemas[`${name}Envelope`] = envelope(
			{
				allOf: [
					ref('schemas', 'ErrorObject'),
					{ type: 'object', properties: { error: { enum: codes } } }
				]
			},
			false,
			`The wrapped error object of a ${status} answer: ${codes.join(' or ')}.`
		);
		responses[name] = {
			description: `${STATUS_TEXTS[status] ?? status}: ${codes.map((code) => `\`${code}\``).join(' or ')}.`,
			headers: Object.fromEntries(
				Object.keys(SANDBOX_HEADERS).map((header) => [header, ref('headers', header)])
			),
			content: { 'application/json': { schema: ref('schemas', `${name}Envelope`) } }
		};
	}

	const paths = Object.fromEntries(
		(Object.keys(OPERATIONS) as Operation[]).map((id) => {
			const { path, scope } = OPERATIONS[id];
			const resource = RESOURCES[id];
			return [
				path,
				{
					get: {
						operationId: operationId(id),
						summary: `Get the ${resource.noun} of the current account`,
						description: `Spec §4: needs the scope \`${scope}\`. Answers the ${resource.noun} (spec §${resource.section}), wrapped.`,
						parameters: [ref('parameters', 'client_id')],
						security: [{ [SECURITY_SCHEME]: [scope] }],
						responses: {
							'200': {
								description: `${STATUS_TEXTS[200]}: the ${resource.noun}, wrapped.`,
								content: {
									'application/json': { schema: ref('schemas', `${resource.name}Envelope`) }
								}
							},
							...Object.fromEntries(
								[...statuses.keys()].map((status) => [
									String(status),
									ref('responses', errorResponse(status))
								])
							)
						}
					}
				}
			];
		})
	);

	return {
		openapi: OPENAPI_VERSION,
		info: {
			title: 'Account information service (MAC-token authorized)',
			version: '1',
			description:
				'A read-only account API that returns identifiers and profile data of a user who authorized an application. Every body is wrapped as `{"data": …, "now": <unix s>, "success": bool}`. The statuses of the errors are those of the service\'s older documentation: the spec does not show them.'
		},
		servers: REGIONS.map((region) => ({
			url: baseUrls[region],
			description: `${DEPLOYMENTS[region].label} deployment`
		})),
		security: [{ [SECURITY_SCHEME]: [] }],
		paths,
		components: {
			schemas,
			responses,
			parameters: {
				client_id: {
					name: 'client_id',
					in: 'query',
					required: true,
					description:
						"The application's Client ID; it must match the one registered for the application (else `invalid_client`).",
					schema: { type: 'string', minLength: 1 }
				}
			},
			headers: Object.fromEntries(
				Object.entries(SANDBOX_HEADERS).map(([name, description]) => [
					name,
					{ description, required: false, schema: { type: 'string' } }
				])
			),
			securitySchemes: {
				[SECURITY_SCHEME]: {
					type: 'apiKey',
					in: 'header',
					name: 'Authorization',
					description: macDescription()
				}
			}
		}
	};
}
