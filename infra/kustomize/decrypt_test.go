//go:build sops

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/getsops/sops/v3"
	"github.com/getsops/sops/v3/aes"
	sopsage "github.com/getsops/sops/v3/age"
	"github.com/getsops/sops/v3/config"
	"github.com/getsops/sops/v3/stores/dotenv"
	"github.com/getsops/sops/v3/stores/ini"
	sopsjson "github.com/getsops/sops/v3/stores/json"
	sopsyaml "github.com/getsops/sops/v3/stores/yaml"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

const secretValue = "hunter2-plaintext-canary"

type plainStore interface {
	LoadPlainFile(in []byte) (sops.TreeBranches, error)
	EmitEncryptedFile(in sops.Tree) ([]byte, error)
}

func plainStoreFor(t testing.TB, format string) plainStore {
	switch format {
	case "yaml":
		return sopsyaml.NewStore(&config.YAMLStoreConfig{})
	case "json":
		return sopsjson.NewStore(&config.JSONStoreConfig{})
	case "dotenv":
		return dotenv.NewStore(&config.DotenvStoreConfig{})
	case "ini":
		return ini.NewStore(&config.INIStoreConfig{})
	case "binary":
		return sopsjson.NewBinaryStore(&config.JSONBinaryStoreConfig{})
	}
	t.Fatalf("format %s", format)
	return nil
}

// encrypt encrypts plain for recipient as `sops --encrypt --age RECIPIENT` does (sops's own library).
func encrypt(t testing.TB, format, plain, recipient string) []byte {
	t.Helper()
	store := plainStoreFor(t, format)
	branches, err := store.LoadPlainFile([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	master, err := sopsage.MasterKeyFromRecipient(recipient)
	if err != nil {
		t.Fatal(err)
	}
	tree := sops.Tree{Branches: branches, Metadata: sops.Metadata{
		KeyGroups: []sops.KeyGroup{{master}}, UnencryptedSuffix: "_unencrypted", Version: "3.13.3"}}
	dataKey, errs := tree.GenerateDataKey()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
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
	if strings.Contains(string(out), secretValue) {
		t.Fatalf("the encrypted file holds the plaintext:\n%s", out)
	}
	return out
}

func newIdentity(t testing.TB) *age.X25519Identity {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func keysOf(ids ...*age.X25519Identity) decryptKeys {
	var keys decryptKeys
	for i, id := range ids {
		value := "# created: 2026-01-01\n# public key: " + id.Recipient().String() + "\n" + id.String() + "\n"
		keys.Age = append(keys.Age, namedKey{Name: []string{"a.agekey", "b.agekey"}[i], Value: value})
	}
	return keys
}

func decryptOne(t *testing.T, keys decryptKeys, doc sopsDocument) decryptedDocument {
	t.Helper()
	out, err := decryptAll(decryptRequest{Keys: keys, Documents: []sopsDocument{doc}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Path != doc.Path {
		t.Fatalf("one answer for %s expected, got %+v", doc.Path, out)
	}
	if strings.Contains(out[0].Error, secretValue) {
		t.Fatalf("the error echoes the plaintext: %s", out[0].Error)
	}
	return out[0]
}

func TestDecryptsEveryFormatWithTheTracksAgeKey(t *testing.T) {
	id := newIdentity(t)
	plains := map[string]string{
		"yaml":   "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: " + secretValue + "\n",
		"json":   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"token":"` + secretValue + `"}}`,
		"dotenv": "PASSWORD=" + secretValue + "\nUSER=app\n",
		"ini":    "[db]\npassword = " + secretValue + "\n",
		"binary": "\x00\x01" + secretValue + "\xff",
	}
	for format, plain := range plains {
		t.Run(format, func(t *testing.T) {
			other := newIdentity(t)
			data := encrypt(t, format, plain, id.Recipient().String())
			got := decryptOne(t, keysOf(other, id), sopsDocument{Path: "f." + format, Format: format, Data: data})
			if got.Error != "" {
				t.Fatalf("decrypting: %s", got.Error)
			}
			if !strings.Contains(string(got.Data), secretValue) {
				t.Fatalf("the plaintext is not in the output:\n%q", got.Data)
			}
			if format == "binary" && string(got.Data) != plain {
				t.Fatalf("binary changed: %q", got.Data)
			}
		})
	}
}

func TestAWrongKeyNamesTheRecipientsAndNoValue(t *testing.T) {
	id := newIdentity(t)
	data := encrypt(t, "yaml", "password: "+secretValue+"\n", id.Recipient().String())
	got := decryptOne(t, keysOf(newIdentity(t)), sopsDocument{Path: "s.yaml", Format: "yaml", Data: data})
	if !strings.HasPrefix(got.Error, "no matching key") || !strings.Contains(got.Error, id.Recipient().String()) {
		t.Fatalf("error %q", got.Error)
	}
}

func TestNeverFallsBackToTheProcessKeys(t *testing.T) {
	id := newIdentity(t)
	t.Setenv("SOPS_AGE_KEY", id.String())
	t.Setenv("HOME", t.TempDir())
	data := encrypt(t, "yaml", "password: "+secretValue+"\n", id.Recipient().String())
	got := decryptOne(t, decryptKeys{}, sopsDocument{Path: "s.yaml", Format: "yaml", Data: data})
	if !strings.HasPrefix(got.Error, "no matching key") {
		t.Fatalf("decrypted with the environment's key: %+v", got)
	}
}

func TestATamperedFileFailsItsMAC(t *testing.T) {
	id := newIdentity(t)
	data := encrypt(t, "yaml", "password: "+secretValue+"\nuser_unencrypted: app\n", id.Recipient().String())
	tampered := strings.Replace(string(data), "user_unencrypted: app", "user_unencrypted: root", 1)
	got := decryptOne(t, keysOf(id), sopsDocument{Path: "s.yaml", Format: "yaml", Data: []byte(tampered)})
	if got.Error != errMACMismatch.Error() {
		t.Fatalf("error %q", got.Error)
	}
}

func TestAFileWithoutSopsMetadataIsNotASopsFile(t *testing.T) {
	got := decryptOne(t, keysOf(newIdentity(t)), sopsDocument{Path: "p.yaml", Format: "yaml", Data: []byte("a: " + secretValue + "\n")})
	if got.Error != errNotSops.Error() {
		t.Fatalf("error %q", got.Error)
	}
	got = decryptOne(t, keysOf(newIdentity(t)), sopsDocument{Path: "p.yaml", Format: "yaml", Data: []byte("a: [" + secretValue + "\n")})
	if got.Error != errUnreadable.Error() {
		t.Fatalf("error %q", got.Error)
	}
}

func TestOneBadDocumentFailsAlone(t *testing.T) {
	id := newIdentity(t)
	good := encrypt(t, "yaml", "password: "+secretValue+"\n", id.Recipient().String())
	out, err := decryptAll(decryptRequest{Keys: keysOf(id), Documents: []sopsDocument{
		{Path: "bad", Format: "yaml", Data: []byte("sops: 3\n")},
		{Path: "good", Format: "yaml", Data: good},
	}})
	if err != nil || len(out) != 2 || out[0].Error == "" || out[1].Error != "" {
		t.Fatalf("%v %+v", err, out)
	}
}

func TestAKeyEntryThatIsNotAnAgeIdentityIsNamedNotShown(t *testing.T) {
	for _, value := range []string{"AGE-PLUGIN-YUBIKEY-1QQQ" + secretValue, "AGE-SECRET-KEY-1" + secretValue, "# only a comment\n"} {
		_, err := decryptAll(decryptRequest{Keys: decryptKeys{Age: []namedKey{{Name: "bad.agekey", Value: value}}}})
		if err == nil || !strings.Contains(err.Error(), "bad.agekey") || strings.Contains(err.Error(), secretValue) {
			t.Fatalf("error %v", err)
		}
	}
}

func FuzzDecryptDocument(f *testing.F) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		f.Fatal(err)
	}
	keys, err := parseTrackKeys(keysOf(id))
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("sops:\n  mac: x\n  age:\n    - recipient: a\n      enc: b\n"), "yaml")
	f.Add([]byte(`{"sops":{"version":"3","age":[{"recipient":"x","enc":"-----BEGIN AGE ENCRYPTED FILE-----\n"}]}}`), "json")
	f.Add([]byte("sops_version=3\nsops_mac=ENC[AES256_GCM,data:x]\n"), "dotenv")
	f.Add([]byte(`{"data":"ENC[AES256_GCM,data:,iv:,tag:,type:str]","sops":{"shamir_threshold":9,"key_groups":[]}}`), "binary")
	f.Fuzz(func(t *testing.T, data []byte, format string) {
		plain, err := decryptDocument(sopsDocument{Path: "f", Format: format, Data: data}, keys)
		if err == nil && plain == nil {
			t.Fatal("no plaintext and no error")
		}
	})
}

func TestDecryptsAnEncryptedValuesFileOnly(t *testing.T) {
	id := newIdentity(t)
	plain := "ui:\n  message: " + secretValue + "\n"
	encrypted := encrypt(t, "yaml", plain, id.Recipient().String())
	keys := keysOf(id)
	got, err := decryptValues("values-secret.yaml", encrypted, &keys)
	if err != nil || !strings.Contains(string(got), secretValue) {
		t.Fatalf("%v %q", err, got)
	}
	if got, err := decryptValues("values.yaml", []byte(plain), nil); err != nil || string(got) != plain {
		t.Fatalf("a plain values file changed: %v %q", err, got)
	}
	_, err = decryptValues("values-secret.yaml", encrypted, nil)
	if err == nil || !strings.Contains(err.Error(), "no spec.decryption") {
		t.Fatalf("error %v", err)
	}
	other := keysOf(newIdentity(t))
	_, err = decryptValues("values-secret.yaml", encrypted, &other)
	if err == nil || !strings.Contains(err.Error(), "values file values-secret.yaml: cannot decrypt: no matching key") {
		t.Fatalf("error %v", err)
	}
}

func TestTheRenderFileSystemDecryptsSopsFilesAsTheyAreRead(t *testing.T) {
	id := newIdentity(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"secret.env":  encrypt(t, "dotenv", "TOKEN="+secretValue+"\n", id.Recipient().String()),
		"plain.yaml":  []byte("a: b\n"),
		"foreign.env": encrypt(t, "dotenv", "TOKEN="+secretValue+"\n", newIdentity(t).Recipient().String()),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	keys, _ := json.Marshal(keysOf(id))
	fs, err := decryptingFs(&confinedFs{FileSystem: filesys.MakeFsOnDisk(), allowed: []string{dir}, top: dir}, bytes.NewReader(keys))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := fs.ReadFile(filepath.Join(dir, "plain.yaml")); err != nil || string(got) != "a: b\n" || anyDecrypted(fs) {
		t.Fatalf("plain file: %v %q", err, got)
	}
	if got, err := fs.ReadFile(filepath.Join(dir, "secret.env")); err != nil || string(got) != "TOKEN="+secretValue+"\n" || !anyDecrypted(fs) {
		t.Fatalf("encrypted file: %v %q", err, got)
	}
	_, err = fs.ReadFile(filepath.Join(dir, "foreign.env"))
	if err == nil || !strings.HasPrefix(err.Error(), "foreign.env: cannot decrypt: no matching key") {
		t.Fatalf("error %v", err)
	}
	if got := renderError(fs, errors.New("kustomize: "+secretValue)).Error(); !strings.HasPrefix(got, "foreign.env: cannot decrypt") {
		t.Fatalf("render error %q", got)
	}
}
