// A process of its own for diagnosis-budget.test.ts: diagnoses mismatches with huge URLs as the
// triage does (diagnoser.ts's localDiagnose: every variant signed synchronously, one after the
// other), under the heap limit the test starts it with, and prints one JSON line: each mismatch's
// mistake id and the largest heap seen after each.
//
//   node --max-old-space-size=MB diagnosis-budget-child.js CASES.json
//
// CASES.json: [{ url, authorization: { id, ts, nonce, mac }, macKey }].
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const LIB = fileURLToPath(new URL('../../src/lib/', import.meta.url));
const { module } = await runnerImport(`${LIB}triage/diagnoser.ts`, {
	configFile: false,
	logLevel: 'silent',
	resolve: { alias: { $lib: LIB.replace(/\/$/, '') } }
});
const diagnose = module.localDiagnose();

/** @type {{ url: string, authorization: object, macKey: string }[]} */
const cases = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const mistakes = [];
let peakHeap = process.memoryUsage().heapUsed;
while (cases.length > 0) {
	// Taken off the list, so that only the one diagnosed is held.
	const mismatch = cases.shift();
	mistakes.push(await diagnose(mismatch));
	peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}
console.log(JSON.stringify({ mistakes, peakHeap }));
