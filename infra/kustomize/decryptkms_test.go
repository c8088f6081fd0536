//go:build sops

package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getsops/sops/v3"
	"github.com/getsops/sops/v3/aes"
	sopskms "github.com/getsops/sops/v3/kms"
)

const kmsKeyArn = "arn:aws:kms:us-east-1:123456789012:key/0c4a1b2e-0000-4000-8000-000000000001"

// fakeKms answers KMS's Decrypt as KMS does for a key whose "encryption" is the identity: the
// ciphertext back, but only under the encryption context it was made with (KMS binds the context
// into the ciphertext), else InvalidCiphertextException. It counts every request. The integration
// tests (test/integration/sops/kms*.test.ts) run the same against moto's KMS.
func fakeKms(t *testing.T, context map[string]string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var in struct {
			CiphertextBlob    []byte
			EncryptionContext map[string]string
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		if len(in.EncryptionContext) != len(context) || in.EncryptionContext[namespaceContext] != context[namespaceContext] {
			w.WriteHeader(400)
			w.Write([]byte(`{"__type":"InvalidCiphertextException"}`))
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"KeyId": kmsKeyArn, "Plaintext": in.CiphertextBlob})
	}))
	t.Cleanup(server.Close)
	return server, &calls
}

// kmsEncrypted is a SOPS YAML document whose one master key is a KMS key with the given context
// (and role, when set), its data key "encrypted" as fakeKms decrypts it.
func kmsEncrypted(t *testing.T, context map[string]string, role string) []byte {
	t.Helper()
	store := plainStoreFor(t, "yaml")
	branches, err := store.LoadPlainFile([]byte("password: " + secretValue + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := map[string]*string{}
	for k, v := range context {
		ctx[k] = &v
	}
	master := sopskms.NewMasterKey(kmsKeyArn, role, ctx)
	tree := sops.Tree{Branches: branches, Metadata: sops.Metadata{
		KeyGroups: []sops.KeyGroup{{master}}, UnencryptedSuffix: "_unencrypted", Version: "3.13.3"}}
	dataKey := make([]byte, 32)
	rand.Read(dataKey)
	master.EncryptedKey = base64.StdEncoding.EncodeToString(dataKey)
	cipher := aes.NewCipher()
	mac, err := tree.Encrypt(dataKey, cipher)
	if err != nil {
		t.Fatal(err)
	}
	tree.Metadata.LastModified = time.Now().UTC()
	tree.Metadata.MessageAuthenticationCode, err = cipher.Encrypt(mac, dataKey, tree.Metadata.LastModified.Format(time.RFC3339))
	if err != nil {
		t.Fatal(err)
	}
	out, err := store.EmitEncryptedFile(tree)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func functionRole(endpoint, namespace string) decryptKeys {
	return decryptKeys{Kms: &kmsKeys{Endpoint: endpoint, Namespace: namespace,
		Function: &awsCredentials{AccessKeyID: "function", SecretAccessKey: "function-secret"}}}
}

func TestAGitTracksFunctionRoleNeedsItsNamespaceContextBeforeAnyKmsCall(t *testing.T) {
	for _, c := range []struct {
		name, want string
		context    map[string]string
	}{
		{"no context (the platform's)", "has no encryption context lightkeeper.dev/namespace", nil},
		{"another namespace's", `"team-b", not this track's namespace "team-a"`, map[string]string{namespaceContext: "team-b"}},
	} {
		server, calls := fakeKms(t, c.context)
		got := decryptOne(t, functionRole(server.URL, "team-a"),
			sopsDocument{Path: "s.yaml", Format: "yaml", Data: kmsEncrypted(t, c.context, "")})
		if !strings.Contains(got.Error, c.want) || got.Data != nil {
			t.Errorf("%s: %q, want %q", c.name, got.Error, c.want)
		}
		if calls.Load() != 0 {
			t.Errorf("%s: KMS was called %d times", c.name, calls.Load())
		}
	}
}

func TestAGitTracksFunctionRoleDecryptsUnderItsNamespaceContext(t *testing.T) {
	context := map[string]string{namespaceContext: "team-a"}
	server, calls := fakeKms(t, context)
	got := decryptOne(t, functionRole(server.URL, "team-a"),
		sopsDocument{Path: "s.yaml", Format: "yaml", Data: kmsEncrypted(t, context, "")})
	if got.Error != "" || !strings.Contains(string(got.Data), secretValue) || calls.Load() != 1 {
		t.Fatalf("error %q, %d calls", got.Error, calls.Load())
	}
}

func TestAClusterTrackUsesTheFunctionRoleForAnyKey(t *testing.T) {
	server, _ := fakeKms(t, nil)
	got := decryptOne(t, functionRole(server.URL, ""),
		sopsDocument{Path: "s.yaml", Format: "yaml", Data: kmsEncrypted(t, nil, "")})
	if got.Error != "" || !strings.Contains(string(got.Data), secretValue) {
		t.Fatalf("error %q", got.Error)
	}
}

func TestTheFunctionRoleNeverAssumesARoleAFileNames(t *testing.T) {
	server, calls := fakeKms(t, nil)
	got := decryptOne(t, functionRole(server.URL, ""),
		sopsDocument{Path: "s.yaml", Format: "yaml", Data: kmsEncrypted(t, nil, "arn:aws:iam::123456789012:role/platform")})
	if !strings.Contains(got.Error, "asks to assume role") || calls.Load() != 0 {
		t.Fatalf("error %q, %d calls", got.Error, calls.Load())
	}
}

func TestTheTracksOwnCredentialsNeedNoContext(t *testing.T) {
	server, calls := fakeKms(t, nil)
	keys := decryptKeys{Kms: &kmsKeys{Endpoint: server.URL, Namespace: "team-a",
		Secret: &namedKey{Name: "sops.aws-kms", Value: "aws_access_key_id: tenant\naws_secret_access_key: tenant-secret\n"}}}
	got := decryptOne(t, keys, sopsDocument{Path: "s.yaml", Format: "yaml", Data: kmsEncrypted(t, nil, "")})
	if got.Error != "" || !strings.Contains(string(got.Data), secretValue) || calls.Load() != 1 {
		t.Fatalf("error %q, %d calls", got.Error, calls.Load())
	}
}

func TestAnAwsKmsEntryThatIsNotFluxsSettingsIsNamedNotShown(t *testing.T) {
	_, err := parseTrackKeys(decryptKeys{Kms: &kmsKeys{Secret: &namedKey{Name: "sops.aws-kms", Value: "not-" + secretValue}}})
	if err == nil || !strings.Contains(err.Error(), "sops.aws-kms") || strings.Contains(err.Error(), secretValue) {
		t.Fatalf("%v", err)
	}
}

func TestKmsWithoutCredentialsIsNoMatchingKey(t *testing.T) {
	got := decryptOne(t, decryptKeys{}, sopsDocument{Path: "s.yaml", Format: "yaml", Data: kmsEncrypted(t, nil, "")})
	if !strings.Contains(got.Error, "no matching key") || !strings.Contains(got.Error, kmsKeyArn) {
		t.Fatalf("%q", got.Error)
	}
}
