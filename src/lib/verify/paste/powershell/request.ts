import { attempt, requestTarget } from '$lib/mac';
import { fail, shown, type HeaderField, type ParsedRequest } from '../parsed-request';
import { variableKey, type Arg, type Entry, type StringArg } from './lexer';
import { METHODS } from './parameters';
import type { Command, Scope } from './script';

const PSEUDO_HEADER = /^:?(authority|method|path|scheme)$/i;

/**
 * The request a command sends, as far as the paste says: its URL, method and headers, with what
 * was assumed or left out in `understood`. Values are read from literals, or from the variables
 * the paste set before the command; nothing is evaluated.
 */
export function commandRequest(command: Command, scope: Scope): ParsedRequest {
	return new Assembly(scope).request(command);
}

class Assembly {
	constructor(private readonly scope: Scope) {}

	/** A value that must be a string: a literal, or a variable the paste sets to one. */
	private literal(arg: Arg, what: string, example: string): StringArg {
		if (arg.kind === 'string') return arg;
		if (arg.kind === 'hashtable') fail(`${what} must be a string, not a hashtable @{…}.`);
		if (arg.kind === 'variable') {
			const value = this.scope.variables.get(variableKey(arg.name));
			if (value?.kind === 'string') return value;
			if (value === undefined) {
				fail(
					`${what} is ${arg.name}, a variable set elsewhere: the paste does not define it. Paste its definition (${arg.name} = ${example}) too, or copy the request as cURL.`
				);
			}
		}
		const text = arg.kind === 'variable' ? arg.name : arg.text;
		fail(
			`${what} is ${shown(text)}, which PowerShell works out when it runs; nothing is evaluated here. Paste the command with the value written out, or copy the request as cURL.`
		);
	}

	request(command: Command): ParsedRequest {
		const understood: string[] = [];
		const param = (name: string) => command.params.get(name);
		const warn = (value: StringArg, where: string) => {
			if (value.expansions.length === 0) return;
			const names = value.expansions.slice(0, 3).map((name) => shown(name, 30));
			understood.push(
				`PowerShell would have expanded ${names.join(', ')} in ${where}: it is kept as written here, but the request sent had ${value.expansions.length > 1 ? 'their values' : 'its value'} instead.`
			);
		};

		const uriParam = param('Uri');
		const uriArg = uriParam?.arg ?? command.positional[0];
		if (!uriArg)
			fail(`The ${command.name} command names no URL (-Uri "https://…"): was the paste cut short?`);
		const uri = this.literal(uriArg, 'The -Uri', '"https://…"');
		let url = uri.value.trim();
		if (url === '') fail('The -Uri is empty: PowerShell would refuse to run the command.');
		if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
			url = `http://${url}`;
			understood.push(
				'The -Uri has no scheme, so PowerShell uses http:// (port 80): add https:// to call the service.'
			);
		} else {
			understood.push(
				uriParam ? 'URL from -Uri.' : 'URL from the command’s first argument (-Uri).'
			);
		}
		warn(uri, 'the -Uri');
		const extra = command.positional.slice(uriParam ? 0 : 1);
		if (extra.length > 0) {
			understood.push(
				`PowerShell would refuse the extra argument ${shown(extra[0]?.kind === 'string' ? extra[0].value : '…')}; it was ignored.`
			);
		}
		if (command.repeated.length > 0) {
			understood.push(
				`PowerShell refuses a parameter given twice (${command.repeated.join(' ')}); the first was used.`
			);
		}

		const method = this.method(command, understood, warn);
		const pseudo = new Map<string, string>();
		const headers = this.headers(command, understood, warn, pseudo);
		url = this.pathUrl(url, pseudo.get('path'), understood);

		const bodies = ['Body', 'InFile', 'Form'].flatMap((name) => param(name)?.written ?? []);
		if (bodies.length > 0) {
			understood.push(`The body (${bodies.join(', ')}) is not signed, so it was ignored.`);
		}
		const body = param('Body')?.arg;
		const bodyValue =
			body?.kind === 'variable' ? this.scope.variables.get(variableKey(body.name)) : body;
		if (method === 'GET' && bodyValue?.kind === 'hashtable') {
			understood.push(
				'With GET, PowerShell appends a hashtable -Body to the query string (in no set order), which the URL here leaves out: check the query the server received.'
			);
		}
		if (this.scope.sawSession) {
			understood.push(
				'The web session’s user agent and cookies ($session) are not signed, so they were ignored.'
			);
		}
		const handled = new Set(['Uri', 'Method', 'CustomMethod', 'Headers', 'Body', 'InFile', 'Form']);
		const ignored = [...command.params].flatMap(([name, { written }]) =>
			handled.has(name) ? [] : [written]
		);
		if (ignored.length > 0) {
			understood.push(`Ignored, as they do not change what is signed: ${ignored.join(' ')}.`);
		}
		return { url, method, headers, understood };
	}

	private method(
		command: Command,
		understood: string[],
		warn: (value: StringArg, where: string) => void
	): string {
		const custom = command.params.get('CustomMethod');
		const standard = command.params.get('Method');
		if (custom?.arg) {
			const value = this.literal(custom.arg, `The ${custom.written}`, '"PATCH"');
			warn(value, custom.written);
			if (standard) {
				understood.push(
					'PowerShell refuses -Method and -CustomMethod together; -CustomMethod was used.'
				);
			}
			if (value.value.trim() !== '') {
				const upper = value.value.toUpperCase();
				understood.push(
					`Method ${upper.slice(0, 20)} from ${custom.written} (PowerShell upper-cases it).`
				);
				return upper;
			}
			understood.push(`PowerShell refuses an empty ${custom.written}.`);
		} else if (standard?.arg) {
			const value = this.literal(standard.arg, `The ${standard.written}`, '"POST"');
			warn(value, standard.written);
			const written = value.value.trim();
			const known = METHODS.get(written.toLowerCase());
			if (known !== undefined) {
				understood.push(
					written.toLowerCase() === 'default'
						? 'Method GET: what -Method Default sends.'
						: `Method ${known} from ${standard.written}.`
				);
				return known;
			}
			understood.push(
				`PowerShell’s -Method takes Get, Post, Put, Delete, Patch, Head, Options, Trace or Merge, so ${shown(written)} would be refused (-CustomMethod sends others).`
			);
			if (written !== '') {
				understood.push(`Method ${written.slice(0, 20)} assumed.`);
				return written;
			}
		}
		understood.push('Method GET: PowerShell’s default when there is no -Method.');
		return 'GET';
	}

	private headers(
		command: Command,
		understood: string[],
		warn: (value: StringArg, where: string) => void,
		pseudo: Map<string, string>
	): HeaderField[] {
		const given = command.params.get('Headers');
		if (!given?.arg) return [];
		const arg = given.arg;
		let entries: Entry[];
		if (arg.kind === 'hashtable') entries = arg.entries;
		else if (arg.kind === 'variable') {
			const value = this.scope.variables.get(variableKey(arg.name));
			if (value === undefined) {
				fail(
					`-Headers is ${arg.name}, a variable set elsewhere: the paste does not define it. Paste its definition (${arg.name} = @{…}) too, or copy the request as cURL.`
				);
			}
			if (value.kind !== 'hashtable') {
				fail(
					`-Headers is ${arg.name}, which the paste does not set to a hashtable @{…}: paste the command as devtools copies it, or copy the request as cURL.`
				);
			}
			entries = value.entries;
			understood.push(`Headers from ${arg.name}, set earlier in the paste.`);
		} else {
			const text = arg.kind === 'string' ? arg.value : arg.text;
			fail(
				`-Headers must be a hashtable such as @{"Authorization"="MAC …"}, as devtools writes it, not ${shown(text)}: paste the command as copied, or copy the request as cURL.`
			);
		}

		const headers: HeaderField[] = [];
		for (const { key, keyText, value } of entries) {
			if (key === null) {
				understood.push(
					`The header name ${shown(keyText)} is worked out when PowerShell runs; nothing is evaluated here, so that header was left out.`
				);
				continue;
			}
			const isAuthorization = key.toLowerCase() === 'authorization';
			let text: StringArg | null = null;
			if (value.kind === 'string') text = value;
			else if (value.kind === 'variable') {
				if (variableKey(value.name) === 'null') continue; // PowerShell leaves a $null header out.
				const variable = this.scope.variables.get(variableKey(value.name));
				if (variable?.kind === 'string') text = variable;
				else if (isAuthorization) {
					this.literal(value, 'The Authorization header', '"MAC id=`"…`",…"');
				}
			}
			if (text === null) {
				const written =
					value.kind === 'variable' ? value.name : value.kind === 'string' ? '' : value.text;
				if (isAuthorization) {
					fail(
						`The Authorization header is ${shown(written)}, which PowerShell works out when it runs; nothing is evaluated here. Paste the command with the header written out, or copy the request as cURL.`
					);
				}
				understood.push(
					`The ${shown(key)} header is ${shown(written)}, which is not evaluated here, so it was left out.`
				);
				continue;
			}
			warn(text, `the ${shown(key)} header`);
			const name = PSEUDO_HEADER.exec(key);
			if (name) pseudo.set((name[1] ?? '').toLowerCase(), text.value);
			else headers.push({ name: key, value: text.value });
		}
		return headers;
	}

	/**
	 * Over HTTP/2, devtools writes the pseudo-headers as "authority", "method", "path" and "scheme"
	 * entries. "path" is what the browser sent, and the signature covers that, so it wins.
	 */
	private pathUrl(url: string, path: string | undefined, understood: string[]): string {
		const target = attempt(() => requestTarget(url));
		if (path === undefined || !target.ok || path === target.value.uri) return url;
		if (!path.startsWith('/')) {
			understood.push(`The "path" entry ${shown(path, 80)} is not a path, so it was not used.`);
			return url;
		}
		understood.push(
			`The -Uri says ${shown(target.value.uri, 80)} but the "path" entry (the HTTP/2 :path the browser sent) says ${shown(path, 80)}: the URL is built from "path", the bytes actually sent.`
		);
		return `${new URL(target.value.href).origin}${path}`;
	}
}
