// The vendor's Go sample: taptap/tds-docs docs/sdk/taptap-login/taptap-oauth.mdx (and
// docs/sdk/taptap-login/guide/taptap-oauth.mdx), "Go 请求示例": main() and hmacSha1(), plus a server
// helper seen in the wild that signs url.Values.Encode(). Built with go build, run once for many.
//
// Habits reproduced, as the sample has them:
//   - reqHost and reqURI are literal strings; reqURL := "https://" + reqHost + reqURI;
//   - timestamp := strconv.FormatInt(time.Now().Unix(), 10): whole seconds, unpadded;
//   - nonce := "8IBTHwOdqNKAWeKl7plt66==": the sample's fixed nonce ("replace before launch");
//   - macStr := timestamp + "\n" + nonce + "\n" + "GET" + "\n" + reqURI + "\n" + reqHost + "\n" +
//     "443" + "\n\n", signed by hmac.New(sha1.New, []byte(macKey)) (the key's UTF-8 bytes);
//   - the header is concatenated: MAC id="…",ts="…",nonce="…",mac="…" (parts joined by ",");
//   - http.NewRequest(GET, reqURL) then client.Do: net/http sends req.URL.RequestURI(), the query as
//     written (a space and non-ASCII go out raw, a bare "?" is kept), and Host as written.
//
// The helper (`helper: "values-encode"`): u, _ := url.Parse(rawURL); it signs
// u.Path + "?" + u.Query().Encode() (keys sorted, values re-encoded by QueryEscape) and sends either
// the URL it rebuilt from them (`send: "rebuilt"`) or the caller's rawURL (`send: "as-given"`).
//
// Input: one JSON object a line on stdin ({url, host, request_uri, kid, mac_key, now_ms?, helper?,
// send?}); output: one JSON line a request ({client, method, target, host, authorization,
// base_string}). The clock: the request's now_ms, else ZOO_NOW_MS, else time.Now().
package main

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

type request struct {
	URL        string `json:"url"`
	Host       string `json:"host"`
	RequestURI string `json:"request_uri"`
	Kid        string `json:"kid"`
	MacKey     string `json:"mac_key"`
	NowMs      string `json:"now_ms"`
	Helper     string `json:"helper"`
	Send       string `json:"send"`
}

type sent struct {
	Client        string `json:"client"`
	Method        string `json:"method"`
	Target        string `json:"target"`
	Host          string `json:"host"`
	Authorization string `json:"authorization"`
	BaseString    string `json:"base_string"`
}

func now(r request) time.Time {
	readings := r.NowMs
	if readings == "" {
		readings = os.Getenv("ZOO_NOW_MS")
	}
	if readings == "" {
		return time.Now()
	}
	ms, err := strconv.ParseInt(strings.TrimSpace(strings.Split(readings, ",")[0]), 10, 64)
	if err != nil {
		panic(err)
	}
	return time.UnixMilli(ms)
}

// The sample's main(), up to client.Do.
func docsSample(r request) (*http.Request, string, string) {
	accessToken := r.Kid
	macKey := r.MacKey
	nonce := "8IBTHwOdqNKAWeKl7plt66=="
	timestamp := strconv.FormatInt(now(r).Unix(), 10)
	reqHost := r.Host
	reqURI := r.RequestURI
	reqURL := "https://" + reqHost + reqURI

	macStr := timestamp + "\n" + nonce + "\n" + "GET" + "\n" + reqURI + "\n" + reqHost + "\n" + "443" + "\n\n"
	mac := hmacSha1(macStr, macKey)
	authorization := "MAC id=" + "\"" + accessToken + "\"" + "," + "ts=" + "\"" + timestamp + "\"" + "," + "nonce=" + "\"" + nonce + "\"" + "," + "mac=" + "\"" + mac + "\""

	req, err := http.NewRequest(http.MethodGet, reqURL, nil)
	if err != nil {
		panic(err)
	}
	req.Header.Add("Authorization", authorization)
	return req, authorization, macStr
}

// The helper seen in the wild: the query signed as url.Values.Encode().
func valuesEncodeHelper(r request) (*http.Request, string, string) {
	u, err := url.Parse(r.URL)
	if err != nil {
		panic(err)
	}
	uri := u.Path + "?" + u.Query().Encode()
	nonce := "8IBTHwOdqNKAWeKl7plt66=="
	timestamp := strconv.FormatInt(now(r).Unix(), 10)
	macStr := timestamp + "\n" + nonce + "\n" + "GET" + "\n" + uri + "\n" + u.Hostname() + "\n" + "443" + "\n\n"
	authorization := "MAC id=\"" + r.Kid + "\",ts=\"" + timestamp + "\",nonce=\"" + nonce + "\",mac=\"" + hmacSha1(macStr, r.MacKey) + "\""
	target := r.URL
	if r.Send == "rebuilt" {
		target = u.Scheme + "://" + u.Host + uri
	}
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		panic(err)
	}
	req.Header.Add("Authorization", authorization)
	return req, authorization, macStr
}

func hmacSha1(valStr, keyStr string) string {
	key := []byte(keyStr)
	mac := hmac.New(sha1.New, key)
	mac.Write([]byte(valStr))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		var r request
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			panic(err)
		}
		var req *http.Request
		var authorization, base string
		if r.Helper == "values-encode" {
			req, authorization, base = valuesEncodeHelper(r)
		} else {
			req, authorization, base = docsSample(r)
		}
		// What client.Do writes: the request line's target and the Host header.
		if err := out.Encode(sent{Client: "docs-go", Method: req.Method, Target: req.URL.RequestURI(), Host: req.Host, Authorization: authorization, BaseString: base}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
