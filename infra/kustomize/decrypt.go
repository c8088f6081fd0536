//go:build sops

package main

// `helm-render decrypt < request.json` decrypts SOPS documents (github.com/getsops/sops/v3) with the
// keys of one track, in memory: the keys and the documents arrive on stdin, the plaintext leaves on
// stdout, nothing is written to disk, read from the environment or passed in an argument.
//
//	request:  {"keys":{"age":[{"name":"identity.agekey","value":"AGE-SECRET-KEY-1..."}]},
//	           "documents":[{"path":"apps/secret.yaml","format":"yaml","data":"<base64>"}]}
//	response: {"documents":[{"path":"apps/secret.yaml","data":"<base64>"} or {"path":...,"error":"..."}]}
//
// One document's failure (no matching key, MAC mismatch, not a SOPS file, a panic on hostile input)
// is that document's error; the others are still decrypted. An error never carries a value of the
// document, decrypted or not: each reason is one of the fixed texts below.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// decryptRequest is what the caller asks (lib/sops/runDecrypt.ts).
type decryptRequest struct {
	Keys      decryptKeys    `json:"keys"`
	Documents []sopsDocument `json:"documents"`
}

type sopsDocument struct {
	Path   string `json:"path"`
	Format string `json:"format"`
	Data   []byte `json:"data"`
}

type decryptedDocument struct {
	Path  string `json:"path"`
	Data  []byte `json:"data"`
	Error string `json:"error,omitempty"`
}

const maxDecryptRequestBytes = 64 << 20

func decryptMain(args []string) {
	if len(args) != 0 {
		fail(errors.New("usage: helm-render decrypt < request.json (keys and documents on stdin)"))
	}
	refuseRemote()
	silenceSopsLogs()
	raw, err := io.ReadAll(io.LimitReader(os.Stdin, maxDecryptRequestBytes+1))
	if err != nil {
		fail(err)
	}
	if len(raw) > maxDecryptRequestBytes {
		fail(fmt.Errorf("the decrypt request is larger than %d bytes", maxDecryptRequestBytes))
	}
	var req decryptRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		// The request holds keys and documents: its parse error is not echoed.
		fail(errors.New("unreadable decrypt request"))
	}
	out, err := decryptAll(req)
	if err != nil {
		fail(err)
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"documents": out}); err != nil {
		fail(err)
	}
}

// decryptAll decrypts every document with the request's keys; a key that cannot be read fails the
// whole request (naming the Secret entry), a document that cannot be decrypted fails alone.
func decryptAll(req decryptRequest) ([]decryptedDocument, error) {
	keys, err := parseTrackKeys(req.Keys)
	if err != nil {
		return nil, err
	}
	out := make([]decryptedDocument, 0, len(req.Documents))
	for _, doc := range req.Documents {
		plain, err := decryptDocument(doc, keys)
		if err != nil {
			out = append(out, decryptedDocument{Path: doc.Path, Error: err.Error()})
			continue
		}
		out = append(out, decryptedDocument{Path: doc.Path, Data: plain})
	}
	return out, nil
}
