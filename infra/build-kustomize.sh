#!/usr/bin/env bash
# Builds kustomize-render (infra/kustomize: sigs.k8s.io/kustomize/api behind lightkeeper's
# restrictions) and, beside it, helm-render (the same program built with -tags helm: also
# helm.sh/helm/v4's template mode, `helm-render helm ROOT CHART`; kept apart so that a kustomize
# render does not pay for Helm's package initializers at start; with -tags sops too, the SOPS
# decryptor, `helm-render decrypt`, whose key-service SDKs a kustomize render does not pay for either)
# into a cache outside the work tree,
# once per engine version and source digest, for GOOS/GOARCH (default: this machine; the Lambda
# layer is linux/arm64). Prints kustomize-render's path on stdout (helm-render is in the same
# directory); progress goes to stderr. Safe to run concurrently: the build lands by atomic rename.
set -euo pipefail

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/kustomize" && pwd)"
cd "$module_dir"
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:--buildvcs=false}"
goos="${GOOS:-$(go env GOOS)}"
goarch="${GOARCH:-$(go env GOARCH)}"

api_version=$(go list -m -f '{{.Version}}' sigs.k8s.io/kustomize/api)
helm_version=$(go list -m -f '{{.Version}}' helm.sh/helm/v4)
digest=$(cat go.mod go.sum ./*.go | sha256sum | cut -c1-12)
cache_root="${LIGHTKEEPER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lightkeeper}"
bin_dir="$cache_root/kustomize/api-$api_version-$digest/$goos-$goarch"
binary="$bin_dir/kustomize-render"
helm_binary="$bin_dir/helm-render"
if [ -x "$binary" ] && [ -x "$helm_binary" ]; then echo "$binary"; exit 0; fi

log() { echo "[kustomize] $*" >&2; }
log "building kustomize-render (kustomize/api $api_version, helm $helm_version, $goos/$goarch) into $bin_dir"
started=$(date +%s)
log "downloading modules"
go mod download
mkdir -p "$bin_dir"
staging="$(mktemp "$bin_dir/.build.XXXXXX")"
helm_staging="$(mktemp "$bin_dir/.build.XXXXXX")"
trap 'rm -f "$staging" "$helm_staging"' EXIT
log "compiling kustomize-render"
GOOS="$goos" GOARCH="$goarch" nice go build -trimpath -ldflags "-s -w" -o "$staging" .
log "compiling helm-render"
# Helm's version stamped as its Makefile does: a chart's .Capabilities.HelmVersion names the release.
GOOS="$goos" GOARCH="$goarch" nice go build -trimpath -tags helm,sops \
  -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$helm_version" -o "$helm_staging" .
chmod 755 "$staging" "$helm_staging"
mv -f "$helm_staging" "$helm_binary"
mv -f "$staging" "$binary"
trap - EXIT
log "built in $(( $(date +%s) - started ))s (kustomize-render $(du -k "$binary" | cut -f1) KiB, helm-render $(du -k "$helm_binary" | cut -f1) KiB)"
echo "$binary"
