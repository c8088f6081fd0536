import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { decryptedAnnotation } from '../../../lib/manifests/metadataKeys';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { ageKeygen, createAgeKeySecret, sopsEncrypt } from '../../support/sopsOracle';

// A kustomization whose secretGenerator input and resource are SOPS files: the engine decrypts them
// as kustomize reads them (so a transformation cannot break a MAC); without spec.decryption the
// generated Secret would hold ciphertext, so the commit is broken instead.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const kustomization = [
  'resources: [config.yaml]',
  'commonLabels: {team: a}',
  'secretGenerator:',
  '  - name: app-env',
  '    envs: [secret.env]',
  'generatorOptions: {disableNameSuffixHash: true}',
  '',
].join('\n');

describe('a kustomization with SOPS inputs', () => {
  it('renders decrypted generator inputs and resources; without spec.decryption it is broken', async () => {
    const key = await ageKeygen();
    const ns = await freshNamespace(client, 'sops-kust');
    await createAgeKeySecret(client, ns, key);
    const repo = createRepo(server, uniqueName('sops-kust'));
    commit(
      repo,
      {
        'app/kustomization.yaml': kustomization,
        'app/secret.env': await sopsEncrypt('secret.env', 'TOKEN=gen-plain-1\n', key.recipient),
        'app/config.yaml': await sopsEncrypt(
          'config.yaml',
          yamlOf(configMap('app', { token: 'kust-plain-1' })),
          key.recipient,
          { encryptedRegex: '^(data|stringData)$' },
        ),
      },
      'kustomization with encrypted inputs',
    );
    const spec = { repository: repo.url, reference: 'main', subPath: 'app' };
    const track = await createGitTrack(client, ns, {
      ...spec,
      decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
    });
    const applied = await e.run(track);
    expect(applied.errors).toEqual([]);
    expect(applied).toMatchObject({ result: 'Succeeded', counts: { applied: 2, failed: 0 } });
    const generated = await getLive(client, { apiVersion: 'v1', plural: 'secrets' }, 'app-env', ns);
    expect(generated?.data).toEqual({ TOKEN: Buffer.from('gen-plain-1').toString('base64') });
    expect(generated?.metadata.annotations?.[decryptedAnnotation]).toBe('sops');
    const config = await getLive(client, configMaps, 'app', ns);
    expect(config?.data).toEqual({ token: 'kust-plain-1' });
    expect(config?.metadata.labels).toMatchObject({ team: 'a' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });

    const other = await freshNamespace(client, 'sops-kust-none');
    const undecrypted = await createGitTrack(client, other, spec);
    expect(await e.run(undecrypted)).toMatchObject({ result: 'Failed', counts: { applied: 0 } });
    expect(await getLive(client, { apiVersion: 'v1', plural: 'secrets' }, 'app-env', other)).toBeUndefined();
    const parsed = (await trackStatus(client, undecrypted)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed?.message).toContain('holds a SOPS-encrypted value that was not decrypted');
  });
});
