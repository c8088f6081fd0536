#!/usr/bin/env bash
# Builds kustomize-render (infra/kustomize: sigs.k8s.io/kustomize/api behind lightkeeper's
# restrictions, and helm.sh/helm/v4's template mode behind the same: `kustomize-render helm`) into
# a cache outside the work tree, once per engine version and source digest, for
# GOOS/GOARCH (default: this machine; the Lambda layer is linux/arm64). Prints the binary's path on
# stdout; progress goes to stderr. Safe to run concurrently: the build lands by atomic rename.
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
if [ -x "$binary" ]; then echo "$binary"; exit 0; fi

log() { echo "[kustomize] $*" >&2; }
log "building kustomize-render (kustomize/api $api_version, helm $helm_version, $goos/$goarch) into $bin_dir"
started=$(date +%s)
log "downloading modules"
go mod download
mkdir -p "$bin_dir"
staging="$(mktemp "$bin_dir/.build.XXXXXX")"
trap 'rm -f "$staging"' EXIT
log "compiling"
# Helm's version stamped as its Makefile does: a chart's .Capabilities.HelmVersion names the release.
GOOS="$goos" GOARCH="$goarch" nice go build -trimpath \
  -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$helm_version" -o "$staging" .
chmod 755 "$staging"
mv -f "$staging" "$binary"
trap - EXIT
log "built in $(( $(date +%s) - started ))s ($(du -k "$binary" | cut -f1) KiB)"
echo "$binary"
