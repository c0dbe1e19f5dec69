// The triage's diagnosis of a mismatch in the thread that verifies it: each variant signed
// synchronously, each key's state kept between diagnoses.
import type { DiagnoseInput } from '$lib/diagnosis/diagnose';
import { syncDigests } from './hmac';
import { diagnoseMistake } from './verify';

export type Diagnose = (mismatch: DiagnoseInput) => Promise<string>;

/** Diagnoses in this thread, each variant signed synchronously. */
export function localDiagnose(): Diagnose {
	const digests = syncDigests();
	return (mismatch) => diagnoseMistake(mismatch, digests);
}
