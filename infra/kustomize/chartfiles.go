//go:build helm

package main

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"helm.sh/helm/v4/pkg/chart/loader/archive"
	"helm.sh/helm/v4/pkg/ignore"
)

var utf8bom = []byte{0xEF, 0xBB, 0xBF}

// loadedChart is a chart's files as Helm's directory loader would read them, and a way to read
// another file of the chart (a values file) under the same confinement.
type loadedChart struct {
	dir   string
	chart []*archive.BufferedFile
}

// chartFiles reads the chart in dir as helm.sh/helm/v4's LoadDir does (.helmignore honoured, the
// same size budget, a UTF-8 BOM dropped), except that nothing outside the chart is ever read: a
// symlink is followed only when its target resolves inside the chart directory, which itself must
// resolve inside root. LoadDir follows symlinks anywhere.
func chartFiles(root, dir string) (*loadedChart, error) {
	realRoot, err := realDir(root)
	if err != nil {
		return nil, err
	}
	top, err := realDir(dir)
	if err != nil {
		return nil, fmt.Errorf("the chart directory: %w", err)
	}
	if !within(realRoot, top) {
		return nil, fmt.Errorf("the chart directory %s is outside the repository", dir)
	}
	if _, err := os.Stat(filepath.Join(top, "Chart.yaml")); err != nil {
		return nil, fmt.Errorf("no Chart.yaml in the chart directory")
	}
	rules := ignore.Empty()
	if _, err := os.Stat(filepath.Join(top, ignore.HelmIgnore)); err == nil {
		if rules, err = ignore.ParseFile(filepath.Join(top, ignore.HelmIgnore)); err != nil {
			return nil, err
		}
	}
	rules.AddDefaults()
	c := &loadedChart{dir: top}
	budget := archive.NewBudgetedReader(archive.MaxDecompressedChartSize)
	var walk func(real, name string, depth int) error
	walk = func(real, name string, depth int) error {
		if depth > 64 {
			return fmt.Errorf("%s: directories nest too deep (a symlink loop?)", name)
		}
		entries, err := os.ReadDir(real)
		if err != nil {
			return err
		}
		for _, e := range entries {
			n := path.Join(name, e.Name())
			target, err := c.resolve(filepath.Join(real, e.Name()), n)
			if err != nil {
				return err
			}
			fi, err := os.Stat(target)
			if err != nil {
				return err
			}
			if fi.IsDir() {
				if !rules.Ignore(n, fi) {
					if err := walk(target, n, depth+1); err != nil {
						return err
					}
				}
				continue
			}
			if rules.Ignore(n, fi) {
				continue
			}
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("cannot load irregular file %s as it has file mode type bits set", n)
			}
			data, err := budget.ReadFileWithBudget(target, fi.Size())
			if err != nil {
				return fmt.Errorf("error reading %s: %w", n, err)
			}
			c.chart = append(c.chart, &archive.BufferedFile{Name: n, ModTime: fi.ModTime(), Data: bytes.TrimPrefix(data, utf8bom)})
		}
		return nil
	}
	if err := walk(top, "", 0); err != nil {
		return nil, err
	}
	return c, nil
}

// resolve follows a path's symlinks and refuses a target outside the chart.
func (c *loadedChart) resolve(at, name string) (string, error) {
	target, err := filepath.EvalSymlinks(at)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	if !within(c.dir, target) {
		return "", fmt.Errorf("%s leads outside the chart: a chart reads only its own files", name)
	}
	return target, nil
}

// read reads one file of the chart by its chart-relative path (a values file).
func (c *loadedChart) read(name string) ([]byte, error) {
	clean := path.Clean(filepath.ToSlash(name))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return nil, fmt.Errorf("a values file is a path inside the chart")
	}
	target, err := c.resolve(filepath.Join(c.dir, filepath.FromSlash(clean)), clean)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	data, err := archive.NewBudgetedReader(archive.MaxDecompressedChartSize).ReadFileWithBudget(target, fi.Size())
	return bytes.TrimPrefix(data, utf8bom), err
}

func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}
