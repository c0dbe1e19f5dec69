import { m } from '$lib/paraglide/messages.js';
import { comment, fixedNote, inlineKeyNote, purpose, resolve } from './common';
import { goString as str } from './string-literals';
import type { SnippetOptions } from './types';

/** Go: crypto/hmac, net/http and net/url, one file for `go run`. */
export function goSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	const macKey =
		o.inlineMacKey === undefined
			? `	macKey := os.Getenv(${str(o.macKeyEnv)})
	if macKey == "" {
		log.Fatal(${str(o.missingKey)})
	}`
			: `	// ${inlineKeyNote()}
	macKey := ${str(o.inlineMacKey)}`;
	const tsNonce = o.fixed
		? `	// ${fixedNote()}
	ts := ${str(o.fixed.ts)}
	nonce := ${str(o.fixed.nonce)}`
		: `	ts := strconv.FormatInt(time.Now().Unix(), 10)
	random := make([]byte, 16)
	if _, err := rand.Read(random); err != nil {
		log.Fatal(err)
	}
	nonce := base64.StdEncoding.EncodeToString(random)`;
	// Go refuses unused imports, and fixed mode makes no ts or nonce.
	const imports = [
		'crypto/hmac',
		...(o.fixed ? [] : ['crypto/rand']),
		'crypto/sha1',
		'encoding/base64',
		'fmt',
		'io',
		'log',
		'net/http',
		'net/url',
		'os',
		...(o.fixed ? [] : ['strconv']),
		'strings',
		...(o.fixed ? [] : ['time'])
	];
	const sep = o.separator;

	return `${purpose('//', 'go run main.go', o.inlineMacKey === undefined ? o.macKeyEnv : null)}
package main

import (
${imports.map((name) => `\t"${name}"`).join('\n')}
)

const (
	requestURL = ${str(o.url)}
	kid        = ${str(o.kid)}
)

// ${m.snippets_go_base_string()}
func baseString(u *url.URL, ts, nonce string) string {
${comment('\t// ', m.snippets_go_uri())}
	// ${m.snippets_program_host()}
	host := strings.ToLower(u.Hostname())
	// ${m.snippets_program_port()}
	port := u.Port()
	if port == "" && u.Scheme == "https" {
		port = "443"
	} else if port == "" {
		port = "80"
	}
	return strings.Join([]string{ts, nonce, "GET", u.RequestURI(), host, port, ""}, "\\n") + "\\n"
}

func sign(macKey, text string) string {
	// ${m.snippets_go_utf8()}
	h := hmac.New(sha1.New, []byte(macKey))
	h.Write([]byte(text))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

func main() {
${macKey}
${tsNonce}
	req, err := http.NewRequest(http.MethodGet, requestURL, nil)
	if err != nil {
		log.Fatal(err)
	}
	mac := sign(macKey, baseString(req.URL, ts, nonce))
	header := fmt.Sprintf(\`MAC id="%s"${sep}ts="%s"${sep}nonce="%s"${sep}mac="%s"\`, kid, ts, nonce, mac)
	fmt.Println("Authorization: " + header)
	if os.Getenv("DRY_RUN") == "1" {
		return
	}

	req.Header.Set("Authorization", header)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Status)
	fmt.Println(string(body))
}
`;
}
