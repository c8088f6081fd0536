//go:build !helm

package main

import "errors"

// kustomize-render proper links no Helm: the Helm SDK's package initializers (client-go schemes,
// JSON schema, validators) would add ~30 ms to every kustomize render's start. helm-render is the
// same program built with -tags helm (infra/build-kustomize.sh).
func helmMain([]string) {
	fail(errors.New("this engine is built without Helm: charts are rendered by helm-render beside it"))
}
