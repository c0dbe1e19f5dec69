// The client zoo's requests (fixtures/zoo-requests.json) as the diagnosis takes them: each read
// both ways a URL is read, with the key of its account (tests/clients/matrix.ts).
import type { DiagnoseInput } from '$lib/diagnosis';
import { parseAuthorization } from '$lib/mac';
import { ACCOUNTS } from '../clients/matrix';
import zooRequests from './fixtures/zoo-requests.json' with { type: 'json' };

const KEYS = new Map(ACCOUNTS.map(({ kid, macKey }) => [kid, macKey]));

/** Every zoo request twice (as a browser sends its URL, and as written), named by its id and form. */
export function zooInputs(): { name: string; input: DiagnoseInput }[] {
	return zooRequests.flatMap((request) => {
		const authorization = parseAuthorization(request.authorization);
		return (['browser', 'as-written'] as const).map((uriForm) => ({
			name: `${request.id} (${uriForm})`,
			input: {
				authorization,
				url: request.url,
				uriForm,
				macKey: KEYS.get(authorization.id) ?? ''
			}
		}));
	});
}
