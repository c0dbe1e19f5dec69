import { text as t, type Text } from '$lib/i18n/text';
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
	private literal(arg: Arg, what: Text, example: string): StringArg {
		if (arg.kind === 'string') return arg;
		if (arg.kind === 'hashtable') fail(t('paste_ps_not_hashtable', { what }));
		if (arg.kind === 'variable') {
			const value = this.scope.variables.get(variableKey(arg.name));
			if (value?.kind === 'string') return value;
			if (value === undefined) {
				fail(t('paste_ps_variable_undefined', { what, variable: arg.name, example }));
			}
		}
		const text = arg.kind === 'variable' ? arg.name : arg.text;
		fail(t('paste_ps_evaluated', { what, value: shown(text) }));
	}

	request(command: Command): ParsedRequest {
		const understood: Text[] = [];
		const param = (name: string) => command.params.get(name);
		const warn = (value: StringArg, where: Text) => {
			if (value.expansions.length === 0) return;
			const names = value.expansions
				.slice(0, 3)
				.map((name) => shown(name, 30))
				.join(', ');
			understood.push(
				t(value.expansions.length > 1 ? 'paste_ps_expanded_many' : 'paste_ps_expanded_one', {
					names,
					where
				})
			);
		};

		const uriParam = param('Uri');
		const uriArg = uriParam?.arg ?? command.positional[0];
		if (!uriArg) fail(t('paste_ps_no_url', { command: command.name }));
		const uri = this.literal(
			uriArg,
			t('paste_ps_what_param', { parameter: '-Uri' }),
			'"https://…"'
		);
		let url = uri.value.trim();
		if (url === '') fail(t('paste_ps_uri_empty'));
		if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
			url = `http://${url}`;
			understood.push(t('paste_ps_no_scheme'));
		} else {
			understood.push(t(uriParam ? 'paste_ps_url_uri' : 'paste_ps_url_first'));
		}
		warn(uri, t('paste_ps_where_uri'));
		const extra = command.positional.slice(uriParam ? 0 : 1);
		if (extra.length > 0) {
			understood.push(
				t('paste_ps_extra_argument', {
					argument: shown(extra[0]?.kind === 'string' ? extra[0].value : '…')
				})
			);
		}
		if (command.repeated.length > 0) {
			understood.push(t('paste_ps_repeated', { parameters: command.repeated.join(' ') }));
		}

		const method = this.method(command, understood, warn);
		const pseudo = new Map<string, string>();
		const headers = this.headers(command, understood, warn, pseudo);
		url = this.pathUrl(url, pseudo.get('path'), understood);

		const bodies = ['Body', 'InFile', 'Form'].flatMap((name) => param(name)?.written ?? []);
		if (bodies.length > 0) {
			understood.push(t('paste_ps_body_ignored', { parameters: bodies.join(', ') }));
		}
		const body = param('Body')?.arg;
		const bodyValue =
			body?.kind === 'variable' ? this.scope.variables.get(variableKey(body.name)) : body;
		if (method === 'GET' && bodyValue?.kind === 'hashtable') {
			understood.push(t('paste_ps_get_body'));
		}
		if (this.scope.sawSession) {
			understood.push(t('paste_ps_session_ignored'));
		}
		const handled = new Set(['Uri', 'Method', 'CustomMethod', 'Headers', 'Body', 'InFile', 'Form']);
		const ignored = [...command.params].flatMap(([name, { written }]) =>
			handled.has(name) ? [] : [written]
		);
		if (ignored.length > 0) {
			understood.push(t('paste_ignored', { options: ignored.join(' ') }));
		}
		return { url, method, headers, understood };
	}

	private method(
		command: Command,
		understood: Text[],
		warn: (value: StringArg, where: Text) => void
	): string {
		const custom = command.params.get('CustomMethod');
		const standard = command.params.get('Method');
		if (custom?.arg) {
			const parameter = custom.written;
			const value = this.literal(custom.arg, t('paste_ps_what_param', { parameter }), '"PATCH"');
			warn(value, t('paste_ps_where_param', { parameter }));
			if (standard) understood.push(t('paste_ps_both_methods'));
			if (value.value.trim() !== '') {
				const upper = value.value.toUpperCase();
				understood.push(t('paste_ps_method_custom', { method: upper.slice(0, 20), parameter }));
				return upper;
			}
			understood.push(t('paste_ps_custom_empty', { parameter }));
		} else if (standard?.arg) {
			const parameter = standard.written;
			const value = this.literal(standard.arg, t('paste_ps_what_param', { parameter }), '"POST"');
			warn(value, t('paste_ps_where_param', { parameter }));
			const written = value.value.trim();
			const known = METHODS.get(written.toLowerCase());
			if (known !== undefined) {
				understood.push(
					written.toLowerCase() === 'default'
						? t('paste_ps_method_default_value')
						: t('paste_ps_method', { method: known, parameter })
				);
				return known;
			}
			understood.push(t('paste_ps_method_refused', { method: shown(written) }));
			if (written !== '') {
				understood.push(t('paste_ps_method_assumed', { method: written.slice(0, 20) }));
				return written;
			}
		}
		understood.push(t('paste_ps_method_default'));
		return 'GET';
	}

	private headers(
		command: Command,
		understood: Text[],
		warn: (value: StringArg, where: Text) => void,
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
				fail(t('paste_ps_headers_undefined', { variable: arg.name, hashtable: '@{…}' }));
			}
			if (value.kind !== 'hashtable') {
				fail(t('paste_ps_headers_not_hashtable', { variable: arg.name }));
			}
			entries = value.entries;
			understood.push(t('paste_ps_headers_from', { variable: arg.name }));
		} else {
			const text = arg.kind === 'string' ? arg.value : arg.text;
			fail(t('paste_ps_headers_kind', { value: shown(text) }));
		}

		const headers: HeaderField[] = [];
		for (const { key, keyText, value } of entries) {
			if (key === null) {
				understood.push(t('paste_ps_header_name_evaluated', { name: shown(keyText) }));
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
					this.literal(value, t('paste_ps_what_authorization'), '"MAC id=`"…`",…"');
				}
			}
			if (text === null) {
				const written =
					value.kind === 'variable' ? value.name : value.kind === 'string' ? '' : value.text;
				if (isAuthorization) {
					fail(t('paste_ps_authorization_evaluated', { value: shown(written) }));
				}
				understood.push(
					t('paste_ps_header_evaluated', { name: shown(key), value: shown(written) })
				);
				continue;
			}
			warn(text, t('paste_ps_where_header', { name: shown(key) }));
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
	private pathUrl(url: string, path: string | undefined, understood: Text[]): string {
		const target = attempt(() => requestTarget(url));
		if (path === undefined || !target.ok || path === target.value.uri) return url;
		if (!path.startsWith('/')) {
			understood.push(t('paste_ps_path_not_path', { path: shown(path, 80) }));
			return url;
		}
		understood.push(
			t('paste_ps_path_differs', { uri: shown(target.value.uri, 80), path: shown(path, 80) })
		);
		return `${new URL(target.value.href).origin}${path}`;
	}
}
