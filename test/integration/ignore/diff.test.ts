import { describe, expect, it } from 'vitest';
import { diffTrack } from '../../../lib/diff/diffTrack';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createGitTrack, includeNamespaced, patchTrackSpec, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { deployment, readDeployment, scale } from './ignoreSupport';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

describe('lightkeeper diff with ignored fields', () => {
  it('hides an ignored field, in the cluster and in git, and shows everything else', async () => {
    const ns = await freshNamespace(client, 'ignore-diff');
    const repo = createRepo(server, uniqueName('ignore-diff'));
    commit(repo, { 'web.yaml': yamlOf(deployment('web', 2)) }, 'web');
    const rule = { target: { kind: 'Deployment' }, jsonPointers: ['/spec/replicas'] };
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      ignore: [rule],
    });
    expect((await e.run(track)).result).toBe('Succeeded');
    await scale(client, ns, 'web', 5);
    const replicasInGit = commit(repo, { 'web.yaml': yamlOf(deployment('web', 3)) }, 'replicas 3');

    const hidden = await diffTrack(client, includeNamespaced, { track, commit: replicasInGit });
    expect(hidden).toMatchObject({ changed: [], unchanged: 1, errors: [] });

    const labelled = commit(
      repo,
      { 'web.yaml': yamlOf(deployment('web', 3, { annotations: { note: 'v2' } })) },
      'annotation',
    );
    const shown = await diffTrack(client, includeNamespaced, { track, commit: labelled });
    expect(shown.changed).toHaveLength(1);
    expect(shown.changed[0]?.diff).toMatch(/\+\s+note: v2/);
    expect(shown.changed[0]?.diff).not.toMatch(/replicas/);

    // Without the rule, the same commit shows replicas going back to git's value.
    await patchTrackSpec(client, track, { ignore: null });
    const plain = await diffTrack(client, includeNamespaced, { track, commit: replicasInGit });
    expect(plain.changed[0]?.diff).toMatch(/-\s+replicas: 5\n\+\s+replicas: 3/);
    // A diff writes nothing.
    expect((await readDeployment(client, ns, 'web')).spec.replicas).toBe(5);
  });
});
