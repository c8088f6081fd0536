#!/usr/bin/env bash
# Builds the `helm` CLI (helm.sh/helm/v4/cmd/helm, pinned by the wrapper module infra/helm-oracle)
# into a cache outside the work tree, once per release and source digest. The chart tests compare
# lightkeeper's renders with its `helm template` (the oracle); nothing lightkeeper ships runs it.
# Prints the binary's path on stdout; progress goes to stderr. Safe to run concurrently: the build
# lands by atomic rename.
set -euo pipefail

script="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/helm-oracle" && pwd)"
cd "$module_dir"
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:--buildvcs=false}"

helm_version=$(go list -m -f '{{.Version}}' helm.sh/helm/v4)
digest=$(cat go.mod go.sum "$script" | sha256sum | cut -c1-12)
cache_root="${LIGHTKEEPER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lightkeeper}"
bin_dir="$cache_root/helm-$helm_version-$digest"
binary="$bin_dir/helm"
if [ -x "$binary" ]; then echo "$binary"; exit 0; fi

log() { echo "[helm-oracle] $*" >&2; }
log "building helm $helm_version into $bin_dir"
started=$(date +%s)
log "downloading modules"
go mod download
mkdir -p "$bin_dir"
staging="$(mktemp "$bin_dir/.build.XXXXXX")"
trap 'rm -f "$staging"' EXIT
log "compiling"
# Stamped as Helm's Makefile does, so `helm version` names the release.
nice go build -trimpath -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$helm_version" \
  -o "$staging" helm.sh/helm/v4/cmd/helm
chmod 755 "$staging"
mv -f "$staging" "$binary"
trap - EXIT
log "built in $(( $(date +%s) - started ))s ($(du -k "$binary" | cut -f1) KiB)"
echo "$binary"
