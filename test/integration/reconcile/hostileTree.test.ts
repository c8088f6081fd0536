import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo, git, type TestRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { blob, commitTree, type RawEntry, tree } from '../../support/hostileTree';

// A tenant's own git server serves trees git itself refuses: an entry named `..` would climb out of
// the render's directory, `.git` would plant git metadata. Such a commit is broken: the error names
// the entry's path and the reason, nothing of it is applied and nothing is pruned.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

/** A commit on top of `main` whose root tree is `entries` exactly as given (refused names kept). */
function hostileCommit(repo: TestRepo, entries: RawEntry[]): string {
  return commitTree(repo.dir, tree(repo.dir, entries), 'hostile tree', git(repo, 'rev-parse', 'main'));
}
const file = (repo: TestRepo, name: string, content: string): RawEntry => ({
  mode: '100644',
  name,
  oid: blob(repo.dir, content),
});
const dir = (repo: TestRepo, name: string, entries: RawEntry[]): RawEntry => ({
  mode: '40000',
  name,
  oid: tree(repo.dir, entries),
});

async function expectBroken(track: Awaited<ReturnType<typeof createGitTrack>>, bad: string, good: string) {
  const summary = await e.run(track);
  expect(summary).toMatchObject({
    result: 'Failed',
    commit: bad,
    deployed: { extent: 'broken', objects: 0 },
    counts: { applied: 0, pruned: 0 },
    writes: { objects: 0 },
  });
  expect(summary.changes).toEqual([]);
  const status = await trackStatus(client, track);
  expect(status).toMatchObject({ lastAppliedCommit: good, lastAttemptedCommit: bad });
  const condition = (type: string) => status.conditions.find((c) => c.type === type);
  expect(condition('Applied')).toMatchObject({ status: 'False', reason: 'ParseFailed' });
  expect(condition('Pruned')).toMatchObject({ status: 'False', reason: 'PruneSkipped' });
  return { summary, ready: condition('Ready') };
}

describe('a commit whose tree git refuses', () => {
  it('applies nothing and prunes nothing, naming the entry', async () => {
    const ns = await freshNamespace(client, 'hostile-tree');
    const repo = createRepo(server, uniqueName('hostile-tree'));
    const good = commit(
      repo,
      { 'app.yaml': yamlOf(configMap('app', { v: '1' })), 'old.yaml': yamlOf(configMap('old')) },
      'good',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: good });

    // One good change, one new object, one removal, and a directory named `..`.
    const bad = hostileCommit(repo, [
      file(repo, 'app.yaml', yamlOf(configMap('app', { v: '2' }))),
      file(repo, 'new.yaml', yamlOf(configMap('new'))),
      dir(repo, 'apps', [dir(repo, '..', [file(repo, 'escaped.yaml', yamlOf(configMap('escaped')))])]),
    ]);
    const { summary, ready } = await expectBroken(track, bad, good);
    expect(summary.errors).toEqual([
      expect.stringMatching(/^tree entry "\.\." in apps names the parent directory \(tree [0-9a-f]{40}\)/),
    ]);
    expect(ready).toMatchObject({ status: 'False', reason: 'ParseFailed' });
    expect(ready?.message).toContain('".." in apps');
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ v: '1' });
    expect(await getLive(client, configMaps, 'new', ns)).toBeUndefined();
    expect(await getLive(client, configMaps, 'escaped', ns)).toBeUndefined();
    expect(await getLive(client, configMaps, 'old', ns)).toBeDefined();
  });

  it('refuses a .git entry outside a kustomization subPath: the render writes nothing of it', async () => {
    const ns = await freshNamespace(client, 'hostile-kz');
    const repo = createRepo(server, uniqueName('hostile-kz'));
    const kustomization = 'resources:\n  - cm.yaml\n';
    const good = commit(
      repo,
      {
        'overlay/kustomization.yaml': kustomization,
        'overlay/cm.yaml': yamlOf(configMap('cm', { v: '1' }, ns)),
      },
      'good',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      subPath: 'overlay',
    });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: good });

    // The subPath reads well; elsewhere in the commit, `.GIT\u200c` (`.git` on a Mac) holds a git config.
    const bad = hostileCommit(repo, [
      dir(repo, 'overlay', [
        file(repo, 'kustomization.yaml', kustomization),
        file(repo, 'cm.yaml', yamlOf(configMap('cm', { v: '2' }, ns))),
      ]),
      dir(repo, 'planted', [dir(repo, '.GIT\u200c', [file(repo, 'config', '[core]\n\tfsmonitor = evil\n')])]),
    ]);
    const { summary } = await expectBroken(track, bad, good);
    expect(summary.errors).toEqual([
      expect.stringMatching(
        /^overlay\/kustomization\.yaml: kustomize build failed: tree entry "\.GIT\\u200c" in planted is \.git/,
      ),
    ]);
    expect((await getLive(client, configMaps, 'cm', ns))?.data).toEqual({ v: '1' });
  });
});
