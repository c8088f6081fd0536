//go:build sops

package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/getsops/sops/v3"
	"github.com/getsops/sops/v3/aes"
	"github.com/getsops/sops/v3/config"
	"github.com/getsops/sops/v3/keyservice"
	"github.com/getsops/sops/v3/logging"
	"github.com/getsops/sops/v3/stores/dotenv"
	"github.com/getsops/sops/v3/stores/ini"
	sopsjson "github.com/getsops/sops/v3/stores/json"
	sopsyaml "github.com/getsops/sops/v3/stores/yaml"
	"github.com/sirupsen/logrus"
)

// The reasons a document fails: fixed texts, so no error can carry a value of the document.
var (
	errNotSops       = errors.New("not a SOPS file (no sops metadata)")
	errUnreadable    = errors.New("not a readable SOPS file")
	errNoMatchingKey = errors.New("no matching key: none of the track's keys decrypts this file's data key")
	errMACMismatch   = errors.New("MAC mismatch: the file was changed after it was encrypted")
	errValue         = errors.New("a value could not be decrypted (the file is corrupt or was tampered with)")
	errPanic         = errors.New("the decryptor failed on this file (malformed input)")
)

// sopsStore is what sops reads and writes one format with.
type sopsStore interface {
	LoadEncryptedFile(in []byte) (sops.Tree, error)
	EmitPlainFile(in sops.TreeBranches) ([]byte, error)
}

func storeFor(format string) (sopsStore, error) {
	switch format {
	case "yaml":
		return sopsyaml.NewStore(&config.YAMLStoreConfig{}), nil
	case "json":
		return sopsjson.NewStore(&config.JSONStoreConfig{}), nil
	case "dotenv":
		return dotenv.NewStore(&config.DotenvStoreConfig{}), nil
	case "ini":
		return ini.NewStore(&config.INIStoreConfig{}), nil
	case "binary":
		return sopsjson.NewBinaryStore(&config.JSONBinaryStoreConfig{}), nil
	}
	return nil, fmt.Errorf("unknown format %q (yaml, json, dotenv, ini or binary)", format)
}

// decryptDocument decrypts one document as `sops --decrypt` does (the data key from the key groups,
// every value, then the MAC checked), with only the track's keys. A panic in sops on hostile input
// is this document's error.
func decryptDocument(doc sopsDocument, keys *trackKeys) (plain []byte, err error) {
	defer func() {
		if recover() != nil {
			plain, err = nil, errPanic
		}
	}()
	store, err := storeFor(doc.Format)
	if err != nil {
		return nil, err
	}
	tree, err := store.LoadEncryptedFile(doc.Data)
	if errors.Is(err, sops.MetadataNotFound) {
		return nil, errNotSops
	}
	if err != nil {
		return nil, errUnreadable
	}
	if err := keys.refuseKms(tree.Metadata); err != nil {
		return nil, err
	}
	clients := []keyservice.KeyServiceClient{keyservice.NewCustomLocalClient(keys)}
	key, err := tree.Metadata.GetDataKeyWithKeyServices(clients, nil)
	if err != nil {
		return nil, keys.explain(tree.Metadata)
	}
	cipher := aes.NewCipher()
	mac, err := tree.Decrypt(key, cipher)
	if err != nil {
		return nil, errValue
	}
	stored, err := cipher.Decrypt(tree.Metadata.MessageAuthenticationCode, key,
		tree.Metadata.LastModified.Format(time.RFC3339))
	if err != nil || stored != mac {
		return nil, errMACMismatch
	}
	out, err := store.EmitPlainFile(tree.Branches)
	if err != nil {
		return nil, errUnreadable
	}
	return out, nil
}

// silenceSopsLogs keeps sops's own logging (which may quote a comment or a value it could not
// decrypt) off stderr, which the caller may show.
func silenceSopsLogs() {
	logging.SetLevel(logrus.PanicLevel)
}
