// The triage keeps only the id of a mismatch's first explanation, so its search ends at the first
// reproduction and writes none of diagnose's words (firstExplanationId, through diagnoseMistake).
// That id must be the one a whole search names first, for every kind of mistake the bench plants
// and for every request of the client zoo, read both ways.
import { describe, expect, it } from 'vitest';
import { DIAGNOSIS_STOPPED, diagnose, type DiagnoseInput } from '$lib/diagnosis';
import { parseAuthorization } from '$lib/mac';
import { syncDigests } from '$lib/triage/hmac';
import { diagnoseMistake } from '$lib/triage/verify';
import { triageLog } from '../bench/triage-log.js';
import { zooInputs } from './zoo-inputs';

/** The id a whole search names first, as the triage writes it. */
async function wholeSearchId(input: DiagnoseInput): Promise<string> {
	const diagnosis = await diagnose(input, { hmac: syncDigests() });
	if (diagnosis.verdict === 'stopped') return DIAGNOSIS_STOPPED;
	return diagnosis.explanations[0]?.id ?? 'unexplained';
}

/** The requests of a generated log (every line faulty) that can be diagnosed, with their lines. */
function plantedInputs(options: { requests: number; seed: number }): [string, DiagnoseInput][] {
	const log = triageLog({ ...options, faultRate: 1 });
	const keys = new Map(
		log.keys.text
			.trim()
			.split('\n')
			.map((line) => line.split(' ') as [string, string])
	);
	const inputs: [string, DiagnoseInput][] = [];
	for (const line of log.lines) {
		let record: { method?: unknown; url?: unknown; authorization?: unknown };
		let authorization;
		try {
			record = JSON.parse(line);
			if (typeof record.url !== 'string' || typeof record.authorization !== 'string') continue;
			authorization = parseAuthorization(record.authorization);
		} catch {
			// A line planted unreadable, or a header that is not one: not the diagnosis's to read.
			continue;
		}
		const macKey = keys.get(authorization.id);
		if (macKey === undefined) continue;
		const method = typeof record.method === 'string' ? record.method : 'GET';
		inputs.push([line, { authorization, method, url: record.url, uriForm: 'as-written', macKey }]);
	}
	return inputs;
}

describe("the triage's diagnosis, ended at the first reproduction", () => {
	it('names what the whole search names, for every kind of planted mistake', async () => {
		// Every line faulty: each of the bench's mistakes many times over, under 20 keys.
		const signer = syncDigests();
		const seen = new Map<string, number>();
		for (const [line, input] of plantedInputs({ requests: 400, seed: 5 })) {
			const whole = await wholeSearchId(input);
			if (whole === 'unexplained' && (await diagnose(input, { hmac: signer })).verdict === 'match')
				continue;
			expect(await diagnoseMistake(input, signer), line).toBe(whole);
			seen.set(whole, (seen.get(whole) ?? 0) + 1);
		}
		// The planted kinds that are mismatches, each seen, and the ones nothing explains too.
		expect([...seen.keys()].sort()).toEqual(
			expect.arrayContaining(['crlf', 'host-with-port', 'query-dropped', 'unexplained'])
		);
		expect(seen.size).toBeGreaterThanOrEqual(8);
	});

	it('names what the whole search names for every request of the client zoo', async () => {
		const signer = syncDigests();
		for (const { name, input } of zooInputs()) {
			const whole = await wholeSearchId(input);
			const diagnosis = await diagnose(input, { hmac: signer });
			if (diagnosis.verdict === 'match') continue;
			expect(await diagnoseMistake(input, signer), name).toBe(whole);
		}
	});

	it('does less work than the whole search where a likely mistake explains the mac', async () => {
		let compared = 0;
		for (const [, input] of plantedInputs({ requests: 200, seed: 6 })) {
			const whole = await diagnose(input, { hmac: syncDigests() });
			if (whole.verdict !== 'explained') continue;
			const first = await diagnose(input, { hmac: syncDigests(), first: true });
			expect(first.explanations.map((found) => found.id)).toEqual([whole.explanations[0]?.id]);
			expect(first.work).toBeLessThan(whole.work);
			compared += 1;
		}
		expect(compared).toBeGreaterThan(50);
	});
});
