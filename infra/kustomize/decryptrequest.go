package main

import "bytes"

// decryptKeys are a track's keys, as its key Secret holds them (lib/track/readDecryptionKeys.ts): in
// the decrypt request, and in a Helm render's request when the track has spec.decryption.
type decryptKeys struct {
	Age []namedKey `json:"age"`
}

// namedKey is one entry of the track's key Secret: its name (never its value) is what an error names.
type namedKey struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// looksLikeSops says whether a file is a SOPS document: an encrypted value and sops metadata.
func looksLikeSops(data []byte) bool {
	return bytes.Contains(data, []byte("ENC[AES256_GCM,")) && bytes.Contains(data, []byte("sops"))
}
