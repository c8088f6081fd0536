//go:build !sops

package main

import "errors"

// kustomize-render proper links no SOPS: sops's key services (AWS, GCP, Azure, Vault SDKs) would add
// their package initializers to every render's start. The decryptor is in helm-render, built with
// -tags helm,sops (infra/build-kustomize.sh).
func decryptMain([]string) {
	fail(errors.New("this engine is built without SOPS: files are decrypted by helm-render beside it"))
}
