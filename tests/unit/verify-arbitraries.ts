// Any paste the /verify page may be given: every format the readers know, whole or damaged, and junk.
import fc from 'fast-check';
import { hostile, mutated } from './property-arbitraries';
import { fetchText, harText } from './verify-arbitraries-json';
import { powershellText } from './verify-arbitraries-powershell';
import { anyHeader, curlText, rawText } from './verify-arbitraries-shell';

export const signedRequestText = fc.oneof(
	hostile,
	anyHeader,
	anyHeader.map((header) => `Authorization: ${header}`),
	mutated(anyHeader),
	curlText,
	mutated(curlText),
	rawText,
	mutated(rawText),
	harText,
	mutated(harText),
	fetchText,
	mutated(fetchText),
	powershellText,
	mutated(powershellText)
);
