/** AWS credentials as the SDK resolves them: an access key, its secret, and a session's token. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

/**
 * How the decryptor may reach AWS KMS with the function's own role, read once by the loaders
 * (lib/config/kmsSettings.ts). The function's role is the reconciler's power: a ClusterGitTrack may
 * use it for any key, a GitTrack only for files whose every KMS key carries the encryption context
 * `lightkeeper.dev/namespace: <its namespace>` (infra/kustomize/decryptkms.go).
 */
export interface KmsAccess {
  /** `AWS_ENDPOINT_URL_KMS` (else `AWS_ENDPOINT_URL`): where KMS answers; unset: AWS's regional endpoint. */
  endpoint?: string | undefined;
  /** The function's own credentials (its role: the AWS SDK's default chain); unset: no function role. */
  functionCredentials?: (() => Promise<AwsCredentials>) | undefined;
}
