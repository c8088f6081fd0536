//go:build sops

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// decryptFs is the repository as kustomize reads it, every SOPS file (a resource, a patch, a
// secretGenerator's env or file input) decrypted in memory as it is read, with the track's keys: the
// plaintext is never written, and kustomize sees plain files (a transformation cannot break a MAC).
type decryptFs struct {
	*confinedFs
	keys      *trackKeys
	decrypted bool
	failure   error
}

// decryptingFs reads the track's keys (decryptKeys JSON) from stdin and wraps the confined file system.
func decryptingFs(fsys *confinedFs, stdin io.Reader) (filesys.FileSystem, error) {
	silenceSopsLogs()
	raw, err := io.ReadAll(io.LimitReader(stdin, 1<<20))
	if err != nil {
		return nil, err
	}
	var keys decryptKeys
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, errors.New("unreadable keys on stdin")
	}
	parsed, err := parseTrackKeys(keys)
	if err != nil {
		return nil, err
	}
	return &decryptFs{confinedFs: fsys, keys: parsed}, nil
}

func (f *decryptFs) ReadFile(path string) ([]byte, error) {
	data, err := f.confinedFs.ReadFile(path)
	if err != nil || !looksLikeSops(data) {
		return data, err
	}
	plain, err := decryptDocument(sopsDocument{Path: path, Format: formatOfPath(path), Data: data}, f.keys)
	if err != nil {
		name := filepath.Base(path)
		if rel, rerr := filepath.Rel(f.allowed[0], path); rerr == nil {
			name = rel
		}
		f.failure = fmt.Errorf("%s: cannot decrypt: %w", name, err)
		return nil, f.failure
	}
	f.decrypted = true
	return plain, nil
}

// formatOfPath is sops's format for a file name (FormatForPath).
func formatOfPath(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return "yaml"
	case ".json":
		return "json"
	case ".env":
		return "dotenv"
	case ".ini":
		return "ini"
	}
	return "binary"
}

func anyDecrypted(fs filesys.FileSystem) bool {
	d, ok := fs.(*decryptFs)
	return ok && d.decrypted
}

// renderError is what a failed render with this file system says: a file that could not be
// decrypted, or, once a file was decrypted, none of kustomize's words (they may quote a value).
func renderError(fs filesys.FileSystem, err error) error {
	d, ok := fs.(*decryptFs)
	switch {
	case !ok:
		return err
	case d.failure != nil:
		return d.failure
	case d.decrypted:
		return errors.New("the kustomization did not build with its decrypted files (kustomize's message is withheld: it may quote a value)")
	}
	return err
}
