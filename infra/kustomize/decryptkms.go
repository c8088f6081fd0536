//go:build sops

package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awskms "github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/getsops/sops/v3"
	"github.com/getsops/sops/v3/keyservice"
	sopskms "github.com/getsops/sops/v3/kms"
	"sigs.k8s.io/yaml"
)

// namespaceContext is the encryption context key that names the namespace a KMS-encrypted file is
// for. KMS binds the context into the ciphertext (it is additional authenticated data), so a file's
// context cannot be changed without KMS refusing it.
const namespaceContext = "lightkeeper.dev/namespace"

// kmsAccess is how a track may call AWS KMS: with its own credentials (the key Secret's
// `sops.aws-kms` entry) or with the function's role. The function's role is the reconciler's
// power: a GitTrack may use it only for files whose every KMS key carries the encryption context
// naming its namespace (refuseKms), so a tenant never gets the platform's ciphertext decrypted by
// copying it into its repository.
type kmsAccess struct {
	credentials  aws.CredentialsProvider
	fromFunction bool
	// namespace: when set, the function's role is used only under this namespace's context.
	namespace string
	endpoint  string
}

var (
	// arn:aws[-partition]:kms:REGION:ACCOUNT:key/ID or alias/NAME; the region becomes part of the
	// host the request goes to, so it is held to what a region looks like.
	kmsArn    = regexp.MustCompile(`^arn:aws[a-z-]*:kms:([a-z0-9-]{1,32}):[0-9]{12}:(key|alias)/[A-Za-z0-9/_+=.@-]{1,256}$`)
	errNoKms  = errors.New("the track has no KMS credentials")
	kmsClient = &http.Client{
		Timeout: 30 * time.Second,
		// Its own transport: the engine's default transport refuses the network (refuseRemote).
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			TLSHandshakeTimeout: 10 * time.Second,
			MaxIdleConns:        4,
		},
	}
)

// parseKmsAccess reads the request's KMS settings: the tenant's own credentials (Flux's
// `sops.aws-kms` entry: aws_access_key_id, aws_secret_access_key, aws_session_token) take
// precedence over the function's role. An error names the entry, never its value.
func parseKmsAccess(keys *kmsKeys) (*kmsAccess, error) {
	if keys == nil {
		return nil, nil
	}
	access := &kmsAccess{endpoint: keys.Endpoint}
	switch {
	case keys.Secret != nil:
		var entry struct {
			AccessKeyID     string `json:"aws_access_key_id"`
			SecretAccessKey string `json:"aws_secret_access_key"`
			SessionToken    string `json:"aws_session_token"`
		}
		if err := yaml.Unmarshal([]byte(keys.Secret.Value), &entry); err != nil || entry.AccessKeyID == "" || entry.SecretAccessKey == "" {
			return nil, fmt.Errorf("the key Secret's entry %s is not Flux's AWS KMS settings (aws_access_key_id, aws_secret_access_key, aws_session_token)", keys.Secret.Name)
		}
		access.credentials = staticCredentials(entry.AccessKeyID, entry.SecretAccessKey, entry.SessionToken)
	case keys.Function != nil:
		if keys.Function.AccessKeyID == "" || keys.Function.SecretAccessKey == "" {
			return nil, nil
		}
		access.credentials = staticCredentials(keys.Function.AccessKeyID, keys.Function.SecretAccessKey, keys.Function.SessionToken)
		access.fromFunction = true
		access.namespace = keys.Namespace
	default:
		return nil, nil
	}
	return access, nil
}

func staticCredentials(id, secret, token string) aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(id, secret, token)
}

// refuseKms is checked on a file's metadata before any KMS call: with the function's role, a
// GitTrack's file must name the track's namespace in the encryption context of every KMS key, and
// no key may ask to assume a role (the function's role would be the one assuming it).
func (k *trackKeys) refuseKms(meta sops.Metadata) error {
	if k.kms == nil || !k.kms.fromFunction {
		return nil
	}
	for _, group := range meta.KeyGroups {
		for _, master := range group {
			key, ok := master.(*sopskms.MasterKey)
			if !ok {
				continue
			}
			context := map[string]string{}
			for name, value := range key.EncryptionContext {
				if value != nil {
					context[name] = *value
				}
			}
			if err := k.kms.allows(key.Arn, key.Role, context); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *kmsAccess) allows(arn, role string, context map[string]string) error {
	if !a.fromFunction {
		return nil
	}
	// The file's own words, said back in the track's status: bounded.
	arn, role = bounded(arn, 256), bounded(role, 256)
	if role != "" {
		return fmt.Errorf("KMS key %s asks to assume role %s: refused with the function's role", arn, role)
	}
	if a.namespace == "" {
		return nil
	}
	named, ok := context[namespaceContext]
	if !ok {
		return fmt.Errorf("KMS key %s has no encryption context %s: a GitTrack may use the function's role only for files encrypted with %s: %s (or give its own credentials in sops.aws-kms)", arn, namespaceContext, namespaceContext, a.namespace)
	}
	if named != a.namespace {
		named = bounded(named, 63)
		return fmt.Errorf("KMS key %s is encrypted with %s: %q, not this track's namespace %q: refused with the function's role", arn, namespaceContext, named, a.namespace)
	}
	return nil
}

// decryptKms asks KMS for one master key's copy of the data key, with the track's credentials,
// the file's encryption context and nothing of the process's environment or files.
func (k *trackKeys) decryptKms(ctx context.Context, key *keyservice.KmsKey, ciphertext []byte) ([]byte, error) {
	if k.kms == nil {
		return nil, errNoKms
	}
	if key.GetRole() != "" && !k.kms.fromFunction {
		return nil, fmt.Errorf("KMS key %s: a role (arn+role) is not supported", key.GetArn())
	}
	if err := k.kms.allows(key.GetArn(), key.GetRole(), key.GetContext()); err != nil {
		return nil, err
	}
	match := kmsArn.FindStringSubmatch(key.GetArn())
	if match == nil {
		return nil, errors.New("not a KMS key ARN")
	}
	blob, err := base64.StdEncoding.DecodeString(string(ciphertext))
	if err != nil {
		return nil, err
	}
	options := awskms.Options{Region: match[1], Credentials: k.kms.credentials, HTTPClient: kmsClient}
	if k.kms.endpoint != "" {
		options.BaseEndpoint = aws.String(k.kms.endpoint)
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	arn := key.GetArn()
	out, err := awskms.New(options).Decrypt(ctx, &awskms.DecryptInput{
		KeyId:             &arn,
		CiphertextBlob:    blob,
		EncryptionContext: key.GetContext(),
	})
	if err != nil {
		return nil, err
	}
	return out.Plaintext, nil
}

func bounded(text string, most int) string {
	if len(text) > most {
		return text[:most] + "..."
	}
	return text
}
