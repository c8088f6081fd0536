import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  getLive,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { ageKeygen, createAgeKeySecret, sopsEncrypt } from '../../support/sopsOracle';
import { grant } from '../../support/tenancy';

// The key Secret is read as the track: a GitTrack's service account must be allowed to read it in
// its own namespace; a ClusterGitTrack names the Secret's namespace and reads it as the reconciler.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const regex = { encryptedRegex: '^(data|stringData)$' };

describe('the SOPS key Secret', () => {
  it("is read as the GitTrack's service account: one that may not read it breaks the commit", async () => {
    const key = await ageKeygen();
    const ns = await freshNamespace(client, 'sops-denied');
    await createAgeKeySecret(client, ns, key);
    await client.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'configmaps-only' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
      },
    });
    await grant(client, ns, { role: 'configmaps-only' });
    const repo = createRepo(server, uniqueName('sops-denied'));
    const encrypted = yamlOf(configMap('app', { token: 'denied-plain' }));
    commit(
      repo,
      { 'config.yaml': await sopsEncrypt('config.yaml', encrypted, key.recipient, regex) },
      'encrypted',
    );
    const track = await createGitTrack(
      client,
      ns,
      {
        repository: repo.url,
        reference: 'main',
        decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
      },
      { access: false },
    );
    expect(await e.run(track)).toMatchObject({
      result: 'Failed',
      counts: { applied: 0 },
      writes: { objects: 0 },
    });
    expect(await getLive(client, configMaps, 'app', ns)).toBeUndefined();
    const parsed = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed?.message).toContain(
      `Secret ${ns}/sops-age (spec.decryption.secretRef) could not be read: Forbidden`,
    );
  });

  it('is named with its namespace by a ClusterGitTrack', async () => {
    const key = await ageKeygen();
    const keys = await freshNamespace(client, 'sops-keys');
    const target = await freshNamespace(client, 'sops-target');
    await createAgeKeySecret(client, keys, key);
    const repo = createRepo(server, uniqueName('sops-cluster'));
    const encrypted = yamlOf(configMap('app', { token: 'cluster-plain' }, target));
    commit(
      repo,
      { 'config.yaml': await sopsEncrypt('config.yaml', encrypted, key.recipient, regex) },
      'encrypted',
    );
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      decryption: { provider: 'sops', secretRef: { name: 'sops-age', namespace: keys } },
    });
    const applied = await e.run(track);
    expect(applied.errors).toEqual([]);
    expect(applied).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    expect((await getLive(client, configMaps, 'app', target))?.data).toEqual({ token: 'cluster-plain' });
  });
});
