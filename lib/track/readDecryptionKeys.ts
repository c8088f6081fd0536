import { ConfigError, isKubeApiError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { KmsAccess } from '../settings/kmsAccess';
import type { DecryptionKeys } from '../sops/runDecrypt';
import type { TrackObject } from './trackObject';

/** Flux's entry name for AWS KMS settings (aws_access_key_id, aws_secret_access_key, aws_session_token). */
export const awsKmsEntry = 'sops.aws-kms';

/**
 * The keys of `spec.decryption`, in Flux's entry names: each entry ending in `.agekey` holds age
 * identities, `sops.aws-kms` the track's own AWS credentials for KMS. `client` acts as the track's
 * identity (lib/identity), so a GitTrack reads only a Secret of its own namespace that its service
 * account may read; a ClusterGitTrack names the namespace. Without `sops.aws-kms`, KMS goes with the
 * function's role (`kms`): a GitTrack's restricted to its namespace's encryption context. A Secret
 * that is missing, unreadable or holds no key is a ConfigError naming it (never a value of it).
 * `functionRole: false` (no document names a KMS key) leaves the function's credentials unresolved:
 * outside AWS, resolving them probes for an instance role.
 */
export async function readDecryptionKeys(
  client: KubeClient,
  track: TrackObject,
  kms?: KmsAccess,
  functionRole = true,
): Promise<DecryptionKeys> {
  const entries = await readKeySecret(client, track);
  const age = Object.entries(entries)
    .filter(([name]) => name.endsWith('.agekey'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => ({ name, value: Buffer.from(value, 'base64').toString('utf8') }));
  const endpoint = kms?.endpoint;
  const own = entries[awsKmsEntry];
  if (own !== undefined)
    return {
      age,
      kms: { secret: { name: awsKmsEntry, value: Buffer.from(own, 'base64').toString('utf8') }, endpoint },
    };
  const credentials = functionRole ? await functionCredentials(kms) : undefined;
  if (!credentials) return { age };
  const namespace = track.kind === 'GitTrack' ? track.metadata.namespace : undefined;
  return { age, kms: { function: credentials, namespace, endpoint } };
}

/** The function's own credentials; none when it has none (KMS files then fail as undecryptable). */
async function functionCredentials(kms: KmsAccess | undefined) {
  if (!kms?.functionCredentials) return undefined;
  try {
    return await kms.functionCredentials();
  } catch {
    return undefined;
  }
}

/** The key Secret's entries (base64), or none without a secretRef. */
async function readKeySecret(client: KubeClient, track: TrackObject): Promise<Record<string, string>> {
  const ref = track.spec.decryption?.secretRef;
  if (!ref) return {};
  const namespace = track.kind === 'GitTrack' ? track.metadata.namespace : ref.namespace;
  const where = `Secret ${namespace}/${ref.name} (spec.decryption.secretRef)`;
  if (!namespace) throw new ConfigError(`${where} names no namespace`, { subject: where });
  let secret: { data?: Record<string, string> } | undefined;
  try {
    secret = await client.find(
      resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace, name: ref.name }),
      { subject: where },
    );
  } catch (e) {
    if (!isKubeApiError(e)) throw e;
    throw new ConfigError(`${where} could not be read: ${e.reason ?? e.status}: ${e.message}`, {
      subject: where,
      cause: e,
    });
  }
  if (!secret) throw new ConfigError(`${where} not found`, { subject: where });
  const data = secret.data ?? {};
  if (!Object.keys(data).some((name) => name.endsWith('.agekey') || name === awsKmsEntry))
    throw new ConfigError(`${where} has no entry ending in .agekey and no ${awsKmsEntry}`, {
      subject: where,
    });
  return data;
}
