// The likely client's confidence, calibrated: over requests made by the zoo's clients (each signed
// by its own program with its own toolchain, fixtures/zoo-requests.json) and by signers written
// apart from them in other languages and libraries (tests/clients/outsiders, run once into
// fixtures/outsider-requests.json), the "high" claims are at least 95% right and the "medium" ones
// at least 80%. A claim is right when it names the client that made the request; every claim on an
// outsider's request is wrong.
import { describe, expect, it } from 'vitest';
import zooRequests from './fixtures/zoo-requests.json' with { type: 'json' };
import outsiderRequests from './fixtures/outsider-requests.json' with { type: 'json' };
import { renderText as render } from '$lib/i18n/render-text';
import { shownString } from '$lib/i18n/shown-text';
import { likelyClient, type Confidence } from '$lib/diagnosis/likely-client';

interface Sample {
	id: string;
	/** The vendor's client that made it; null for an outsider. */
	client: string | null;
	url: string;
	authorization: string;
	mistakes: string[];
}

const SAMPLES: Sample[] = [
	...zooRequests.map(({ id, client, url, authorization, expectedIds }) => ({
		id,
		client,
		url,
		authorization,
		mistakes: expectedIds
	})),
	...outsiderRequests.map(({ id, url, authorization, mistakes }) => ({
		id,
		client: null,
		url,
		authorization,
		mistakes
	}))
];

const THRESHOLDS: Record<Confidence, number> = { high: 0.95, medium: 0.8 };

function tally() {
	const claims: Record<Confidence, { right: number; wrong: string[] }> = {
		high: { right: 0, wrong: [] },
		medium: { right: 0, wrong: [] }
	};
	let unknown = 0;
	for (const sample of SAMPLES) {
		const found = likelyClient({
			authorization: sample.authorization,
			mistakes: sample.mistakes,
			url: sample.url
		});
		if (found.confidence === null) {
			unknown++;
			continue;
		}
		const claim = claims[found.confidence];
		if (found.clients.length === 1 && found.clients[0] === sample.client) claim.right++;
		else claim.wrong.push(`${sample.id} named ${found.id}`);
	}
	return { claims, unknown };
}

describe('the likely client’s confidence', () => {
	it('is calibrated on the zoo’s requests and on signers outside it', () => {
		const outsiders = new Set(outsiderRequests.map(({ signer }) => signer));
		expect(outsiders.size).toBeGreaterThanOrEqual(6);
		const { claims, unknown } = tally();
		for (const confidence of ['high', 'medium'] as const) {
			const { right, wrong } = claims[confidence];
			const made = right + wrong.length;
			if (made === 0) continue;
			// The wrong claims are listed when the share falls short.
			expect(right / made, `${confidence}: ${right} of ${made} right; wrong: ${wrong.join(', ')}`)
				.toBeGreaterThanOrEqual(THRESHOLDS[confidence]);
		}
		// Claims are made at all, and not for everything.
		expect(claims.high.right).toBeGreaterThan(0);
		expect(unknown).toBeGreaterThan(0);
	});

	it('names no client for an outsider with high confidence', () => {
		for (const { id, url, authorization, mistakes } of outsiderRequests) {
			const found = likelyClient({ authorization, mistakes, url });
			expect(found.confidence, id).not.toBe('high');
		}
	});

	it('says unknown with what was seen, and who writes that form too', () => {
		const python = outsiderRequests.find(({ id }) => id.startsWith('python-requests/a/ok/'));
		if (!python) throw new Error('no python-requests request');
		const found = likelyClient(python);
		expect(found).toMatchObject({ clients: [], confidence: null, id: 'unknown' });
		expect(shownString(render, found.summary)).toBe(
			'unknown; seen: nonce Base64 of 16 bytes; header parts joined by , ; that is how docs Node.js sample (current) writes a request, and other code writes it so too: not enough to name a client'
		);
	});
});
