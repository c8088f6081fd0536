#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kubectl and etcd from the
# pinned wrapper module in infra/controlplane, once per version pair, into a
# cache outside the work tree. Prints the binary directory on stdout; progress
# goes to stderr. Safe to run concurrently: the build lands by atomic rename.
set -euo pipefail

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/controlplane" && pwd)"
cd "$module_dir"
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:--buildvcs=false}"

k8s_version=$(go list -m -f '{{.Version}}' k8s.io/kubernetes)
etcd_version=$(go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)
cache_root="${LIGHTKEEPER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lightkeeper}"
# The recipe suffix changes whenever the build itself changes (r2: version-stamped), so a cache
# built by an older recipe is not reused.
recipe=r2
bin_dir="$cache_root/controlplane/k8s-$k8s_version-etcd-$etcd_version-$recipe"
binaries=(kube-apiserver kube-controller-manager kubectl etcd)

complete() { for b in "${binaries[@]}"; do [ -x "$bin_dir/$b" ] || return 1; done; }
if complete; then echo "$bin_dir"; exit 0; fi

log() { echo "[control-plane] $*" >&2; }
packages=(
  k8s.io/kubernetes/cmd/kube-apiserver
  k8s.io/kubernetes/cmd/kube-controller-manager
  k8s.io/kubernetes/cmd/kubectl
  go.etcd.io/etcd/server/v3
)
log "building Kubernetes $k8s_version and etcd $etcd_version into $bin_dir (cold builds take many minutes)"
started=$(date +%s)
log "downloading modules"
go mod download
total=$(go list -deps "${packages[@]}" | wc -l)
staging="$(mktemp -d "$cache_root/controlplane/.build.XXXXXX" 2>/dev/null || { mkdir -p "$cache_root/controlplane"; mktemp -d "$cache_root/controlplane/.build.XXXXXX"; })"
trap 'rm -rf "$staging"' EXIT

# Stamp the binaries with their release as Kubernetes' own build does (hack/lib/version.sh):
# unstamped, /version says v0.0.0-master+$Format:%H$ and charts' kubeVersion constraints refuse it.
k8s_semver=${k8s_version#v}
k8s_major=${k8s_semver%%.*}
k8s_minor=${k8s_semver#*.}; k8s_minor=${k8s_minor%%.*}
build_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
stamp=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  stamp+=" -X $pkg.gitVersion=$k8s_version -X $pkg.gitMajor=$k8s_major -X $pkg.gitMinor=$k8s_minor"
  stamp+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date"
done
etcd_stamp="-X go.etcd.io/etcd/api/v3/version.GitSHA=${etcd_version}"

build_one() { # name package [extra ldflags]
  log "compiling $1"
  go build -v -trimpath -ldflags "-s -w ${3:-$stamp}" -o "$staging/$1" "$2" 2>&1 | awk -v total="$total" -v name="$1" '
    { n++; if (n % 50 == 0) { printf "[control-plane] %s: %d packages compiled (of %d in the whole build)\n", name, n, total > "/dev/stderr"; fflush("/dev/stderr") } }
    / error|^#|cannot|undefined/ { print > "/dev/stderr" }'
  [ -x "$staging/$1" ] || { log "failed to build $1"; exit 1; }
}
build_one etcd go.etcd.io/etcd/server/v3 "$etcd_stamp"
build_one kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
build_one kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager
build_one kubectl k8s.io/kubernetes/cmd/kubectl

mkdir -p "$(dirname "$bin_dir")"
rm -rf "$bin_dir.tmp" && mv "$staging" "$bin_dir.tmp" && rm -rf "$bin_dir" && mv "$bin_dir.tmp" "$bin_dir"
trap - EXIT
log "built in $(( $(date +%s) - started ))s"
echo "$bin_dir"
