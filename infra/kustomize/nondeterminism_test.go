package main

import (
	"reflect"
	"testing"
)

func TestVaryingObjectsNamesFieldsNotValues(t *testing.T) {
	first := []rendered{
		{Origin: origin{Path: "c/templates/cm.yaml"}, YAML: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: same\ndata:\n  a: x\n"},
		{Origin: origin{Path: "c/templates/secret.yaml"}, YAML: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n  annotations:\n    at/time: t1\nstringData:\n  password: abc\n  user: u\nlist: [1, 2]\n"},
	}
	second := []rendered{
		first[0],
		{Origin: origin{Path: "c/templates/secret.yaml"}, YAML: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n  annotations:\n    at/time: t2\nstringData:\n  password: xyz\n  user: u\nlist: [1, 2, 3]\n"},
	}
	got := varyingObjects(first, second)
	want := []varyingObject{{
		Path: "c/templates/secret.yaml", APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db",
		Fields: []string{"/list", "/metadata/annotations/at~1time", "/stringData/password"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if same := varyingObjects(first, first); len(same) != 0 {
		t.Fatalf("the same render varies: %+v", same)
	}
}

func TestVaryingObjectsAnotherSetOfObjects(t *testing.T) {
	a := rendered{Origin: origin{Path: "c/templates/a.yaml"}, YAML: "kind: A\n"}
	b := rendered{Origin: origin{Path: "c/templates/b.yaml"}, YAML: "kind: B\n"}
	got := varyingObjects([]rendered{a, b}, []rendered{a, b, b})
	if len(got) != 1 || got[0].Path != "c/templates/b.yaml" || len(got[0].Fields) != 0 {
		t.Fatalf("got %+v", got)
	}
}
