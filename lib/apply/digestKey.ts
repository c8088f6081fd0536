import { randomBytes } from 'node:crypto';
import { ConfigError, isConflict, isKubeApiError, isNotFound } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { createLeaseNamespace } from '../lease/createLeaseNamespace';

/** The Secret, in the reconciler's own namespace, holding the key of every digest a tracking object shows. */
export const digestKeySecretName = 'lightkeeper-digest-key';

const keyField = 'key';

interface KeySecret {
  data?: Record<string, string>;
}

/**
 * The key the digests of tracking objects are keyed with (lib/plan/plannedDigest.ts `keyedDigest`),
 * read from the Secret `lightkeeper-digest-key` in `namespace` (the reconciler's, where its Leases live), created with
 * 32 random bytes by the first reconcile that finds none. Tenants cannot read it, so a digest
 * tells them nothing about the manifest (a Secret's password cannot be guessed offline from it).
 * Read once per run, beside discovery. Returns how many write requests it sent (none once the key
 * exists; failed attempts count, as the client counts them).
 */
export async function readDigestKey(
  client: KubeClient,
  namespace: string,
): Promise<{ key: Buffer; writes: number }> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`;
  const subject = `Secret/${namespace}/${digestKeySecretName}`;
  const read = async () => keyOf(await client.find<KeySecret>(`${path}/${digestKeySecretName}`, { subject }));
  try {
    const found = await read();
    if (found) return { key: found, writes: 0 };
    let writes = 0;
    const create = () => {
      writes++;
      return client.request('POST', path, {
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: digestKeySecretName, labels: { 'app.kubernetes.io/managed-by': 'lightkeeper' } },
          type: 'Opaque',
          data: { [keyField]: randomBytes(32).toString('base64') },
        },
        subject,
      });
    };
    try {
      await create().catch(async (e: unknown) => {
        // A new installation whose namespace is not there yet (infra/rbac/reconciler.yaml makes it).
        if (!isNotFound(e)) throw e;
        writes++;
        await createLeaseNamespace(client, namespace);
        return create();
      });
    } catch (e) {
      // Another run created it first: theirs is the key.
      if (!isConflict(e)) throw e;
    }
    const created = await read();
    if (!created) throw new ConfigError(`${subject} holds no key`, { subject });
    return { key: created, writes };
  } catch (e) {
    if (!isKubeApiError(e) || e.status !== 403) throw e;
    throw new ConfigError(
      `cannot read or create ${subject}, the key of tracking-object digests: ${e.message} (the reconciler needs get and create on it: infra/rbac/reconciler.yaml)`,
      { subject, cause: e },
    );
  }
}

function keyOf(secret: KeySecret | undefined): Buffer | undefined {
  const value = secret?.data?.[keyField];
  if (value === undefined) return undefined;
  const key = Buffer.from(value, 'base64');
  return key.length >= 16 ? key : undefined;
}
