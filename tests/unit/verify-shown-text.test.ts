import { describe, expect, it } from 'vitest';
import { text, type Text } from '$lib/i18n/text';
import { clockCheck, diagnose } from '$lib/diagnosis';
import { durationText } from '$lib/diagnosis/clock-check';
import { shownParts, shownString } from '$lib/i18n/shown-text';
import { english } from './verify-english';
import { inLocale } from './in-locale';
import { renderText } from '$lib/i18n/render-text';

/** A Text as the /zh-CN/ page renders it. */
const chinese = (value: Text): string => inLocale('zh-CN', () => shownString(renderText, value));

describe('a Text shown', () => {
	it("keeps a value's backticks as they are and marks only the message's code", () => {
		// A message with a value in code style, and a value that is a PowerShell escape.
		const message = (t: Text) => {
			const { m, where } = t.params as { m: string; where: string };
			return `Method \`${m}\` from ${where}.`;
		};
		const parts = shownParts(message, {
			key: 'paste_fetch_method',
			params: { m: 'G`ET', where: 'here' }
		} as unknown as Text);
		expect(parts).toEqual([
			{ text: 'Method ', code: false },
			{ text: 'G`ET', code: true },
			{ text: ' from ', code: false },
			{ text: 'here', code: false },
			{ text: '.', code: false }
		]);
	});

	it('renders Texts inside Texts in the same language: durations in 秒, 分钟, 小时 and 天', () => {
		expect(english(durationText(3_725))).toBe('1 hour 2 minutes');
		expect(chinese(durationText(3_725))).toBe('1 小时 2 分钟');
		expect(chinese(durationText(90_061))).toBe('1 天 1 小时');
		expect(chinese(durationText(0))).toBe('0 秒');
		const check = clockCheck('1699999990', 1_700_000_000_000);
		expect(chinese(check.message)).toBe(
			'ts 比现在早 10 秒，但这里没有请求的发送时间，无法判断发送时它是否在 ±5 分钟（这是假设：规范没有规定允许的偏差）之内。请向客户索取发送时间：日志行的时间、请求的 Date 请求头，或该请求的 HAR 文件。'
		);
	});

	it('joins two mistakes in one sentence: the second lower-cased in English, as is in Chinese', async () => {
		const key = 'pair-key';
		const base = (port: string) =>
			`1700000000\nbm9uY2U=\nGET\n/p?client_id=a\nopen.tapapis.cn:${port}\n${port}\n`;
		const { createHmac } = await import('node:crypto');
		const mac = createHmac('sha1', key).update(base('443')).digest('base64');
		const result = await diagnose({
			authorization: { id: 'k', ts: '1700000000', nonce: 'bm9uY2U=', mac },
			url: 'https://open.tapapis.cn/p?client_id=a',
			macKey: key
		});
		const [first] = result.explanations;
		expect(english(first?.title)).toBe(
			'Signed the host with its port (open.tapapis.cn:443), and joined the lines with LF instead of ending each with LF: the final empty ext line is lost, so the base string ends with one LF after the port instead of two'
		);
		expect(chinese(first!.title)).toBe(
			'签算的请求域名带了端口（open.tapapis.cn:443）；并且用 LF 连接各行，而不是每行以 LF 结尾：最后的空 ext 行丢失，待签名字符串在端口之后只有一个 LF，而不是两个'
		);
		expect(chinese(result.message)).toMatch(
			/^签名不一致。一个常见错误能复现客户的签名：签算的请求域名带了端口/
		);
		expect(chinese(text('diagnosis_key_as_given'))).toBe('原样的 mac_key');
	});
});
