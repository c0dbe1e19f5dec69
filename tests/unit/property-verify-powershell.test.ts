// Property tests of the PowerShell reader: any text gives a request or a MacInputError, never
// another exception, any string devtools writes reads back, and huge input is answered quickly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNED_REQUEST_FIELD, detectKind, parsePowerShell, parseSignedRequest } from '$lib/read';
import {
	RUNS,
	hostile,
	huge,
	mutated,
	outcome,
	powershellString,
	powershellVerbatim,
	quickly,
	utf16Unit
} from './property-arbitraries';
import { powershellText } from './verify-arbitraries-powershell';
import { englishAll } from './verify-english';

describe('parsePowerShell (property)', () => {
	it('gives the URL, method and headers of a PowerShell command or a MacInputError for any paste', () => {
		fc.assert(
			fc.property(
				fc.oneof(powershellText, powershellText, mutated(powershellText), hostile),
				(text) => {
					const result = outcome(() => parsePowerShell(text));
					if (!result.ok) {
						expect(result.error.field).toBe(SIGNED_REQUEST_FIELD);
						return;
					}
					const request = result.value;
					expect(request.url).toMatch(/\S/);
					expect(request.method).not.toBe('');
					for (const header of request.headers) {
						expect(typeof header.name).toBe('string');
						expect(typeof header.value).toBe('string');
						// The HTTP/2 pseudo-header entries are never sent on as headers.
						expect(header.name).not.toMatch(/^:?(?:authority|method|path|scheme)$/i);
					}
					expect(englishAll(request.understood).length).toBeGreaterThan(0);
				}
			),
			RUNS
		);
	});

	it('reads back any string devtools writes, whatever it holds', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: fc.oneof(utf16Unit, fc.constantFrom('`', '$', '"', "'", '$(', '\n')) }),
				fc.constantFrom(powershellString, powershellVerbatim),
				(value, quote) => {
					const request = parsePowerShell(
						`Invoke-WebRequest -Uri "https://h/" -Headers @{"x-value"=${quote(value)}}`
					);
					expect(request.headers).toEqual([{ name: 'x-value', value }]);
					expect(englishAll(request.understood).join(' ')).not.toMatch(/expanded/);
				}
			),
			RUNS
		);
	});
});

// A hang guard, not a speed test: a parser that backtracks on these inputs never ends, one that
// reads them linearly ends within seconds even on a loaded 2-core machine; speed and linearity are
// the bench's (npm run bench). The one limit in the unit project (testTimeout is 0) is this guard.
describe('huge input (property)', { timeout: 60_000 }, () => {
	it('parsePowerShell, parseSignedRequest and detectKind answer quickly on 50-250 kB of PowerShell-like text', () => {
		fc.assert(
			fc.property(
				huge(
					[
						'Invoke-WebRequest -Uri "https://h/" -Headers @{',
						'$session = New-Object X\nInvoke-WebRequest -Uri "',
						'Invoke-RestMethod ',
						'$h = @{',
						'Invoke-WebRequest -Uri "https://h/" -Body ',
						''
					],
					[
						'"a"="b"\n',
						"'a'='b''c';",
						'`"',
						'``',
						'""',
						'$(',
						'${',
						'$([char]65)',
						'(',
						'@{',
						'@{a=',
						'"$("',
						'<#',
						'# c\n',
						' `\n',
						'Invoke-WebRequest -Uri "https://h/"\n',
						'$h.Add("a", "b")\n',
						'-Uri ',
						'a',
						'\n'
					]
				),
				(text) => {
					quickly(() => parsePowerShell(text));
					quickly(() => parseSignedRequest(text));
					quickly(() => detectKind(text));
				}
			),
			{ numRuns: 25 }
		);
	});
});
