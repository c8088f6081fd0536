//go:build helm

package main

// `helm-render helm ROOT CHART < request.json` renders one Helm chart as `helm template` does,
// with helm.sh/helm/v4's own install action in client-only dry-run mode (no cluster, no release
// storage), and prints the objects as JSON:
//
//	{"resources":[{"origin":{"path":"podinfo/templates/deployment.yaml"},"yaml":"..."}],
//	 "hooks":[{"path":...,"kind":...,"name":...,"events":[...],"weight":0,"deletePolicies":[...],"yaml":...}],
//	 "crds":[{"path":"podinfo/crds/x.yaml","yaml":"..."}]}
//
// The chart is read only from CHART (inside ROOT; chartfiles.go), values files only from inside
// the chart; no network is reachable (refuseRemote) except to fetch a dependency the request allows
// (helmdeps.go). KubeVersion and APIVersions come in the
// request, read by the caller from the cluster's discovery.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"sort"
	"strings"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	release "helm.sh/helm/v4/pkg/release/v1"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// helmRequest is what the caller asks (lib/helm/runHelmRender.ts).
type helmRequest struct {
	ReleaseName string         `json:"releaseName"`
	Namespace   string         `json:"namespace"`
	ValuesFiles []string       `json:"valuesFiles"`
	Values      map[string]any `json:"values"`
	KubeVersion string         `json:"kubeVersion"`
	APIVersions []string       `json:"apiVersions"`
	IsUpgrade   bool           `json:"isUpgrade"`
	// ValuesFrom: spec.helm.valuesFrom, read by the caller as the track (helmvalues.go).
	ValuesFrom []valuesSource `json:"valuesFrom,omitempty"`
	// PostRender: spec.helm.postRender (postrender.go).
	PostRender *postRenderSpec `json:"postRender,omitempty"`
	// CompareRenders: render twice and name what differs (nondeterminism.go).
	CompareRenders bool `json:"compareRenders,omitempty"`
	// Remote: where missing dependencies may be fetched from (helmdeps.go); absent: nowhere.
	Remote *helmRemote `json:"remote,omitempty"`
	// The track's keys (spec.decryption): values files that are SOPS documents are decrypted in memory.
	Decryption *decryptKeys `json:"decryption,omitempty"`
}

type helmHook struct {
	Path           string   `json:"path"`
	Kind           string   `json:"kind"`
	Name           string   `json:"name"`
	Events         []string `json:"events"`
	Weight         int      `json:"weight"`
	DeletePolicies []string `json:"deletePolicies"`
	YAML           string   `json:"yaml"`
}

type helmCRD struct {
	Path string `json:"path"`
	YAML string `json:"yaml"`
}

type helmOutput struct {
	Resources []rendered `json:"resources"`
	Hooks     []helmHook `json:"hooks"`
	CRDs      []helmCRD  `json:"crds"`
	// Nondeterministic: with compareRenders, the objects whose fields a second render changed.
	Nondeterministic []varyingObject `json:"nondeterministic,omitempty"`
	// Set when a values file was decrypted: every object may hold a decrypted value.
	Decrypted bool `json:"decrypted"`
}

const maxRequestBytes = 8 << 20

func helmMain(args []string) {
	if len(args) != 2 {
		fail(errors.New("usage: helm-render helm ROOT CHART < request.json"))
	}
	refuseRemote()
	// Helm logs warnings (a chart with CRDs in dry-run) through slog: keep stdout for the JSON.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	raw, err := io.ReadAll(io.LimitReader(os.Stdin, maxRequestBytes+1))
	if err != nil {
		fail(err)
	}
	if len(raw) > maxRequestBytes {
		fail(fmt.Errorf("the render request is larger than %d bytes", maxRequestBytes))
	}
	var req helmRequest
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(&req); err != nil {
		fail(fmt.Errorf("unreadable render request: %w", err))
	}
	out, err := renderChart(args[0], args[1], req)
	if err != nil {
		fail(err)
	}
	if req.CompareRenders {
		again, err := renderChart(args[0], args[1], req)
		if err != nil {
			fail(err)
		}
		out.Nondeterministic = varyingObjects(out.Resources, again.Resources)
	}
	checkMemory()
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
}

func renderChart(root, chartDir string, req helmRequest) (*helmOutput, error) {
	files, err := chartFiles(root, chartDir)
	if err != nil {
		return nil, err
	}
	chrt, err := loader.LoadFiles(files.chart)
	if err != nil {
		return nil, fmt.Errorf("loading the chart: %w", err)
	}
	if err := resolveDependencies(chrt, req.Remote); err != nil {
		return nil, err
	}
	vals := map[string]any{}
	decrypted := false
	for _, name := range req.ValuesFiles {
		data, err := files.read(name)
		if err != nil {
			return nil, fmt.Errorf("values file %s: %w", name, err)
		}
		plain, err := decryptValues(name, data, req.Decryption)
		if err != nil {
			return nil, err
		}
		decrypted = decrypted || !bytes.Equal(plain, data)
		data = plain
		current, err := loader.LoadValues(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("failed to parse %s: %w", name, err)
		}
		vals = loader.MergeMaps(vals, current)
	}
	vals, err = withValuesFrom(vals, req.ValuesFrom, req.Values)
	if err != nil {
		return nil, err
	}

	install := action.NewInstall(action.NewConfiguration())
	// `helm template`: a client-side dry run that replaces any release of the name (none is read).
	install.DryRunStrategy = action.DryRunClient
	install.Replace = true
	install.ReleaseName = req.ReleaseName
	install.Namespace = req.Namespace
	install.IsUpgrade = req.IsUpgrade
	if req.PostRender != nil {
		install.PostRenderer = kustomizePostRenderer{spec: *req.PostRender}
	}
	install.APIVersions = common.VersionSet(req.APIVersions)
	if len(req.APIVersions) > 0 {
		// The cluster's API versions and nothing else, as a real install reads them from discovery:
		// `helm template` adds the client library's built-in list, so a chart would see a version the
		// cluster no longer serves (policy/v1beta1, say) as served.
		exact := *common.DefaultCapabilities
		exact.APIVersions = nil
		common.DefaultCapabilities = &exact
	}
	if req.KubeVersion != "" {
		kv, err := common.ParseKubeVersion(req.KubeVersion)
		if err != nil {
			return nil, fmt.Errorf("invalid kube version %q: %w", req.KubeVersion, err)
		}
		install.KubeVersion = kv
	}
	rel, err := install.Run(chrt, vals)
	if err != nil && decrypted {
		// A template error may quote a value: with decrypted values, Helm's words are withheld.
		return nil, errors.New("the chart did not render with its decrypted values (Helm's message is withheld: it may quote a value)")
	}
	if err != nil {
		return nil, err
	}
	r, ok := rel.(*release.Release)
	if !ok {
		return nil, fmt.Errorf("unexpected release type %T", rel)
	}
	out := &helmOutput{Resources: manifestsOf(r.Manifest), Hooks: []helmHook{}, CRDs: []helmCRD{}, Decrypted: decrypted}
	for _, h := range r.Hooks {
		hook := helmHook{Path: h.Path, Kind: h.Kind, Name: h.Name, Weight: h.Weight, YAML: h.Manifest,
			Events: []string{}, DeletePolicies: []string{}}
		for _, e := range h.Events {
			hook.Events = append(hook.Events, string(e))
		}
		for _, p := range h.DeletePolicies {
			hook.DeletePolicies = append(hook.DeletePolicies, string(p))
		}
		out.Hooks = append(out.Hooks, hook)
	}
	for _, crd := range chrt.CRDObjects() {
		text, err := neverPruned(crd.File.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", crd.Filename, err)
		}
		out.CRDs = append(out.CRDs, helmCRD{Path: crd.Filename, YAML: text})
	}
	return out, nil
}

// neverPruned marks each definition of a chart's crds/ file `lightkeeper.dev/prune: disabled`: Helm
// never deletes a chart's CRDs (deleting one deletes every object of its kind), so lightkeeper
// applies them without an owner reference and orphans them when they leave the chart.
func neverPruned(data []byte) (string, error) {
	nodes, err := kio.FromBytes(data)
	if err != nil {
		return "", err
	}
	for _, n := range nodes {
		if err := n.PipeE(kyaml.SetAnnotation("lightkeeper.dev/prune", "disabled")); err != nil {
			return "", err
		}
	}
	return kio.StringAll(nodes)
}

var sourceLine = regexp.MustCompile(`^# Source: (.+)\n`)

// manifestsOf splits a release's manifest into its objects, each named by the template it came
// from (the `# Source:` line Helm writes above each), in Helm's install order.
func manifestsOf(manifest string) []rendered {
	split := releaseutil.SplitManifests(manifest)
	keys := make([]string, 0, len(split))
	for k := range split {
		keys = append(keys, k)
	}
	sort.Sort(releaseutil.BySplitManifestsOrder(keys))
	out := make([]rendered, 0, len(keys))
	for _, k := range keys {
		doc := split[k]
		path := ""
		if m := sourceLine.FindStringSubmatch(doc); m != nil {
			path = m[1]
			doc = doc[len(m[0]):]
		}
		if strings.TrimSpace(doc) == "" {
			continue
		}
		out = append(out, rendered{Origin: origin{Path: path}, YAML: doc})
	}
	return out
}
