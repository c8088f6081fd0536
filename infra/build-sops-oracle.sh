#!/usr/bin/env bash
# Builds the `sops` CLI (github.com/getsops/sops/v3/cmd/sops) and `age-keygen` (filippo.io/age),
# pinned by the wrapper module infra/sops-oracle, into a cache outside the work tree, once per release
# and source digest. The SOPS tests encrypt their fixtures with them, as a user does; nothing
# lightkeeper ships runs them. Prints sops's path on stdout (age-keygen is beside it); progress goes
# to stderr. Safe to run concurrently: the build lands by atomic rename.
set -euo pipefail

script="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/sops-oracle" && pwd)"
cd "$module_dir"
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:--buildvcs=false}"

sops_version=$(go list -m -f '{{.Version}}' github.com/getsops/sops/v3)
digest=$(cat go.mod go.sum "$script" | sha256sum | cut -c1-12)
cache_root="${LIGHTKEEPER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lightkeeper}"
bin_dir="$cache_root/sops-$sops_version-$digest"
binary="$bin_dir/sops"
keygen="$bin_dir/age-keygen"
if [ -x "$binary" ] && [ -x "$keygen" ]; then echo "$binary"; exit 0; fi

log() { echo "[sops-oracle] $*" >&2; }
log "building sops $sops_version and age-keygen into $bin_dir"
started=$(date +%s)
log "downloading modules"
go mod download
mkdir -p "$bin_dir"
staging="$(mktemp "$bin_dir/.build.XXXXXX")"
keygen_staging="$(mktemp "$bin_dir/.build.XXXXXX")"
trap 'rm -f "$staging" "$keygen_staging"' EXIT
log "compiling"
nice go build -trimpath -ldflags "-s -w" -o "$staging" github.com/getsops/sops/v3/cmd/sops
nice go build -trimpath -ldflags "-s -w" -o "$keygen_staging" filippo.io/age/cmd/age-keygen
chmod 755 "$staging" "$keygen_staging"
mv -f "$keygen_staging" "$keygen"
mv -f "$staging" "$binary"
trap - EXIT
log "built in $(( $(date +%s) - started ))s"
echo "$binary"
