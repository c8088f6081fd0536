//go:build helm

package main

// A chart's dependencies (Chart.yaml `dependencies[]`). Subcharts vendored in charts/ (a .tgz or an
// unpacked directory) are loaded with the chart and need nothing here. A dependency missing from
// charts/ makes `helm template` fail; here it is fetched instead, only from an HTTP chart repository
// (`repository: https://…`, its index.yaml) or an OCI registry (`oci://…`, helmoci.go), and only
// when the request allows remote charts (remote):
// every connection goes through remotePolicy, the rule of remote kustomize bases. Chart.lock, when
// there is one, must match Chart.yaml (Helm's own digest of the two, as `helm dependency build`
// checks) and fixes each version; an archive from an index must match the index's sha256 digest
// (an OCI pull checks each blob against its digest). A
// chart fetched at an exact version is kept in remote.CacheDir (one per lightkeeper process: a warm
// Lambda container fetches it once), under a key that includes the policy it was fetched under.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// helmRemote is what a render may fetch remote charts from (lib/kustomize/remoteAccess.ts).
type helmRemote struct {
	// Hosts reachable at any address (the deployment's allow-list).
	Hosts []string `json:"hosts"`
	// Public: other hosts too, at public addresses only (a ClusterGitTrack).
	Public bool `json:"public"`
	// CacheDir keeps fetched archives between renders of one lightkeeper process ("": none).
	CacheDir string `json:"cacheDir"`
}

const (
	remoteChartsRefused = "remote charts are not allowed for this track (spec.helm.allowRemote)"
	maxCachedCharts     = 64
	fetchTimeout        = 60 * time.Second
)

// resolveDependencies adds to chrt every dependency its charts/ lacks, fetched as remote allows.
func resolveDependencies(chrt *chart.Chart, remote *helmRemote) error {
	missing := missingDependencies(chrt)
	if len(missing) == 0 {
		return nil
	}
	locked := map[string]string{}
	if chrt.Lock != nil {
		sum, err := hashReq(chrt.Metadata.Dependencies, chrt.Lock.Dependencies)
		if err != nil {
			return err
		}
		if sum != chrt.Lock.Digest {
			return fmt.Errorf("Chart.lock is out of sync with Chart.yaml: its digest %s is not %s, the digest of the dependencies it locks (run helm dependency update)", chrt.Lock.Digest, sum)
		}
		for _, d := range chrt.Lock.Dependencies {
			locked[d.Name] = d.Version
		}
	}
	var client *http.Client
	for _, dep := range missing {
		u, err := url.Parse(dep.Repository)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "oci") || u.Host == "" {
			return fmt.Errorf("found in Chart.yaml, but missing in charts/ directory: %s (a dependency from %q must be vendored in charts/)", dep.Name, dep.Repository)
		}
		if remote == nil {
			return fmt.Errorf("chart dependency %s from %s: %s", dep.Name, u.Host, remoteChartsRefused)
		}
		version := dep.Version
		if v, ok := locked[dep.Name]; ok {
			version = v
		}
		if client == nil {
			client = &http.Client{Transport: newRemotePolicy(strings.Join(remote.Hosts, ","), remote.Public).transport(), Timeout: fetchTimeout}
		}
		sub, err := fetchDependency(client, remote, dep, version)
		if err != nil {
			if refused := firstRefusal(); refused != "" {
				return fmt.Errorf("chart dependency %s: remote refused: %s", dep.Name, refused)
			}
			return fmt.Errorf("chart dependency %s from %s: %w", dep.Name, dep.Repository, err)
		}
		chrt.AddDependency(sub)
	}
	return nil
}

// missingDependencies are those of Chart.yaml with no subchart of their name, as action.CheckDependencies finds them.
func missingDependencies(chrt *chart.Chart) []*chart.Dependency {
	have := map[string]bool{}
	for _, d := range chrt.Dependencies() {
		have[d.Name()] = true
	}
	var out []*chart.Dependency
	for _, d := range chrt.Metadata.Dependencies {
		if !have[d.Name] {
			out = append(out, d)
		}
	}
	return out
}

// hashReq is Helm's digest of Chart.yaml's dependencies and Chart.lock's (internal/resolver.HashReq).
func hashReq(req, lock []*chart.Dependency) (string, error) {
	data, err := json.Marshal([2][]*chart.Dependency{req, lock})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// fetchDependency reads dep at version (exact, or a range Helm resolves in the index) from its
// repository, through the cache when the version is exact.
func fetchDependency(client *http.Client, remote *helmRemote, dep *chart.Dependency, version string) (*chart.Chart, error) {
	cached := ""
	if remote.CacheDir != "" && version != "" && !strings.ContainsAny(version, "^~<>=!*xX| ") {
		key, _ := json.Marshal([]any{remote.Hosts, remote.Public, dep.Repository, dep.Name, version})
		sum := sha256.Sum256(key)
		cached = filepath.Join(remote.CacheDir, hex.EncodeToString(sum[:])+".tgz")
		if data, err := os.ReadFile(cached); err == nil {
			return loadDependency(data, dep, version)
		}
	}
	var data []byte
	var err error
	if strings.HasPrefix(dep.Repository, "oci://") {
		data, version, err = pullOCI(client, dep, version)
	} else {
		data, version, err = fetchFromIndex(client, dep, version)
	}
	if err != nil {
		return nil, err
	}
	sub, err := loadDependency(data, dep, version)
	if err != nil {
		return nil, err
	}
	if cached != "" {
		keep(cached, data)
	}
	return sub, nil
}

// fetchFromIndex reads dep at version from an HTTP chart repository: its index.yaml names the
// archive and its sha256 digest, which the archive must match.
func fetchFromIndex(client *http.Client, dep *chart.Dependency, version string) ([]byte, string, error) {
	indexURL, err := repo.ResolveReferenceURL(dep.Repository, "index.yaml")
	if err != nil {
		return nil, "", err
	}
	indexData, err := httpGet(client, indexURL)
	if err != nil {
		return nil, "", err
	}
	index, err := loadIndex(indexData)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", indexURL, err)
	}
	entry, err := index.Get(dep.Name, version)
	if err != nil {
		return nil, "", fmt.Errorf("%s %s in %s: %w", dep.Name, version, indexURL, err)
	}
	if len(entry.URLs) == 0 {
		return nil, "", fmt.Errorf("%s %s in %s has no URL", dep.Name, entry.Version, indexURL)
	}
	chartURL, err := repo.ResolveReferenceURL(dep.Repository, entry.URLs[0])
	if err != nil {
		return nil, "", err
	}
	data, err := httpGet(client, chartURL)
	if err != nil {
		return nil, "", err
	}
	if entry.Digest != "" {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, strings.TrimPrefix(entry.Digest, "sha256:")) {
			return nil, "", fmt.Errorf("%s: its sha256 digest %s is not the repository index's %s", chartURL, got, entry.Digest)
		}
	}
	return data, entry.Version, nil
}

// loadDependency loads an archive and checks it is the chart and version asked for.
func loadDependency(data []byte, dep *chart.Dependency, version string) (*chart.Chart, error) {
	sub, err := loader.LoadArchive(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if sub.Name() != dep.Name {
		return nil, fmt.Errorf("the archive holds chart %s, not %s", sub.Name(), dep.Name)
	}
	if version != "" && sub.Metadata.Version != version && !strings.ContainsAny(version, "^~<>=!*xX| ") {
		return nil, fmt.Errorf("the archive holds %s %s, not version %s", dep.Name, sub.Metadata.Version, version)
	}
	return sub, nil
}

// loadIndex parses an index.yaml with Helm's own loader (which reads only files).
func loadIndex(data []byte) (*repo.IndexFile, error) {
	f, err := os.CreateTemp("", "index-*.yaml")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return repo.LoadIndexFile(f.Name())
}

func httpGet(client *http.Client, u string) ([]byte, error) {
	resp, err := client.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// keep writes an archive into the cache (atomically: another render may read it at once) and
// drops the oldest beyond maxCachedCharts. A cache that cannot be written only costs a fetch.
func keep(path string, data []byte) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".partial-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= maxCachedCharts {
		return
	}
	type aged struct {
		name string
		at   time.Time
	}
	var all []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			all = append(all, aged{e.Name(), info.ModTime()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].at.Before(all[j].at) })
	for _, a := range all[:len(all)-maxCachedCharts] {
		os.Remove(filepath.Join(dir, a.name))
	}
}
