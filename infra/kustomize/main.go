// Command kustomize-render builds one kustomization with sigs.k8s.io/kustomize/api (krusty) under
// lightkeeper's restrictions and prints the objects as JSON:
//
//	{"resources":[{"origin":{"path":...,"configuredIn":...,"repo":...},"yaml":"..."}]}
//
// Usage: kustomize-render [-allow-remote [-remote-hosts LIST] [-remote-public]] [-decrypt] ROOT DIR
//
// or, for a Helm chart, the same program built with -tags helm (helm-render):
// helm-render helm ROOT CHART < request.json (helmrender.go); and, built with -tags sops too,
// helm-render decrypt < request.json: SOPS documents decrypted in memory (decrypt.go).
//
// ROOT is the repository checkout; DIR the kustomization directory inside it. Every file kustomize
// reads must resolve (symlinks followed) inside ROOT; load restrictor root-only; builtin
// generators and transformers only (no exec or container KRM functions, no Helm); remote bases
// and resources are refused unless -allow-remote, and even then reach only what remotePolicy allows
// (remotepolicy.go: allow-listed hosts; with -remote-public, other hosts at public addresses only),
// git included (gitproxy.go). Errors go to stderr, exit status 1.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

type origin struct {
	Path         string `json:"path,omitempty"`
	Repo         string `json:"repo,omitempty"`
	Ref          string `json:"ref,omitempty"`
	ConfiguredIn string `json:"configuredIn,omitempty"`
}

type rendered struct {
	Origin origin `json:"origin"`
	YAML   string `json:"yaml"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "helm" {
		helmMain(os.Args[2:])
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "decrypt" {
		decryptMain(os.Args[2:])
		return
	}
	allowRemote := flag.Bool("allow-remote", false, "allow remote bases (git) and remote resources (http)")
	remoteHosts := flag.String("remote-hosts", "", "comma-separated hosts (host or host:port) a remote may be fetched from, at any address")
	remotePublic := flag.Bool("remote-public", false, "other hosts too, at public addresses only")
	decrypt := flag.Bool("decrypt", false, "decrypt SOPS files as they are read, with the keys on stdin (decryptfs.go)")
	flag.Parse()
	if flag.NArg() != 2 {
		fail(errors.New("usage: kustomize-render [-allow-remote [-remote-hosts LIST] [-remote-public]] ROOT DIR"))
	}
	root, err := realDir(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	// Resolved as kustomize resolves its root, so the top kustomization is recognized by path.
	dir, err := realDir(flag.Arg(1))
	if err != nil {
		fail(err)
	}
	allowed := []string{root}
	if *allowRemote {
		// Remote bases are cloned into os.TempDir(); the caller points TMPDIR at a directory of its own.
		tmp, err := realDir(os.TempDir())
		if err != nil {
			fail(err)
		}
		allowed = append(allowed, tmp)
		policy := newRemotePolicy(*remoteHosts, *remotePublic)
		http.DefaultTransport = policy.transport()
		http.DefaultClient = &http.Client{Transport: http.DefaultTransport}
		if err := confineGit(policy); err != nil {
			fail(err)
		}
	} else {
		refuseRemote()
	}
	fsys := &confinedFs{FileSystem: filesys.MakeFsOnDisk(), allowed: allowed, top: dir}
	var readFs filesys.FileSystem = fsys
	if *decrypt {
		if readFs, err = decryptingFs(fsys, os.Stdin); err != nil {
			fail(err)
		}
	}

	options := krusty.MakeDefaultOptions()
	options.LoadRestrictions = types.LoadRestrictionsRootOnly
	options.PluginConfig = types.DisabledPluginConfig()
	// As `kustomize build`: the kustomization's sortOptions, else kustomize's legacy order.
	options.Reorder = krusty.ReorderOptionUnspecified
	m, runErr := krusty.MakeKustomizer(options).Run(readFs, dir)
	if fsys.violation != "" {
		fail(errors.New(fsys.violation))
	}
	if runErr != nil {
		fail(renderError(readFs, explainRemote(runErr)))
	}
	out := make([]rendered, 0, m.Size())
	for _, r := range m.Resources() {
		var o origin
		got, err := r.GetOrigin()
		if err != nil {
			fail(fmt.Errorf("reading the origin of %s: %w", r.CurId(), err))
		}
		if got != nil {
			o = origin{Path: got.Path, Repo: got.Repo, Ref: got.Ref, ConfiguredIn: got.ConfiguredIn}
		}
		// As kustomize removes them when the kustomization does not ask for them.
		if err := r.SetOrigin(nil); err != nil {
			fail(err)
		}
		if err := r.ClearTransformations(); err != nil {
			fail(err)
		}
		text, err := r.AsYAML()
		if err != nil {
			fail(err)
		}
		out = append(out, rendered{Origin: o, YAML: string(text)})
	}
	checkMemory()
	encoder := json.NewEncoder(os.Stdout)
	if err := encoder.Encode(map[string]any{"resources": out, "decrypted": anyDecrypted(readFs)}); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err.Error())
	os.Exit(1)
}

func realDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

const remoteRefused = "remote bases and resources are not allowed for this track (spec.kustomize.allowRemote)"

// refuseRemote makes both ways kustomize reaches the network fail: remote resources are fetched by
// an http.Client using http.DefaultTransport, remote bases are cloned by running `git` found on PATH.
func refuseRemote() {
	http.DefaultTransport = refusingTransport{}
	http.DefaultClient = &http.Client{Transport: refusingTransport{}}
	os.Setenv("PATH", "")
}

type refusingTransport struct{}

// remoteAsked records that kustomize tried to reach the network (when it is not allowed to).
var remoteAsked bool

func (refusingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	remoteAsked = true
	return nil, fmt.Errorf("%s: %s", remoteRefused, r.URL.Redacted())
}

var accumulating = regexp.MustCompile(`accumulating resources from '([^']+)'`)

// explainRemote turns kustomize's nested message about a refused fetch or clone into one line that
// names the remote it was asked for.
func explainRemote(err error) error {
	message := err.Error()
	if refused := firstRefusal(); refused != "" {
		return fmt.Errorf("remote refused: %s", refused)
	}
	if !remoteAsked && !strings.Contains(message, "no 'git' program on path") {
		return err
	}
	for _, m := range accumulating.FindAllStringSubmatch(message, -1) {
		if strings.Contains(m[1], "://") || strings.HasPrefix(m[1], "git@") || strings.HasPrefix(m[1], "github.com/") {
			return fmt.Errorf("%s: %s", remoteRefused, m[1])
		}
	}
	return fmt.Errorf("%s: %w", remoteRefused, err)
}
