//go:build sops

package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"filippo.io/age"
	"github.com/getsops/sops/v3"
	sopsage "github.com/getsops/sops/v3/age"
	"github.com/getsops/sops/v3/keyservice"
)

// trackKeys is the key service sops asks for each master key of a document: it answers only from the
// keys of the request. sops's own local service would fall back to the process's keys (SOPS_AGE_KEY,
// ~/.config/sops/age/keys.txt, ~/.ssh, the AWS credentials of the function): a tenant's file must
// never be decrypted with a key its track was not given.
type trackKeys struct {
	keyservice.UnimplementedKeyServiceServer
	age sopsage.ParsedIdentities
	kms *kmsAccess
}

// parseTrackKeys reads the age identities of the key Secret's `.agekey` entries (one identity a line,
// `#` comments and blank lines skipped, as age-keygen writes them). Only native age keys are taken:
// a plugin identity (AGE-PLUGIN-...) would run a program. An error names the entry, never its value.
func parseTrackKeys(keys decryptKeys) (*trackKeys, error) {
	kms, err := parseKmsAccess(keys.Kms)
	if err != nil {
		return nil, err
	}
	out := &trackKeys{kms: kms}
	for _, entry := range keys.Age {
		found := 0
		for _, line := range strings.Split(entry.Value, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			id, err := parseAgeIdentity(line)
			if err != nil {
				return nil, fmt.Errorf("the key Secret's entry %s holds a line that is not an age identity (AGE-SECRET-KEY-1...)", entry.Name)
			}
			out.age = append(out.age, id)
			found++
		}
		if found == 0 {
			return nil, fmt.Errorf("the key Secret's entry %s holds no age identity", entry.Name)
		}
	}
	return out, nil
}

func parseAgeIdentity(line string) (age.Identity, error) {
	switch {
	case strings.HasPrefix(line, "AGE-SECRET-KEY-PQ-1"):
		return age.ParseHybridIdentity(line)
	case strings.HasPrefix(line, "AGE-SECRET-KEY-1"):
		return age.ParseX25519Identity(line)
	}
	return nil, errors.New("not an age identity")
}

// Decrypt decrypts one master key's copy of a document's data key, with the track's keys only.
func (k *trackKeys) Decrypt(ctx context.Context, req *keyservice.DecryptRequest) (*keyservice.DecryptResponse, error) {
	if kmsKey, ok := req.GetKey().GetKeyType().(*keyservice.Key_KmsKey); ok {
		plain, err := k.decryptKms(ctx, kmsKey.KmsKey, req.GetCiphertext())
		if err != nil {
			return nil, err
		}
		return &keyservice.DecryptResponse{Plaintext: plain}, nil
	}
	ageKey, ok := req.GetKey().GetKeyType().(*keyservice.Key_AgeKey)
	if !ok {
		return nil, errors.New("this key type is not supported")
	}
	if len(k.age) == 0 {
		return nil, errors.New("the track has no age identity")
	}
	master := &sopsage.MasterKey{Recipient: ageKey.AgeKey.GetRecipient(), EncryptedKey: string(req.GetCiphertext())}
	k.age.ApplyToMasterKey(master)
	plain, err := master.Decrypt()
	if err != nil {
		return nil, err
	}
	return &keyservice.DecryptResponse{Plaintext: plain}, nil
}

// Encrypt is never asked of a decryptor.
func (k *trackKeys) Encrypt(context.Context, *keyservice.EncryptRequest) (*keyservice.EncryptResponse, error) {
	return nil, errors.New("the decryptor does not encrypt")
}

// explain says why no data key was recovered: which recipients the file was encrypted for (public
// names, so the user can see which key is missing), never what sops answered.
func (k *trackKeys) explain(meta sops.Metadata) error {
	var recipients []string
	for _, group := range meta.KeyGroups {
		for _, master := range group {
			recipients = append(recipients, master.TypeToIdentifier()+" "+master.ToString())
		}
	}
	sort.Strings(recipients)
	if len(recipients) == 0 {
		return errNoMatchingKey
	}
	const most = 5
	if len(recipients) > most {
		recipients = append(recipients[:most], fmt.Sprintf("and %d more", len(recipients)-most))
	}
	return fmt.Errorf("%w (encrypted for %s)", errNoMatchingKey, strings.Join(recipients, ", "))
}
