import { describe, expect, it } from 'vitest';
import { httpDate, isoTime, logLineTime, parseSignedRequest } from '$lib/read';
import { englishAll } from './verify-english';

const HEADER =
	'MAC id="kid-1",ts="1618221750",nonce="bm9uY2Ux",mac="q/+Abc+Ab1234567890123456789="';
const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=abc';
const SENT = Date.UTC(2021, 3, 12, 10, 2, 31, 250);

describe('when the paste says the request was sent', () => {
	it("a HAR entry's startedDateTime", () => {
		const har = JSON.stringify({
			log: {
				entries: [
					{
						startedDateTime: '2021-04-12T18:02:31.250+08:00',
						request: {
							method: 'GET',
							url: URL,
							headers: [{ name: 'Authorization', value: HEADER }]
						}
					}
				]
			}
		});
		expect(parseSignedRequest(har).sentAt).toEqual({
			ms: SENT,
			source: 'har',
			zoneKnown: true
		});
	});

	it('a Date header of a raw request, or of a curl command', () => {
		const raw = `GET /account/profile/v1?client_id=abc HTTP/1.1\nHost: open.tapapis.cn\nDate: Mon, 12 Apr 2021 10:02:31 GMT\nAuthorization: ${HEADER}\n`;
		expect(parseSignedRequest(raw).sentAt).toEqual({
			ms: SENT - 250,
			source: 'date',
			zoneKnown: true
		});
		const curl = `curl '${URL}' -H 'Date: Mon, 12 Apr 2021 10:02:31 GMT' -H 'Authorization: ${HEADER}'`;
		expect(parseSignedRequest(curl).sentAt?.ms).toBe(SENT - 250);
	});

	it("a log line's time, the prefix taken off and said so", () => {
		const line = `2021-04-12 10:02:31,250 INFO  http-client: Authorization: ${HEADER}`;
		const request = parseSignedRequest(line);
		expect(request.kind).toBe('header');
		expect(request.authorization.ts).toBe('1618221750');
		expect(request.sentAt).toEqual({ ms: SENT, source: 'log', zoneKnown: false });
		expect(englishAll(request.understood)[0]).toBe(
			'Took off the log prefix "2021-04-12 10:02:31,250 INFO  http-client:"; its time says when the request was sent.'
		);
		const curl = parseSignedRequest(
			`[2021-04-12T10:02:31.250Z] DEBUG curl '${URL}' -H 'Authorization: ${HEADER}'`
		);
		expect(curl).toMatchObject({ kind: 'curl', url: URL, sentAt: { ms: SENT, zoneKnown: true } });
	});

	it('nothing, when the paste does not say', () => {
		expect(parseSignedRequest(`Authorization: ${HEADER}`).sentAt).toBeUndefined();
		expect(
			parseSignedRequest(`curl '${URL}' -H 'Authorization: ${HEADER}'`).sentAt
		).toBeUndefined();
	});
});

describe('time readers', () => {
	it('read what they should and refuse the rest', () => {
		expect(logLineTime('2021/04/12 10:02:31 x')?.sentAt.ms).toBe(SENT - 250);
		expect(logLineTime('2021-04-12 10:02:31+0200 x')?.sentAt.ms).toBe(SENT - 250 - 7_200_000);
		expect(logLineTime('11-21 10:00:01.123 12345-12345/com.example.game D/TapLogin')).toBeNull();
		expect(logLineTime('2021-13-12 10:02:31')).toBeNull();
		expect(httpDate('Mon, 12 Apr 2021 10:02:31 GMT')?.ms).toBe(SENT - 250);
		expect(httpDate('yesterday')).toBeNull();
		expect(isoTime('2021-04-12T10:02:31.250Z', 'har')?.ms).toBe(SENT);
		expect(isoTime('2021-04-12T10:02:31', 'har')).toBeNull();
	});
});
