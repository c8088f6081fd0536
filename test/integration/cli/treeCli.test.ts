import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackTree } from '../../../lib/tree/buildTrackTree';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const lightkeeper = (...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], { env: { ...process.env, KUBECONFIG: kubeconfig() } }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

describe('lightkeeper tree', () => {
  it('shows a reconciled track, its tracking objects and children with sync state, commit, protection and conflicts', async () => {
    const ns = await freshNamespace(client, 'tree');
    // `taken` exists already, controlled by another object: the track must not take it over.
    const boss = await client.request<{ metadata: { uid: string } }>(
      'POST',
      resourcePath({ ...configMaps, namespace: ns }),
      { body: configMap('boss') },
    );
    await client.request('POST', resourcePath({ ...configMaps, namespace: ns }), {
      body: {
        ...configMap('taken'),
        metadata: {
          name: 'taken',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'boss', uid: boss.metadata.uid, controller: true },
          ],
        },
      },
    });
    const repo = createRepo(server, uniqueName('tree'));
    const protectedCm = configMap('kept');
    const head = commit(
      repo,
      {
        'plain.yaml': yamlOf(configMap('plain')),
        'kept.yaml': yamlOf({
          ...protectedCm,
          metadata: { ...protectedCm.metadata, annotations: { 'lightkeeper.dev/prune': 'disabled' } },
        }),
        'taken.yaml': yamlOf(configMap('taken')),
      },
      'three',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    await e.run(track);

    const json = await lightkeeper('tree', `gittrack/${track.name}`, '-n', ns, '-o', 'json');
    expect(json.code).toBe(0);
    const tree = JSON.parse(json.stdout) as TrackTree;
    expect(tree.track).toMatchObject({ kind: 'GitTrack', namespace: ns, name: track.name });
    expect(tree.ready).toMatchObject({ status: 'False', reason: 'OwnershipConflict' });
    const byName = Object.fromEntries(tree.nodes.map((n) => [n.child.name, n]));
    expect(Object.keys(byName).sort()).toEqual(['kept', 'plain', 'taken']);
    const plainUid = (await getLive(client, configMaps, 'plain', ns))?.metadata.uid;
    expect(byName.plain).toMatchObject({
      child: { kind: 'ConfigMap', namespace: ns, state: 'controlled', uid: plainUid },
      inSync: { status: 'True', reason: 'Applied' },
      lastAppliedCommit: head,
      protected: false,
      conflict: false,
    });
    expect(byName.kept).toMatchObject({
      child: { state: 'labelled' },
      protected: true,
      lastAppliedCommit: head,
    });
    expect(byName.taken).toMatchObject({
      child: { state: 'conflict', detail: 'controlled by ConfigMap boss' },
      inSync: { status: 'False', reason: 'OwnershipConflict' },
      conflict: true,
    });

    const text = await lightkeeper('tree', `gittrack/${track.name}`, '-n', ns);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^GitTrack/${ns}/${track.name} +Ready=False \\(OwnershipConflict\\)`),
    );
    expect(text.stdout).toMatch(
      new RegExp(`└── ConfigMap/${ns}/kept +labelled +protected: survives the deletion of its track`),
    );
    expect(text.stdout).toMatch(/ConfigMap\/\S+\/taken +conflict +CONFLICT/);
    expect(text.stdout).toContain(head.slice(0, 12));
  });

  it('fails with exit 1 and one line for a track that does not exist', async () => {
    const ns = await freshNamespace(client, 'tree-none');
    const result = await lightkeeper('tree', 'gittrack/nothing', '-n', ns);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^lightkeeper: .*not found/);
  });
});
