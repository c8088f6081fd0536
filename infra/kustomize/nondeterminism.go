package main

// A chart rendered twice from the same request should print the same objects; where it does not
// (randAlphaNum, now, genCA), every render would change the cluster. varyingObjects compares two
// renders object by object (Helm's install order is stable) and names each differing field by its
// JSON pointer (RFC 6901): the values themselves are never reported.

import (
	"reflect"
	"sort"
	"strconv"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// varyingObject is an object (as the first render named it) whose fields differ between renders.
// An empty Fields means the template rendered a different set of objects the second time.
type varyingObject struct {
	Path       string   `json:"path"`
	APIVersion string   `json:"apiVersion,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Namespace  string   `json:"namespace,omitempty"`
	Name       string   `json:"name,omitempty"`
	Fields     []string `json:"fields"`
}

const maxVaryingFields = 32

func varyingObjects(first, second []rendered) []varyingObject {
	out := []varyingObject{}
	if len(first) != len(second) {
		return append(out, varyingObject{Path: differingTemplate(first, second), Fields: []string{}})
	}
	for i := range first {
		a, b := first[i], second[i]
		if a.YAML == b.YAML && a.Origin.Path == b.Origin.Path {
			continue
		}
		var x, y any
		if a.Origin.Path != b.Origin.Path || kyaml.Unmarshal([]byte(a.YAML), &x) != nil ||
			kyaml.Unmarshal([]byte(b.YAML), &y) != nil {
			out = append(out, varyingObject{Path: a.Origin.Path, Fields: []string{}})
			continue
		}
		fields := []string{}
		differingPointers(x, y, "", &fields)
		if len(fields) == 0 {
			continue
		}
		sort.Strings(fields)
		if len(fields) > maxVaryingFields {
			fields = fields[:maxVaryingFields]
		}
		v := varyingObject{Path: a.Origin.Path, Fields: fields}
		if object, ok := x.(map[string]any); ok {
			v.APIVersion, _ = object["apiVersion"].(string)
			v.Kind, _ = object["kind"].(string)
			if meta, ok := object["metadata"].(map[string]any); ok {
				v.Namespace, _ = meta["namespace"].(string)
				v.Name, _ = meta["name"].(string)
			}
		}
		out = append(out, v)
	}
	return out
}

// differingTemplate is the first template whose objects are not the same in number and order.
func differingTemplate(first, second []rendered) string {
	for i := range first {
		if i >= len(second) || first[i].Origin.Path != second[i].Origin.Path {
			return first[i].Origin.Path
		}
	}
	if len(second) > len(first) {
		return second[len(first)].Origin.Path
	}
	return ""
}

// differingPointers appends the pointer of every leaf (or container whose shape differs) where a and b differ.
func differingPointers(a, b any, at string, out *[]string) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, at)
			return
		}
		for k, v := range x {
			w, present := y[k]
			if !present {
				*out = append(*out, at+"/"+escapePointer(k))
				continue
			}
			differingPointers(v, w, at+"/"+escapePointer(k), out)
		}
		for k := range y {
			if _, present := x[k]; !present {
				*out = append(*out, at+"/"+escapePointer(k))
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			*out = append(*out, at)
			return
		}
		for i := range x {
			differingPointers(x[i], y[i], at+"/"+strconv.Itoa(i), out)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, at)
		}
	}
}

func escapePointer(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}
