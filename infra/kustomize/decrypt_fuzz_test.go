//go:build sops

package main

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzDecryptNeverCrashes feeds the decryptor hostile bytes in every format sops reads: a panic in
// sops on malformed input must be that document's error (a broken commit), never the engine's
// crash, and an error must never carry the plaintext a valid document of the same key holds. The
// seeds (valid documents, and each cut short or with its metadata bent) run in the suite; `go test
// -tags sops -run '^$' -fuzz FuzzDecryptNeverCrashes` explores further.
func FuzzDecryptNeverCrashes(f *testing.F) {
	id := newIdentity(f)
	keys := keysOf(id)
	recipient := id.Recipient().String()
	seeds := map[string]string{
		"yaml":   "password: " + secretValue + "\n",
		"json":   `{"password": "` + secretValue + `"}`,
		"dotenv": "PASSWORD=" + secretValue + "\n",
		"ini":    "[db]\npassword = " + secretValue + "\n",
		"binary": secretValue,
	}
	formats := []string{"yaml", "json", "dotenv", "ini", "binary"}
	for i, format := range formats {
		valid := encrypt(f, format, seeds[format], recipient)
		f.Add(uint8(i), valid)
		f.Add(uint8(i), valid[:len(valid)/2])
		f.Add(uint8(i), bytes.Replace(valid, []byte("mac"), []byte("max"), 1))
		f.Add(uint8(i), bytes.Replace(valid, []byte("AES256_GCM"), []byte("AES256_GCX"), 1))
		f.Add(uint8(i), bytes.Replace(valid, []byte("age"), []byte("kms"), 1))
		f.Add(uint8(i), bytes.Replace(valid, []byte("version"), []byte("versiom"), 1))
	}
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		doc := sopsDocument{Path: "fuzzed", Format: formats[int(format)%len(formats)], Data: data}
		out, err := decryptAll(decryptRequest{Keys: keys, Documents: []sopsDocument{doc}})
		if err != nil {
			t.Fatalf("the request failed as a whole: %v", err)
		}
		if len(out) != 1 {
			t.Fatalf("one answer expected, got %d", len(out))
		}
		if out[0].Error != "" && (strings.Contains(out[0].Error, secretValue) || len(out[0].Data) > 0) {
			t.Fatalf("an error with plaintext or data: %q", out[0].Error)
		}
	})
}
