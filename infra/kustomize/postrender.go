package main

// spec.helm.postRender: a kustomization applied over a chart's rendered output, as Flux's
// `postRenderers[].kustomize` do, by the kustomize API this engine links, in memory: the rendered
// objects are one resource file and the kustomization is generated from the spec (inline patches,
// labels, commonLabels, commonAnnotations, images), so nothing is read from disk or the network
// and no plugin runs. It is Helm's own post-renderer (Install.PostRenderer), so Helm keeps each
// object's template path across it.

import (
	"bytes"
	"fmt"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// postRenderSpec is spec.helm.postRender as the caller sends it (no patch from a file: inline only).
type postRenderSpec struct {
	Patches           []postRenderPatch `json:"patches,omitempty"`
	Labels            []types.Label     `json:"labels,omitempty"`
	CommonLabels      map[string]string `json:"commonLabels,omitempty"`
	CommonAnnotations map[string]string `json:"commonAnnotations,omitempty"`
	Images            []types.Image     `json:"images,omitempty"`
}

type postRenderPatch struct {
	Patch   string           `json:"patch"`
	Target  *types.Selector  `json:"target,omitempty"`
	Options *types.PatchArgs `json:"options,omitempty"`
}

// kustomizePostRenderer implements helm.sh/helm/v4/pkg/postrenderer.PostRenderer.
type kustomizePostRenderer struct {
	spec postRenderSpec
}

const (
	postRenderDir       = "/post-render"
	postRenderResources = "rendered.yaml"
)

// kustomization is the kustomization the spec stands for, over the one resource file.
func (p kustomizePostRenderer) kustomization() types.Kustomization {
	k := types.Kustomization{
		TypeMeta:          types.TypeMeta{APIVersion: types.KustomizationVersion, Kind: types.KustomizationKind},
		Resources:         []string{postRenderResources},
		Labels:            p.spec.Labels,
		CommonLabels:      p.spec.CommonLabels,
		CommonAnnotations: p.spec.CommonAnnotations,
		Images:            p.spec.Images,
	}
	for _, patch := range p.spec.Patches {
		k.Patches = append(k.Patches, types.Patch{Patch: patch.Patch, Target: patch.Target, Options: patch.Options})
	}
	return k
}

// Run builds the kustomization over the rendered manifests in an in-memory file system.
func (p kustomizePostRenderer) Run(rendered *bytes.Buffer) (*bytes.Buffer, error) {
	fs := filesys.MakeFsInMemory()
	text, err := kyaml.Marshal(p.kustomization())
	if err != nil {
		return nil, err
	}
	if err := fs.MkdirAll(postRenderDir); err != nil {
		return nil, err
	}
	if err := fs.WriteFile(postRenderDir+"/"+konfig.DefaultKustomizationFileName(), text); err != nil {
		return nil, err
	}
	if err := fs.WriteFile(postRenderDir+"/"+postRenderResources, rendered.Bytes()); err != nil {
		return nil, err
	}
	options := krusty.MakeDefaultOptions()
	options.LoadRestrictions = types.LoadRestrictionsRootOnly
	options.PluginConfig = types.DisabledPluginConfig()
	// Helm sorts the result into its install order afterwards.
	options.Reorder = krusty.ReorderOptionNone
	m, err := krusty.MakeKustomizer(options).Run(fs, postRenderDir)
	if err != nil {
		return nil, fmt.Errorf("spec.helm.postRender: %w", err)
	}
	out, err := m.AsYaml()
	if err != nil {
		return nil, err
	}
	return bytes.NewBuffer(out), nil
}
