//go:build !sops

package main

import (
	"errors"
	"fmt"
	"io"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// kustomize-render proper links no SOPS: sops's key services (AWS, GCP, Azure, Vault SDKs) would add
// their package initializers to every render's start. The decryptor is in helm-render, built with
// -tags helm,sops (infra/build-kustomize.sh).
func decryptMain([]string) {
	fail(errors.New("this engine is built without SOPS: files are decrypted by helm-render beside it"))
}

// decryptValues refuses an encrypted values file: this engine cannot decrypt it, and its ciphertext
// must never be rendered as values.
func decryptValues(name string, data []byte, _ *decryptKeys) ([]byte, error) {
	if looksLikeSops(data) {
		return nil, fmt.Errorf("values file %s is encrypted with SOPS and this engine is built without SOPS", name)
	}
	return data, nil
}

func decryptingFs(*confinedFs, io.Reader) (filesys.FileSystem, error) {
	return nil, errors.New("this engine is built without SOPS: a kustomization with spec.decryption is rendered by helm-render")
}

func anyDecrypted(filesys.FileSystem) bool { return false }

func renderError(_ filesys.FileSystem, err error) error { return err }
