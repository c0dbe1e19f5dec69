// The PowerShell reader: a lexer (lexer.ts), the parameters of Invoke-WebRequest (parameters.ts),
// the statements and commands of a paste (script.ts) and the request a command sends (request.ts).
import { text as t } from '$lib/i18n/text';
import { fail, type ParsedRequest } from '../parsed-request';
import { commandRequest } from './request';
import { ScriptReader } from './script';

// Invoke-WebRequest or Invoke-RestMethod at the start of a line, its result maybe assigned ($r = …).
const INVOKE_LINE = /^[ \t]*(?:\$[\w:]+[ \t]*=[ \t]*)?Invoke-(?:WebRequest|RestMethod)\b/im;

/**
 * Devtools' "Copy as PowerShell" (Chrome, Edge): it starts with the `$session` it sets up, or runs
 * Invoke-WebRequest (or Invoke-RestMethod) at the start of a line. `trimmed` has no leading blanks.
 */
export function looksLikePowerShell(trimmed: string): boolean {
	return /^\$session\b/i.test(trimmed) || INVOKE_LINE.test(trimmed);
}

const isMacSigned = (request: ParsedRequest) =>
	request.headers.some(
		(header) =>
			header.name.toLowerCase() === 'authorization' && /^mac(?:\s|$)/i.test(header.value.trim())
	);

/**
 * Reads devtools' "Copy as PowerShell" (Invoke-WebRequest, or Invoke-RestMethod): the URL, the
 * method and the -Headers hashtable. Strings are unescaped as PowerShell does; nothing is evaluated,
 * so a `$variable` in a value is kept as written and said. Of several commands ("Copy all as
 * PowerShell"), the first MAC-signed one is read.
 */
export function parsePowerShell(text: string): ParsedRequest {
	const reader = new ScriptReader(text, commandRequest);
	reader.readAll();
	const { commands, commandNames } = reader;
	if (commands.length === 0) {
		fail(
			reader.sawSession
				? t('paste_ps_session_only')
				: t('paste_ps_expected', {
						example: 'Invoke-WebRequest -Uri "https://…" -Headers @{…}'
					})
		);
	}
	const signed = commands.findIndex((outcome) => outcome.ok && isMacSigned(outcome.value));
	const index = Math.max(signed, 0);
	const chosen = commands[index];
	if (chosen === undefined) fail(t('paste_ps_no_command'));
	if (!chosen.ok) throw chosen.error;
	const request = chosen.value;
	if (commands.length > 1) {
		request.understood.unshift(
			signed > 0
				? t('paste_ps_commands_signed', {
						count: commands.length,
						number: index + 1,
						name: commandNames[index] ?? ''
					})
				: t('paste_ps_commands', { count: commands.length })
		);
	}
	return request;
}
