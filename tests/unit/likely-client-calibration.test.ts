// The likely client's confidence, calibrated: over requests made by the zoo's clients (each signed
// by its own program with its own toolchain, fixtures/zoo-requests.json, with the mistakes the zoo
// run diagnosed) and by signers written apart from them in other languages and libraries
// (tests/clients/outsiders, run once into fixtures/outsider-requests.json, each diagnosed here with
// the key it was signed with, as /verify and the triage would), the "high" claims are at least 95%
// right and the "medium" ones at least 80%. A claim is right when it names the client that made the
// request; every claim on an outsider's request is wrong.
import { beforeAll, describe, expect, it } from 'vitest';
import zooRequests from './fixtures/zoo-requests.json' with { type: 'json' };
import outsiderRequests from './fixtures/outsider-requests.json' with { type: 'json' };
import { renderText as render } from '$lib/i18n/render-text';
import { shownString } from '$lib/i18n/shown-text';
import { likelyClient, type Confidence } from '$lib/diagnosis/likely-client';
import { diagnose } from '$lib/diagnosis/diagnose';
import { parseAuthorization } from '$lib/mac/header-parse';

interface Sample {
	id: string;
	/** The vendor's client that made it; null for an outsider. */
	client: string | null;
	url: string;
	authorization: string;
	/** The mistakes diagnosed. */
	mistakes: string[];
}

/** The keys tests/clients/outsiders/generate.mjs signs with. */
const OUTSIDER_KEY = 'demo-mac-key-outsider-51e0';
const OUTSIDER_NON_ASCII_KEY = 'demo-mac-key-é-51e0';

const THRESHOLDS: Record<Confidence, number> = { high: 0.95, medium: 0.8 };

/** The catalogue's first explanation of an outsider's request, as the triage takes it. */
async function diagnosed(url: string, authorization: string, variant: string): Promise<string[]> {
	const diagnosis = await diagnose({
		authorization: parseAuthorization(authorization),
		url,
		uriForm: 'as-written',
		macKey: variant === 'key-ascii' ? OUTSIDER_NON_ASCII_KEY : OUTSIDER_KEY
	});
	if (diagnosis.match) return [];
	return (diagnosis.explanations[0]?.id ?? 'unexplained').split('+');
}

let samples: Sample[] = [];
const outsiders = new Map<string, Sample>();

beforeAll(async () => {
	for (const { id, url, authorization, variant } of outsiderRequests) {
		const mistakes = await diagnosed(url, authorization, variant);
		outsiders.set(id, { id, client: null, url, authorization, mistakes });
	}
	samples = [
		...zooRequests.map(({ id, client, url, authorization, expectedIds }) => ({
			id,
			client,
			url,
			authorization,
			mistakes: expectedIds
		})),
		...outsiders.values()
	];
});

function tally() {
	const claims: Record<Confidence, { right: number; wrong: string[] }> = {
		high: { right: 0, wrong: [] },
		medium: { right: 0, wrong: [] }
	};
	let unknown = 0;
	for (const sample of samples) {
		const found = likelyClient(sample);
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
		expect(new Set(outsiderRequests.map(({ signer }) => signer)).size).toBeGreaterThanOrEqual(6);
		const { claims, unknown } = tally();
		for (const confidence of ['high', 'medium'] as const) {
			const { right, wrong } = claims[confidence];
			const made = right + wrong.length;
			if (made === 0) continue;
			// The wrong claims are listed when the share falls short.
			expect(
				right / made,
				`${confidence}: ${right} of ${made} right; wrong: ${wrong.join(', ')}`
			).toBeGreaterThanOrEqual(THRESHOLDS[confidence]);
		}
		// Claims are made at all, and not for everything.
		expect(claims.high.right).toBeGreaterThan(0);
		expect(claims.medium.right).toBeGreaterThan(0);
		expect(unknown).toBeGreaterThan(0);
	});

	it('is measured on outsiders that make the common mistakes', () => {
		// Each mac mistake an outsider makes on purpose is the one the diagnosis names: the set
		// holds them, so a rule that leans on a mistake meets other code making it.
		const named = new Set<string>();
		for (const { id, variant } of outsiderRequests) {
			const { mistakes } = outsiders.get(id) as Sample;
			if (
				['hmac-sha256', 'digest-hex', 'query-dropped', 'host-legacy', 'key-ascii'].includes(variant)
			)
				expect(mistakes, id).toEqual([variant]);
			for (const mistake of mistakes) named.add(mistake);
		}
		expect([...named].sort()).toEqual(
			expect.arrayContaining(['hmac-sha256', 'host-legacy', 'key-ascii', 'query-re-encoded'])
		);
	});

	it('names an outsider only where it kept a sample’s fixed nonce', () => {
		// A port of the PHP sample that kept its nonce and its `,` cannot be told from the sample;
		// nothing else an outsider writes names a client.
		for (const sample of outsiders.values()) {
			const found = likelyClient(sample);
			if (found.confidence !== null)
				expect(sample.authorization, sample.id).toContain('nonce="== XinDong_Lee-JiEun =="');
		}
	});

	it('says unknown with what was seen, and whose form it is', () => {
		const python = outsiders.get('python-requests/a/ok/open.tapapis.cn');
		if (!python) throw new Error('no python-requests request');
		const found = likelyClient(python);
		expect(found).toMatchObject({ clients: [], confidence: null, id: 'unknown' });
		expect(shownString(render, found.summary)).toBe(
			'unknown; seen: nonce Base64 of 16 bytes; header parts joined by , ; that is how docs Node.js sample (current) writes a request, and other code writes it so too: not enough to name a client'
		);
	});
});
