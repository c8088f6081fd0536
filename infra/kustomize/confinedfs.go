package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// confinedFs is the disk, read-only, limited to the allowed directories after following symlinks.
// The first path outside them is recorded in violation (and refused): kustomize's own load
// restrictor lets a kustomization name any directory as a base, inside the repository or not.
type confinedFs struct {
	filesys.FileSystem
	allowed   []string
	top       string
	violation string
}

func (f *confinedFs) check(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	resolved := abs
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		resolved = real
	} else if !os.IsNotExist(err) {
		resolved = abs
	}
	for _, dir := range f.allowed {
		if resolved == dir || strings.HasPrefix(resolved, dir+string(filepath.Separator)) {
			return nil
		}
	}
	if f.violation == "" {
		shown := path
		if rel, err := filepath.Rel(f.allowed[0], abs); err == nil {
			shown = rel
		}
		if resolved != abs {
			f.violation = fmt.Sprintf("%s is outside the repository: a symlink leads to %s", shown, resolved)
		} else {
			f.violation = fmt.Sprintf("%s is outside the repository", shown)
		}
	}
	return fmt.Errorf("%s", f.violation)
}

func (f *confinedFs) Create(path string) (filesys.File, error) {
	return nil, fmt.Errorf("refused to create %s: the render is read-only", path)
}
func (f *confinedFs) Mkdir(path string) error    { return fmt.Errorf("refused to create %s", path) }
func (f *confinedFs) MkdirAll(path string) error { return fmt.Errorf("refused to create %s", path) }
func (f *confinedFs) RemoveAll(path string) error {
	return fmt.Errorf("refused to remove %s", path)
}
func (f *confinedFs) WriteFile(path string, _ []byte) error {
	return fmt.Errorf("refused to write %s", path)
}

func (f *confinedFs) Open(path string) (filesys.File, error) {
	if err := f.check(path); err != nil {
		return nil, err
	}
	return f.FileSystem.Open(path)
}

func (f *confinedFs) IsDir(path string) bool { return f.check(path) == nil && f.FileSystem.IsDir(path) }
func (f *confinedFs) Exists(path string) bool {
	return f.check(path) == nil && f.FileSystem.Exists(path)
}

func (f *confinedFs) ReadDir(path string) ([]string, error) {
	if err := f.check(path); err != nil {
		return nil, err
	}
	return f.FileSystem.ReadDir(path)
}

func (f *confinedFs) CleanedAbs(path string) (filesys.ConfirmedDir, string, error) {
	if err := f.check(path); err != nil {
		return "", "", err
	}
	return f.FileSystem.CleanedAbs(path)
}

func (f *confinedFs) Glob(pattern string) ([]string, error) {
	matches, err := f.FileSystem.Glob(pattern)
	if err != nil {
		return nil, err
	}
	for _, m := range matches {
		if err := f.check(m); err != nil {
			return nil, err
		}
	}
	return matches, nil
}

func (f *confinedFs) Walk(path string, walkFn filepath.WalkFunc) error {
	if err := f.check(path); err != nil {
		return err
	}
	return f.FileSystem.Walk(path, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			if cerr := f.check(p); cerr != nil {
				return cerr
			}
		}
		return walkFn(p, info, err)
	})
}

// ReadFile also asks for origin annotations in the top kustomization, so each object names the
// file it came from (they are stripped from the output).
func (f *confinedFs) ReadFile(path string) ([]byte, error) {
	if err := f.check(path); err != nil {
		return nil, err
	}
	data, err := f.FileSystem.ReadFile(path)
	if err != nil || filepath.Dir(filepath.Clean(path)) != filepath.Clean(f.top) || !isKustomizationFile(path) {
		return data, err
	}
	return withOriginAnnotations(data)
}

func isKustomizationFile(path string) bool {
	switch filepath.Base(path) {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return true
	}
	return false
}

func withOriginAnnotations(data []byte) ([]byte, error) {
	nodes, err := kio.FromBytes(data)
	if err != nil || len(nodes) != 1 {
		return data, nil // kustomize reports the file's own error
	}
	node := nodes[0]
	list, err := node.Pipe(yaml.LookupCreate(yaml.SequenceNode, "buildMetadata"))
	if err != nil {
		return data, nil
	}
	for _, v := range list.YNode().Content {
		if v.Value == "originAnnotations" {
			return data, nil
		}
	}
	if err := list.PipeE(yaml.Append(yaml.NewScalarRNode("originAnnotations").YNode())); err != nil {
		return nil, err
	}
	return []byte(node.MustString()), nil
}
