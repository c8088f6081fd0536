//go:build helm

package main

// spec.helm.valuesFrom: ConfigMap and Secret keys the caller read as the track (lib/helm/readValuesFrom.ts)
// and sent on stdin, merged over the values files and under the inline values, in Flux's order and
// with its targetPath rule (fluxcd/pkg chartutil ChartValuesFromReferences). A Secret's content is
// never part of an error: a message names the source and, at most, a line number.

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/strvals"
)

// valuesSource is one entry of spec.helm.valuesFrom with the content of its key.
type valuesSource struct {
	// Source names it for messages: `Secret shop/db key values.yaml`.
	Source string `json:"source"`
	// Secret: its content never appears in an error.
	Secret bool `json:"secret"`
	// TargetPath: the content is one value set at this path (Helm's --set syntax), not a values document.
	TargetPath string `json:"targetPath,omitempty"`
	Content    string `json:"content"`
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// withValuesFrom merges the sources in order over vals (the chart's values files), then inline last,
// as Flux does: a targetPath source is set over what is merged so far with the inline values.
func withValuesFrom(vals map[string]any, sources []valuesSource, inline map[string]any) (map[string]any, error) {
	if inline == nil {
		inline = map[string]any{}
	}
	for _, s := range sources {
		if s.TargetPath != "" {
			vals = loader.MergeMaps(vals, inline)
			if err := setPathValue(vals, s.TargetPath, s.Content); err != nil {
				return nil, fmt.Errorf("%s: cannot be set at targetPath %s: %s", s.Source, s.TargetPath, s.describe(err))
			}
			continue
		}
		current, err := loader.LoadValues(bytes.NewReader([]byte(s.Content)))
		if err != nil {
			return nil, fmt.Errorf("%s: not a YAML map of values: %s", s.Source, s.describe(err))
		}
		vals = loader.MergeMaps(vals, current)
	}
	return loader.MergeMaps(vals, inline), nil
}

// setPathValue sets one value at a dotted path with Helm's --set parser; a quoted value stays a string.
func setPathValue(vals map[string]any, path, value string) error {
	quoted := len(value) >= 2 && (value[0] == '"' && value[len(value)-1] == '"' ||
		value[0] == '\'' && value[len(value)-1] == '\'')
	if quoted {
		return strvals.ParseIntoString(path+"="+strings.Trim(value, `'"`), vals)
	}
	return strvals.ParseInto(path+"="+value, vals)
}

// describe is the error of a ConfigMap's content as the parser words it; of a Secret's, only where.
func (s valuesSource) describe(err error) string {
	if !s.Secret {
		return err.Error()
	}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return "the Secret's content is refused at line " + m[1] + " (not shown)"
	}
	return "the Secret's content is refused (not shown)"
}
