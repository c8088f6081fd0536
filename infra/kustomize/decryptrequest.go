package main

import "bytes"

// decryptKeys are a track's keys, as its key Secret holds them (lib/track/readDecryptionKeys.ts): in
// the decrypt request, and in a Helm render's request when the track has spec.decryption.
type decryptKeys struct {
	Age []namedKey `json:"age"`
	Kms *kmsKeys   `json:"kms,omitempty"`
}

// kmsKeys is how the track may call AWS KMS: the key Secret's `sops.aws-kms` entry (the tenant's own
// credentials, Flux's YAML), else the function's role (its credentials, resolved by the caller from
// the function's own AWS SDK chain) restricted to files whose KMS keys name `namespace` in their
// encryption context when it is set (a GitTrack). `endpoint`: AWS_ENDPOINT_URL_KMS of the deployment.
type kmsKeys struct {
	Secret    *namedKey       `json:"secret,omitempty"`
	Function  *awsCredentials `json:"function,omitempty"`
	Namespace string          `json:"namespace,omitempty"`
	Endpoint  string          `json:"endpoint,omitempty"`
}

type awsCredentials struct {
	AccessKeyID     string `json:"accessKeyId"`
	SecretAccessKey string `json:"secretAccessKey"`
	SessionToken    string `json:"sessionToken,omitempty"`
}

// namedKey is one entry of the track's key Secret: its name (never its value) is what an error names.
type namedKey struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// looksLikeSops says whether a file is a SOPS document: an encrypted value and sops metadata.
func looksLikeSops(data []byte) bool {
	return bytes.Contains(data, []byte("ENC[AES256_GCM,")) && bytes.Contains(data, []byte("sops"))
}
