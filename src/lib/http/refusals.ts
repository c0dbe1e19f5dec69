/**
 * The refusals every server of this project gives before its handler sees a request
 * (src/node/http/serve.ts): each code with its status and what it means. The relay's list of its
 * own answers (relay/protocol.ts) includes these; the sandbox server words them as the service's
 * errors.
 */
export const SERVER_REFUSALS = {
	bad_request: { status: 400, meaning: 'the request could not be read as HTTP with a URL' },
	headers_too_large: { status: 431, meaning: 'the request headers exceed 16 KiB' },
	request_timeout: { status: 408, meaning: 'the request did not arrive in time' },
	method_not_allowed: { status: 405, meaning: 'only GET (and the CORS preflight) is served' },
	too_many_connections: {
		status: 503,
		meaning: 'more client connections are open than the cap (--max-connections)'
	},
	internal: { status: 500, meaning: 'a fault in the server itself' }
} as const satisfies Record<string, { status: number; meaning: string }>;

export type RefusalCode = keyof typeof SERVER_REFUSALS;
