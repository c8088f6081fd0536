import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { seeRequests } from '../../support/seeRequests';
import { ageKeygen, createAgeKeySecret, sopsEncrypt } from '../../support/sopsOracle';

// A push of a track with SOPS files: a plain file's change stays an incremental run; a changed
// encrypted file (added, changed or deleted) has the whole track read and decrypted, so no
// ciphertext is ever applied, compared or pruned by (lib/reconcile/incrementalSource.ts).

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const regex = { encryptedRegex: '^(data|stringData)$' };
const trackerList = (r: string) => /^GET \S*\/gittrackobjects( |$)/.test(r);

/** The requests every client sends while the push's run runs. */
async function pushRun(track: TrackRef) {
  const requests: string[] = [];
  const summary = await seeRequests(
    (method, path) => requests.push(`${method} ${path}`),
    () => e.run(track, { reason: 'push' }),
  );
  return { summary, requests };
}

describe('an incremental run of a track with SOPS files', () => {
  it('stays incremental for a plain file, reads the whole track for a changed or deleted encrypted one', async () => {
    const key = await ageKeygen();
    const ns = await freshNamespace(client, 'sops-incr');
    await createAgeKeySecret(client, ns, key);
    const encrypted = (token: string) =>
      sopsEncrypt('secret-config.yaml', yamlOf(configMap('secret-config', { token })), key.recipient, regex);
    const repo = createRepo(server, uniqueName('sops-incr'));
    commit(
      repo,
      {
        'secret-config.yaml': await encrypted('plain-1'),
        'plain.yaml': yamlOf(configMap('plain', { v: '1' })),
      },
      'first',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
    });
    expect((await e.run(track)).result).toBe('Succeeded');

    commit(repo, { 'plain.yaml': yamlOf(configMap('plain', { v: '2' })) }, 'plain change');
    const plain = await pushRun(track);
    expect(plain.summary).toMatchObject({ result: 'Succeeded', counts: { applied: 1, pruned: 0 } });
    expect(plain.requests.filter(trackerList)).toEqual([]);
    expect(plain.requests.filter((r) => r.includes('secret-config'))).toEqual([]);

    commit(repo, { 'secret-config.yaml': await encrypted('plain-2') }, 'encrypted change');
    const changed = await pushRun(track);
    expect(changed.summary).toMatchObject({ result: 'Succeeded', counts: { failed: 0, pruned: 0 } });
    expect(changed.requests.filter(trackerList).length).toBeGreaterThan(0);
    expect((await getLive(client, configMaps, 'secret-config', ns))?.data).toEqual({ token: 'plain-2' });

    commit(repo, { 'secret-config.yaml': null }, 'encrypted file deleted');
    const deleted = await pushRun(track);
    expect(deleted.summary).toMatchObject({ result: 'Succeeded', counts: { pruned: 1 } });
    expect(deleted.requests.filter(trackerList).length).toBeGreaterThan(0);
    expect(await getLive(client, configMaps, 'secret-config', ns)).toBeUndefined();
    expect((await getLive(client, configMaps, 'plain', ns))?.data).toEqual({ v: '2' });
  });
});
