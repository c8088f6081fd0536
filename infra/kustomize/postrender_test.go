package main

import (
	"bytes"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
)

const renderedDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    postrenderer.helm.sh/postrender-filename: c/templates/deployment.yaml
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.0
`

func TestPostRenderAppliesTheKustomizationInMemory(t *testing.T) {
	p := kustomizePostRenderer{spec: postRenderSpec{
		Labels: []types.Label{{Pairs: map[string]string{"team": "a"}}},
		Patches: []postRenderPatch{{
			Patch:  "- op: add\n  path: /spec/replicas\n  value: 3\n",
			Target: &types.Selector{ResId: resid.ResId{Gvk: resid.Gvk{Kind: "Deployment"}, Name: "web"}},
		}},
		Images: []types.Image{{Name: "nginx", NewTag: "2.0"}},
	}}
	out, err := p.Run(bytes.NewBufferString(renderedDeployment))
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"team: a", "replicas: 3", "image: nginx:2.0",
		"postrenderer.helm.sh/postrender-filename: c/templates/deployment.yaml"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q missing from\n%s", want, text)
		}
	}
	// labels (not commonLabels) leave selectors alone.
	if strings.Contains(text, "matchLabels:\n      app: web\n      team: a") {
		t.Errorf("a label reached the selector:\n%s", text)
	}
}

func TestPostRenderReadsNoFile(t *testing.T) {
	p := kustomizePostRenderer{spec: postRenderSpec{Patches: []postRenderPatch{{Patch: "/etc/passwd"}}}}
	if _, err := p.Run(bytes.NewBufferString(renderedDeployment)); err == nil {
		t.Fatal("a patch naming a file was read")
	}
}
