import { ConfigError, isConflict } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { resourcePath } from '../kube/paths';
import { migratedFromAnnotation } from '../manifests/metadataKeys';
import type { CredentialsMapping } from './mapFarosTrack';

interface SecretObject {
  metadata?: { annotations?: Record<string, string> };
  data?: Record<string, string>;
}

const secretPath = (s: { namespace: string; name: string }) =>
  resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: s.namespace, name: s.name });

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Faros' `<username>:<password>` split into lightkeeper's keys, base64 as a Secret holds them. */
async function derivedData(
  client: KubeClient,
  c: CredentialsMapping,
): Promise<{ data: Record<string, string> } | { problem: string }> {
  const where = `Secret ${c.from.namespace}/${c.from.name}`;
  const source = await client.find<SecretObject>(secretPath(c.from), { subject: where });
  if (!source) return { problem: `${where} (spec.deployKey) not found` };
  const raw = source.data?.[c.from.key];
  if (!raw) return { problem: `${where} has no key ${c.from.key} (spec.deployKey.key)` };
  const text = Buffer.from(raw, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 1)
    return {
      problem: `${where} key ${c.from.key} does not hold <username>:<password>, as HTTPBasicAuth needs`,
    };
  return { data: { username: b64(text.slice(0, colon)), password: b64(text.slice(colon + 1)) } };
}

const sameData = (a: Record<string, string> | undefined, b: Record<string, string>) =>
  a?.username === b.username && a?.password === b.password;

/**
 * Why the credentials cannot be carried over, or undefined when they can (or already were). The
 * values never leave this module: a plan is printed.
 */
export async function credentialsProblem(
  client: KubeClient,
  c: CredentialsMapping,
): Promise<string | undefined> {
  const derived = await derivedData(client, c);
  if ('problem' in derived) return derived.problem;
  const existing = await client.find<SecretObject>(secretPath(c.to));
  if (existing && !sameData(existing.data, derived.data))
    return `Secret ${c.to.namespace}/${c.to.name} exists with other credentials; remove or rename it, then run again`;
  return undefined;
}

/** Writes the lightkeeper Secret once; a rerun finds it there with the same content and writes nothing. */
export async function ensureCredentials(
  client: KubeClient,
  c: CredentialsMapping,
  from: string,
): Promise<void> {
  const derived = await derivedData(client, c);
  if ('problem' in derived)
    throw new ConfigError(derived.problem, { subject: `Secret ${c.from.namespace}/${c.from.name}` });
  const existing = await client.find<SecretObject>(secretPath(c.to));
  if (existing && sameData(existing.data, derived.data)) return;
  try {
    await client.request(
      'POST',
      resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: c.to.namespace }),
      {
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: {
            name: c.to.name,
            namespace: c.to.namespace,
            annotations: { [migratedFromAnnotation]: from },
          },
          data: derived.data,
        },
        query: { fieldManager: 'lightkeeper-migrate' },
        subject: `Secret ${c.to.namespace}/${c.to.name}`,
      },
    );
  } catch (e) {
    if (!isConflict(e)) throw e;
    throw new ConfigError(`Secret ${c.to.namespace}/${c.to.name} appeared meanwhile with other content`, {
      subject: `Secret ${c.to.namespace}/${c.to.name}`,
      cause: e,
    });
  }
}
