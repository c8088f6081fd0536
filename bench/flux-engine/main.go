// flux-engine applies a directory of manifests the way Flux's kustomize-controller does, with
// Flux's own apply engine (github.com/fluxcd/pkg/ssa): ResourceManager.ApplyAllStaged with the
// controller's default concurrency (--concurrent-ssa 4), its field manager, its apply options and
// its client limits (--kube-api-qps 50, --kube-api-burst 300). It runs the call three times: the
// first apply, the same objects again (Flux's no-op: a GET and a dry-run apply per object), and
// again after one object changed. It prints the timings and request counts as one JSON line.
//
//	flux-engine -kubeconfig FILE -dir DIR [-concurrency 4]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fluxcd/cli-utils/pkg/kstatus/polling"
	"github.com/fluxcd/pkg/ssa"
	"github.com/fluxcd/pkg/ssa/normalize"
	ssautil "github.com/fluxcd/pkg/ssa/utils"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// What kustomize-controller names itself and its API group (field manager and owner labels).
const (
	controllerName = "kustomize-controller"
	group          = "kustomize.toolkit.fluxcd.io"
)

type requestCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

func (c *requestCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.counts
	c.counts = map[string]int{}
	return out
}

type countingTransport struct {
	next    http.RoundTripper
	counter *requestCounter
}

func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	kind := req.Method
	if req.Method == http.MethodPatch {
		if req.URL.Query().Get("dryRun") != "" {
			kind = "PATCH dry-run"
		} else {
			kind = "PATCH apply"
		}
	}
	t.counter.mu.Lock()
	t.counter.counts[kind]++
	t.counter.mu.Unlock()
	return t.next.RoundTrip(req)
}

type run struct {
	WallMs   int64          `json:"wallMs"`
	Actions  map[string]int `json:"actions"`
	Requests map[string]int `json:"requests"`
}

type result struct {
	Objects     int    `json:"objects"`
	Concurrency int    `json:"concurrency"`
	First       run    `json:"first"`
	Noop        run    `json:"noop"`
	OneChange   run    `json:"oneChange"`
	Changed     string `json:"changed"`
	PeakRssMb   int64  `json:"peakRssMb"`
}

// readObjects concatenates every YAML file under dir, as `kustomize build` would emit them, and
// reads them with the controller's own reader.
func readObjects(dir string) ([]*unstructured.Unstructured, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var all bytes.Buffer
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		all.WriteString("---\n")
		all.Write(b)
		all.WriteString("\n")
	}
	return ssautil.ReadObjects(&all)
}

// applyOptions are kustomize-controller's, for a Kustomization without spec.force.
func applyOptions() ssa.ApplyOptions {
	opts := ssa.DefaultApplyOptions()
	opts.ExclusionSelector = map[string]string{group + "/reconcile": "disabled", group + "/ssa": "Ignore"}
	opts.IfNotPresentSelector = map[string]string{group + "/ssa": "IfNotPresent"}
	opts.ForceSelector = map[string]string{group + "/force": "enabled"}
	opts.Cleanup = ssa.ApplyCleanupOptions{
		Annotations: []string{corev1.LastAppliedConfigAnnotation, group + "/checksum", "fluxcd.io/sync-checksum"},
		Labels:      []string{"fluxcd.io/sync-gc-mark"},
		FieldManagers: []ssa.FieldManager{
			{Name: "kubectl", OperationType: metav1.ManagedFieldsOperationApply},
			{Name: "kubectl", OperationType: metav1.ManagedFieldsOperationUpdate},
			{Name: "before-first-apply", OperationType: metav1.ManagedFieldsOperationUpdate},
			{Name: controllerName, OperationType: metav1.ManagedFieldsOperationUpdate},
		},
		Exclusions: map[string]string{group + "/ssa": "Merge"},
	}
	return opts
}

// changeOne alters one ConfigMap's data, as a commit changing one value in one file would.
func changeOne(objects []*unstructured.Unstructured) (string, error) {
	for _, o := range objects {
		if o.GetKind() == "ConfigMap" {
			if err := unstructured.SetNestedField(o.Object, "changed", "data", "mode"); err != nil {
				return "", err
			}
			return ssautil.FmtUnstructured(o), nil
		}
	}
	return "", fmt.Errorf("no ConfigMap to change")
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster")
	dir := flag.String("dir", "", "directory of manifests")
	concurrency := flag.Int("concurrency", 4, "kustomize-controller's --concurrent-ssa")
	pause := flag.Bool("pause", false, "after the first apply, print "+firstAppliedMarker+" and wait for a line on stdin")
	flag.Parse()
	if err := benchmark(*kubeconfig, *dir, *concurrency, *pause); err != nil {
		fmt.Fprintf(os.Stderr, "flux-engine: %v\n", err)
		os.Exit(1)
	}
}

// Printed on stderr after the first apply with -pause: the driver lets the control plane settle
// (the controllers roll out what was applied) before it lets the no-op start.
const firstAppliedMarker = "flux-engine: first apply done"

func benchmark(kubeconfig, dir string, concurrency int, pause bool) error {
	if kubeconfig == "" || dir == "" {
		return fmt.Errorf("usage: flux-engine -kubeconfig FILE -dir DIR [-concurrency 4] [-pause]")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS = 50
	cfg.Burst = 300
	cfg.UserAgent = controllerName
	counter := &requestCounter{counts: map[string]int{}}
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return countingTransport{next: rt, counter: counter}
	}
	kubeClient, err := client.New(cfg, client.Options{})
	if err != nil {
		return err
	}
	poller := polling.NewStatusPoller(kubeClient, kubeClient.RESTMapper(), polling.Options{})
	manager := ssa.NewResourceManager(kubeClient, poller, ssa.Owner{Field: controllerName, Group: group})
	manager.SetConcurrency(concurrency)

	objects, err := readObjects(dir)
	if err != nil {
		return err
	}
	if err := normalize.UnstructuredList(objects); err != nil {
		return err
	}
	manager.SetOwnerLabels(objects, "bench", "flux-system")
	res := result{Objects: len(objects), Concurrency: concurrency}

	ctx := context.Background()
	apply := func(label string) (run, error) {
		fmt.Fprintf(os.Stderr, "flux-engine: %s of %d objects\n", label, len(objects))
		counter.take()
		started := time.Now()
		// ApplyAll sorts its input in place and the controller builds fresh objects every time.
		batch := make([]*unstructured.Unstructured, len(objects))
		for i, o := range objects {
			batch[i] = o.DeepCopy()
		}
		changeSet, err := manager.ApplyAllStaged(ctx, batch, applyOptions())
		if err != nil {
			return run{}, fmt.Errorf("%s: %w", label, err)
		}
		r := run{WallMs: time.Since(started).Milliseconds(), Actions: map[string]int{}, Requests: counter.take()}
		for _, e := range changeSet.Entries {
			r.Actions[string(e.Action)]++
		}
		return r, nil
	}
	if res.First, err = apply("first apply"); err != nil {
		return err
	}
	if pause {
		fmt.Fprintln(os.Stderr, firstAppliedMarker)
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return fmt.Errorf("waiting to go on after the first apply: %w", err)
		}
	}
	if res.Noop, err = apply("no-op"); err != nil {
		return err
	}
	if res.Changed, err = changeOne(objects); err != nil {
		return err
	}
	if res.OneChange, err = apply("one object changed"); err != nil {
		return err
	}
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err == nil {
		res.PeakRssMb = usage.Maxrss / 1024
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}
