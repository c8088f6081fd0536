import { ConfigError, isKubeApiError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import type { DecryptionKeys } from '../sops/runDecrypt';
import type { TrackObject } from './trackObject';

/**
 * The keys of `spec.decryption.secretRef`, in Flux's entry names: each entry ending in `.agekey`
 * holds age identities. `client` acts as the track's identity (lib/identity), so a GitTrack reads
 * only a Secret of its own namespace that its service account may read; a ClusterGitTrack names the
 * namespace. No secretRef: no keys. A Secret that is missing, unreadable or holds no key is a
 * ConfigError naming it (never a value of it).
 */
export async function readDecryptionKeys(client: KubeClient, track: TrackObject): Promise<DecryptionKeys> {
  const ref = track.spec.decryption?.secretRef;
  if (!ref) return { age: [] };
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
  const age = Object.entries(secret.data ?? {})
    .filter(([name]) => name.endsWith('.agekey'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => ({ name, value: Buffer.from(value, 'base64').toString('utf8') }));
  if (age.length === 0) throw new ConfigError(`${where} has no entry ending in .agekey`, { subject: where });
  return { age };
}
