import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '$lib/mac';

/** The words POSIX sh makes of a command line. */
function shellWords(command: string): string[] {
	const script = `set -- ${command}; printf '%s\\n' "$@"`;
	return execFileSync('sh', ['-c', script], { encoding: 'utf8' }).split('\n').slice(0, -1);
}

describe('curlCommand', () => {
	it('carries the URL and the header as single words for sh, exactly as signed', () => {
		const url = "https://open.tapapis.cn/account/profile/v1?client_id=a'b&x=[1]";
		const header = 'MAC id="k",ts="1",nonce="n+/=",mac="m=="';
		const words = shellWords(curlCommand(url, header));
		expect(words).toEqual([
			'curl',
			'--globoff',
			'--path-as-is',
			url,
			'-H',
			`Authorization: ${header}`
		]);
	});

	it('leaves plain words unquoted and quotes the rest', () => {
		expect(shellQuote('abc-1.2/x')).toBe('abc-1.2/x');
		expect(shellQuote('a b')).toBe("'a b'");
		expect(shellQuote("it's")).toBe(`'it'\\''s'`);
		expect(shellQuote('$HOME`x`')).toBe("'$HOME`x`'");
	});
});
