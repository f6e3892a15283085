// Verifies a Hookrail delivery (docs/verifying-webhooks.md). Go 1.20+, standard library only.
// Always verify the raw request body exactly as received: parsing and re-serialising the JSON
// changes the bytes and breaks the signature.
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Tolerance rejects signatures older or newer than 5 minutes (replays).
const Tolerance = 5 * time.Minute

// Version is one signature version of the project: "sha256" or "sha512", "hex" or "base64".
type Version struct {
	Algorithm string
	Encoding  string
}

// DefaultVersion is what a project signs with unless configured otherwise.
var DefaultVersion = Version{Algorithm: "sha256", Encoding: "hex"}

func sign(v Version, key []byte, parts ...[]byte) string {
	newHash := sha256.New
	if v.Algorithm == "sha512" {
		newHash = func() hash.Hash { return sha512.New() }
	}
	mac := hmac.New(newHash, key)
	for _, p := range parts {
		mac.Write(p)
	}
	if v.Encoding == "base64" {
		return base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	return hex.EncodeToString(mac.Sum(nil))
}

func equal(a, b string) bool { return hmac.Equal([]byte(a), []byte(b)) }

func timestampOK(t string, now time.Time) bool {
	sec, err := strconv.ParseInt(t, 10, 64)
	if err != nil || sec < 0 {
		return false
	}
	age := now.Sub(time.Unix(sec, 0))
	return age <= Tolerance && age >= -Tolerance
}

// VerifySimple: the signature header (default X-Hookrail-Signature) is the HMAC of the raw body,
// keyed with the endpoint secret's UTF-8 bytes. secrets: every secret you currently accept.
func VerifySimple(rawBody []byte, signature string, secrets []string, v Version) bool {
	for _, s := range secrets {
		if signature != "" && equal(sign(v, []byte(s), rawBody), signature) {
			return true
		}
	}
	return false
}

// VerifyAdvanced: `t=<unix seconds>,v1=<sig>,v1=<sig>...`; each vN signature is the HMAC of
// "<t>,<raw body>" with one valid secret, using the project's N-th signature version.
func VerifyAdvanced(rawBody []byte, header string, secrets []string, n int, v Version, now time.Time) bool {
	t, candidates := "", []string{}
	for _, part := range strings.Split(header, ",") {
		name, value, _ := strings.Cut(part, "=")
		if name == "t" {
			t = value
		} else if name == fmt.Sprintf("v%d", n) {
			candidates = append(candidates, value)
		}
	}
	if !timestampOK(t, now) {
		return false
	}
	for _, s := range secrets {
		expected := sign(v, []byte(s), []byte(t+","), rawBody)
		for _, c := range candidates {
			if equal(expected, c) {
				return true
			}
		}
	}
	return false
}

// StandardWebhooksKey: a `whsec_` secret is base64 after the prefix; any other is its UTF-8 bytes.
func StandardWebhooksKey(secret string) []byte {
	if rest, ok := strings.CutPrefix(secret, "whsec_"); ok {
		key, _ := base64.StdEncoding.DecodeString(rest)
		return key
	}
	return []byte(secret)
}

// VerifyStandardWebhooks: `webhook-signature` lists `v1,<base64 HMAC-SHA256>` separated by
// spaces, each over "<webhook-id>.<webhook-timestamp>.<raw body>".
func VerifyStandardWebhooks(rawBody []byte, h http.Header, secrets []string, now time.Time) bool {
	id, t := h.Get("webhook-id"), h.Get("webhook-timestamp")
	if id == "" || !timestampOK(t, now) {
		return false
	}
	for _, s := range secrets {
		expected := "v1," + sign(Version{"sha256", "base64"}, StandardWebhooksKey(s), []byte(id+"."+t+"."), rawBody)
		for _, c := range strings.Split(h.Get("webhook-signature"), " ") {
			if equal(expected, c) {
				return true
			}
		}
	}
	return false
}

// --- Used by the docs test (docs/verify/verify.int.spec.ts): one case as JSON on stdin ---
func main() {
	if len(os.Args) != 2 || os.Args[1] != "check" {
		fmt.Fprintln(os.Stderr, "usage: go run verify.go check < case.json")
		os.Exit(2)
	}
	var c struct {
		Scheme, Header, Algorithm, Encoding string
		BodyBase64                          string `json:"body_base64"`
		Secrets                             []string
		Headers                             map[string]string
		Version                             int
		Now                                 float64
	}
	dec := json.NewDecoder(os.Stdin)
	if err := dec.Decode(&c); err != nil {
		panic(err)
	}
	body, _ := base64.StdEncoding.DecodeString(c.BodyBase64)
	h := http.Header{}
	for k, v := range c.Headers {
		h.Set(k, v)
	}
	now := time.UnixMilli(int64(c.Now * 1000))
	v := Version{c.Algorithm, c.Encoding}
	var ok bool
	switch c.Scheme {
	case "simple":
		ok = VerifySimple(body, h.Get(c.Header), c.Secrets, v)
	case "advanced":
		ok = VerifyAdvanced(body, h.Get(c.Header), c.Secrets, c.Version, v, now)
	default:
		ok = VerifyStandardWebhooks(body, h, c.Secrets, now)
	}
	if !ok {
		fmt.Println("invalid")
		os.Exit(1)
	}
	fmt.Println("valid")
}
