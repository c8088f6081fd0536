//go:build sops

package main

import "fmt"

// decryptValues decrypts a chart's values file that is a SOPS document (YAML or JSON) with the
// track's keys, in memory; any other file is returned as it is. An encrypted file without keys, or
// one the keys cannot decrypt, fails the render naming the file and the reason, never a value.
func decryptValues(name string, data []byte, keys *decryptKeys) ([]byte, error) {
	if !looksLikeSops(data) {
		return data, nil
	}
	silenceSopsLogs()
	if keys == nil {
		return nil, fmt.Errorf("values file %s is encrypted with SOPS and the track has no spec.decryption", name)
	}
	parsed, err := parseTrackKeys(*keys)
	if err != nil {
		return nil, err
	}
	plain, err := decryptDocument(sopsDocument{Path: name, Format: "yaml", Data: data}, parsed)
	if err != nil {
		return nil, fmt.Errorf("values file %s: cannot decrypt: %w", name, err)
	}
	return plain, nil
}
