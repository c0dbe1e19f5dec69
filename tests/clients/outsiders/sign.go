// An integrator's Go signer (net/http, crypto/hmac): not the vendor's sample.
// go run sign.go <kid> <key> <url> <ts> <variant> <style>
package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"net/http"
	"net/url"
	"os"
)

func main() {
	kid, key, raw, ts, variant, style := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5], os.Args[6]
	req, _ := http.NewRequest("GET", raw, nil)
	b := make([]byte, 16)
	rand.Read(b)
	nonce := hex.EncodeToString(b)
	if style == "b" {
		nonce = base64.StdEncoding.EncodeToString(b)
	}
	uri := req.URL.RequestURI()
	if variant == "query-sorted" {
		q, _ := url.ParseQuery(req.URL.RawQuery)
		uri = req.URL.EscapedPath() + "?" + q.Encode()
	}
	base := ts + "\n" + nonce + "\nGET\n" + uri + "\n" + req.URL.Hostname() + "\n443\n\n"
	newHash := func() hash.Hash { return sha1.New() }
	if variant == "hmac-sha256" {
		newHash = sha256.New
	}
	mac := hmac.New(newHash, []byte(key))
	mac.Write([]byte(base))
	sig := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if style == "b" {
		fmt.Printf("MAC id=\"%s\",ts=\"%s\",nonce=\"%s\",mac=\"%s\"\n", kid, ts, nonce, sig)
	} else {
		fmt.Printf("MAC id=%q, ts=%q, nonce=%q, mac=%q\n", kid, ts, nonce, sig)
	}
}
