import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { decryptedAnnotation } from '../../../lib/manifests/metadataKeys';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { ageKeygen, createAgeKeySecret, sopsEncrypt } from '../../support/sopsOracle';

// A tenant's GitTrack with Flux's spec.decryption: files encrypted by the real sops CLI for an age
// recipient are applied decrypted, changed, pruned, and not rewritten when unchanged; a file the
// track's keys cannot decrypt breaks the commit (nothing applied, nothing pruned, never ciphertext).

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const secrets = { apiVersion: 'v1', plural: 'secrets' };
const regex = { encryptedRegex: '^(data|stringData)$' };

const secretYaml = (password: string) =>
  yamlOf({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, stringData: { password } });

describe('a GitTrack with spec.decryption (SOPS, age)', () => {
  it('applies decrypted, changes, prunes, writes nothing when unchanged, and breaks on a wrong key', async () => {
    const [key, wrong] = await Promise.all([ageKeygen(), ageKeygen()]);
    const ns = await freshNamespace(client, 'sops');
    await createAgeKeySecret(client, ns, key);
    const repo = createRepo(server, uniqueName('sops'));
    const envEntry = await sopsEncrypt('app.env', 'TOKEN=entry-plain-1\n', key.recipient);
    const entrySecret = yamlOf({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'entries' },
      data: { 'app.env': Buffer.from(envEntry).toString('base64') },
    });
    const first = commit(
      repo,
      {
        'secret.yaml': await sopsEncrypt('secret.yaml', secretYaml('db-plain-1'), key.recipient, regex),
        'config.yaml': await sopsEncrypt(
          'config.yaml',
          yamlOf(configMap('app', { token: 'cm-plain-1' })),
          key.recipient,
          regex,
        ),
        'entries.yaml': entrySecret,
        'plain.yaml': yamlOf(configMap('plain')),
      },
      'encrypted',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
    });

    const applied = await e.run(track);
    expect(applied.errors).toEqual([]);
    expect(applied).toMatchObject({ result: 'Succeeded', commit: first, counts: { applied: 4, failed: 0 } });
    const db = await getLive(client, secrets, 'db', ns);
    expect(db?.data).toEqual({ password: Buffer.from('db-plain-1').toString('base64') });
    expect(db?.metadata.annotations?.[decryptedAnnotation]).toBe('sops');
    expect(db?.sops).toBeUndefined();
    const app = await getLive(client, configMaps, 'app', ns);
    expect(app?.data).toEqual({ token: 'cm-plain-1' });
    expect(app?.metadata.annotations?.[decryptedAnnotation]).toBe('sops');
    const entries = (await getLive(client, secrets, 'entries', ns))?.data as Record<string, string>;
    expect(Buffer.from(entries['app.env'] as string, 'base64').toString()).toBe('TOKEN=entry-plain-1\n');

    // The drift check compares plaintext digests: no re-encryption, no write.
    const noop = await e.run(track);
    expect(noop).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });
    expect(noop.counts.inSync).toBe(4);

    commit(
      repo,
      {
        'config.yaml': await sopsEncrypt(
          'config.yaml',
          yamlOf(configMap('app', { token: 'cm-plain-2' })),
          key.recipient,
          regex,
        ),
      },
      're-encrypted with a new value',
    );
    const changed = await e.run(track);
    expect(changed).toMatchObject({ result: 'Succeeded', counts: { failed: 0 } });
    expect(changed.changes).toContainEqual({ subject: `ConfigMap/${ns}/app`, action: 'configured' });
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ token: 'cm-plain-2' });

    const pruning = commit(repo, { 'secret.yaml': null }, 'the Secret leaves');
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: pruning, counts: { pruned: 1 } });
    expect(await getLive(client, secrets, 'db', ns)).toBeUndefined();

    const bad = commit(
      repo,
      {
        'config.yaml': await sopsEncrypt(
          'config.yaml',
          yamlOf(configMap('app', { token: 'cm-plain-3' })),
          wrong.recipient,
          regex,
        ),
        'plain.yaml': null,
      },
      'encrypted for another key, and plain.yaml removed',
    );
    const broken = await e.run(track);
    expect(broken).toMatchObject({
      result: 'Failed',
      commit: bad,
      deployed: { extent: 'broken' },
      counts: { applied: 0, pruned: 0 },
      writes: { objects: 0 },
    });
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ token: 'cm-plain-2' });
    expect(await getLive(client, configMaps, 'plain', ns)).toBeDefined();
    const parsed = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed).toMatchObject({ status: 'False' });
    expect(parsed?.message).toContain(`config.yaml:1 (ConfigMap/app): cannot decrypt: no matching key`);
    expect(parsed?.message).toContain(wrong.recipient);
  });

  it('breaks a commit with SOPS files when the track has no spec.decryption: ciphertext is never applied', async () => {
    const key = await ageKeygen();
    const ns = await freshNamespace(client, 'sops-none');
    const repo = createRepo(server, uniqueName('sops-none'));
    commit(
      repo,
      {
        'secret.yaml': await sopsEncrypt('secret.yaml', secretYaml('never-applied'), key.recipient, regex),
        'plain.yaml': yamlOf(configMap('plain')),
      },
      'encrypted, no decryption',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const summary = await e.run(track);
    expect(summary).toMatchObject({ result: 'Failed', counts: { applied: 0 }, writes: { objects: 0 } });
    expect(await getLive(client, secrets, 'db', ns)).toBeUndefined();
    const parsed = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed?.message).toContain(
      'secret.yaml:1 (Secret/db): encrypted with SOPS, and the track has no spec.decryption: it is not applied',
    );
  });
});
