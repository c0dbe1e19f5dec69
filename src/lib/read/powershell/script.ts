import { text as t } from '$lib/i18n/text';
import { attempt, type Outcome } from '$lib/mac';
import { fail, shown, type ParsedRequest } from '../parsed-request';
import {
	PowerShellLexer,
	VARIABLE,
	isCommandEnd,
	isDoubleQuote,
	isNewline,
	isSingleQuote,
	isSpace,
	variableKey,
	type Arg,
	type Entry,
	type StringArg
} from './lexer';
import { resolveParameter } from './parameters';

const PARAMETER = /[-\u2013\u2014\u2015]([A-Z_]\w*)(:?)/iy;
const COMMAND = /(Invoke-WebRequest|Invoke-RestMethod|iwr|irm)(?=[\s;|)}]|$)/iy;
const ADD_CALL = /\.Add\s*\(/iy;
const CAST = /\[[\w.]+\][ \t]*(?=@\{)/y;
const NUMBER = /\d+(?:\.\d+)?/y;

/** What a variable set in the paste holds, as far as a literal says it. */
export type Variable =
	StringArg | { kind: 'hashtable'; entries: Entry[] } | { kind: 'other'; text: string };

export interface Command {
	name: string;
	/** The parameters given, by their full name, with the name as written and the value. */
	params: Map<string, { written: string; arg: Arg | null }>;
	positional: Arg[];
	repeated: string[];
}

/** What the paste has set when a command runs: its variables, and whether it set up a $session. */
export interface Scope {
	readonly variables: ReadonlyMap<string, Variable>;
	readonly sawSession: boolean;
}

/** Turns a command read from the paste into the request it sends, as far as the paste says. */
export type Assemble = (command: Command, scope: Scope) => ParsedRequest;

/**
 * Reads PowerShell source as far as a pasted request needs: hashtable literals, variables set to
 * strings or hashtables, commands and their parameters. Statements it does not need are skipped,
 * never run. Each command is assembled into its request when it is read, with the variables set
 * before it.
 */
export class ScriptReader extends PowerShellLexer implements Scope {
	readonly variables = new Map<string, Variable>();
	readonly commands: Outcome<ParsedRequest>[] = [];
	readonly commandNames: string[] = [];
	sawSession = false;

	constructor(
		text: string,
		private readonly assemble: Assemble
	) {
		super(text);
	}

	// ---- Values ---------------------------------------------------------------------------------

	/** A word of a command (argument mode): a string, a hashtable, a variable, an expression or a bare word. */
	readArgument(): Arg {
		if (this.atString()) return this.readString();
		const char = this.char();
		if (char === '@' && this.char(1) === '{') return this.readHashtable();
		if (char === '$' && this.char(1) !== '(') {
			const variable = this.sticky(VARIABLE);
			if (variable) {
				const after = this.text.charAt(this.at + variable[0].length);
				if (after === '' || isSpace(after) || isCommandEnd(after)) {
					this.at += variable[0].length;
					return { kind: 'variable', name: variable[0] };
				}
			}
		}
		if (char !== '' && '({[$@'.includes(char)) {
			return {
				kind: 'expression',
				text: this.skipExpression((next) => isSpace(next) || isCommandEnd(next))
			};
		}
		return this.readBareWord();
	}

	/** A bare word: escapes and embedded quoted parts resolved, $variables left as written. */
	private readBareWord(): StringArg {
		const word: StringArg = { kind: 'string', value: '', expansions: [] };
		for (;;) {
			const char = this.char();
			if (char === '' || isSpace(char) || isCommandEnd(char)) return word;
			if (char === '`') {
				const save = this.at;
				if (this.continuation()) {
					this.at = save;
					return word;
				}
				word.value += this.escape();
			} else if (isDoubleQuote(char) || isSingleQuote(char)) {
				const part = this.readString();
				word.value += part.value;
				word.expansions.push(...part.expansions);
			} else if (char === '$') this.dollar(word);
			else {
				word.value += char;
				this.at += 1;
			}
		}
	}

	/** @{ key = value; … }: keys and values as written; a value that is not a literal is kept as text. */
	readHashtable(): Arg {
		return this.nested(() => this.readHashtableHere());
	}

	private readHashtableHere(): Arg {
		const start = this.at;
		this.at += 2;
		const entries: Entry[] = [];
		for (;;) {
			this.skipAll();
			const char = this.char();
			if (char === '') {
				this.unclosed(start, t('paste_ps_hashtable'), t('paste_ps_hashtable_end'));
			}
			if (char === '}') {
				this.at += 1;
				return { kind: 'hashtable', entries, text: this.text.slice(start, this.at) };
			}
			const keyStart = this.at;
			let key: string | null;
			if (this.atString()) key = this.readString().value;
			else if (char === '$' || char === '(') {
				key = null;
				this.skipExpression((next) => isSpace(next) || isNewline(next) || '=;}'.includes(next));
			} else {
				while (
					this.at < this.text.length &&
					!isSpace(this.char()) &&
					!isNewline(this.char()) &&
					!'=;}'.includes(this.char())
				) {
					this.at += 1;
				}
				key = this.text.slice(keyStart, this.at);
			}
			const keyText = this.text.slice(keyStart, this.at);
			this.skipInline();
			if (this.char() !== '=' || keyText === '') {
				fail(
					t('paste_ps_hashtable_key', {
						where: this.where(keyStart),
						key: shown(keyText || this.text.slice(this.at, this.at + 20))
					})
				);
			}
			this.at += 1;
			this.skipAll(false);
			if (this.char() === '' || this.char() === '}' || this.char() === ';') {
				fail(t('paste_ps_hashtable_value', { where: this.where(keyStart), key: shown(keyText) }));
			}
			entries.push({ key, keyText, value: this.readValue() });
		}
	}

	/** A value in expression mode (a hashtable entry, a call's argument), up to where `end` says. */
	private readValue(
		end: (char: string) => boolean = (char) => isNewline(char) || char === ';' || char === '}'
	): Arg {
		const start = this.at;
		let literal: Arg | null = null;
		if (this.atString()) literal = this.readString();
		else if (this.char() === '$' && this.char(1) !== '(') {
			const variable = this.sticky(VARIABLE);
			if (variable) {
				this.at += variable[0].length;
				literal = { kind: 'variable', name: variable[0] };
			}
		} else if (this.char() === '@' && this.char(1) === '{') literal = this.readHashtable();
		else {
			const number = this.sticky(NUMBER);
			if (number) {
				this.at += number[0].length;
				literal = { kind: 'string', value: number[0], expansions: [] };
			}
		}
		if (literal) {
			this.skipInline();
			if (this.char() === '' || end(this.char())) return literal;
		}
		// Not a literal alone ("MAC " + $token): the rest of the expression, from where reading stopped.
		this.skipExpression(end);
		return { kind: 'expression', text: this.text.slice(start, this.at).trim() };
	}

	// ---- Statements -----------------------------------------------------------------------------

	readAll(): void {
		for (;;) {
			this.skipAll();
			if (this.at >= this.text.length) return;
			const command = this.sticky(COMMAND);
			if (command) {
				this.at += command[0].length;
				this.readCommand(command[0]);
			} else if (this.char() === '$') this.readVariableStatement();
			else this.skipStatement();
		}
	}

	/** `$x = …` (a string or hashtable kept for later), `$x.Add(k, v)`, or anything else, skipped. */
	private readVariableStatement(): void {
		const start = this.at;
		const variable = this.sticky(VARIABLE);
		if (!variable) return this.skipStatement();
		const name = variableKey(variable[0]);
		if (name === 'session') this.sawSession = true;
		this.at += variable[0].length;
		this.skipInline();
		if (this.char() === '=' && this.char(1) !== '=') {
			this.at += 1;
			this.skipAll(false);
			const command = this.sticky(COMMAND);
			if (command) {
				this.at += command[0].length;
				return this.readCommand(command[0]);
			}
			return this.readAssignment(name);
		}
		if (this.readAddCall(name)) return;
		this.at = start;
		this.skipStatement();
	}

	private readAssignment(name: string): void {
		const valueStart = this.at;
		const cast = this.sticky(CAST);
		if (cast) this.at += cast[0].length;
		const value = this.atString() || this.char() === '@' ? this.readValue() : null;
		const atEnd = this.char() === '' || isNewline(this.char()) || this.char() === ';';
		if (value && atEnd && (value.kind === 'string' || value.kind === 'hashtable')) {
			this.variables.set(
				name,
				value.kind === 'string' ? value : { kind: 'hashtable', entries: [...value.entries] }
			);
			return this.skipStatement();
		}
		this.at = valueStart;
		const text = this.skipExpression((char) => isNewline(char) || char === ';');
		// New-Object "System.Collections.Generic.Dictionary[[String],[String]]", as Postman writes it.
		this.variables.set(
			name,
			/^(?:New-Object\b.+\b(?:Dictionary|Hashtable)\b|\[[\w.]*(?:Dictionary|Hashtable)\b)/i.test(
				text
			)
				? { kind: 'hashtable', entries: [] }
				: { kind: 'other', text }
		);
		this.skipStatement();
	}

	/** `$headers.Add("Authorization", "MAC …")`; false when it is not that shape. */
	private readAddCall(name: string): boolean {
		const target = this.variables.get(name);
		const call = this.sticky(ADD_CALL);
		if (target?.kind !== 'hashtable' || !call) return false;
		this.at += call[0].length;
		this.skipAll(false);
		const keyStart = this.at;
		if (!this.atString()) return false;
		const key = this.readString().value;
		const keyText = this.text.slice(keyStart, this.at);
		this.skipAll(false);
		if (this.char() !== ',') return false;
		this.at += 1;
		this.skipAll(false);
		const value = this.readValue((char) => char === ')' || isNewline(char));
		if (this.char() !== ')') return false;
		this.at += 1;
		target.entries.push({ key, keyText, value });
		this.skipStatement();
		return true;
	}

	private readCommand(name: string): void {
		const command: Command = { name, params: new Map(), positional: [], repeated: [] };
		for (;;) {
			this.skipInline();
			if (isCommandEnd(this.char())) break;
			const parameter = this.sticky(PARAMETER);
			if (!parameter) {
				command.positional.push(this.readArgument());
				continue;
			}
			this.at += parameter[0].length;
			const written = `-${parameter[1] ?? ''}`;
			const spec = resolveParameter(parameter[1] ?? '');
			let arg: Arg | null = null;
			if (parameter[2] === ':' || spec?.switch === false || spec === undefined) {
				this.skipInline();
				const next = this.sticky(PARAMETER);
				if (isCommandEnd(this.char()) || next) {
					// An unknown name followed by another parameter is taken for a switch.
					if (spec !== undefined && !spec.switch) {
						fail(
							next
								? t('paste_ps_needs_value', { parameter: written, next: shown(next[0]) })
								: t('paste_ps_needs_value_end', { parameter: written })
						);
					}
				} else arg = this.readArgument();
			}
			const key = spec?.name ?? written;
			if (command.params.has(key)) command.repeated.push(written);
			else command.params.set(key, { written, arg });
		}
		this.skipStatement();
		this.commandNames.push(name);
		this.commands.push(attempt(() => this.assemble(command, this)));
	}
}
