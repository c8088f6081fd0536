import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createClusterGitTrack,
  createGitTrack,
  getLive,
  patchTrackSpec,
  trackStatus,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { widgets } from './widgets';

// spec.dependsOn on the real API server, through the engine as the CLI and the function call it:
// a track is applied only once every dependency is Ready at its current commit, says why not
// instead of waiting, refuses other namespaces and cycles, and lists its dependents once Ready.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const ready = async (track: TrackRef) =>
  (await trackStatus(client, track)).conditions.find((c) => c.type === 'Ready');

/**
 * One repository with the Widget CRD under crds/ and a Widget under app/: a ClusterGitTrack of crds/
 * and, in `ns`, a GitTrack of app/ that depends on it.
 */
async function crdsAndApp(ns: string, w: ReturnType<typeof widgets>, message: string) {
  const repo = createRepo(server, uniqueName('dep'));
  const first = commit(
    repo,
    { 'crds/widget.yaml': w.crdYaml, 'app/widget.yaml': w.widgetYaml('one', ns, 1) },
    message,
  );
  const crds = await createClusterGitTrack(client, {
    repository: repo.url,
    reference: 'main',
    subPath: 'crds',
  });
  const app = await createGitTrack(client, ns, {
    repository: repo.url,
    reference: 'main',
    subPath: 'app',
    dependsOn: [{ kind: 'ClusterGitTrack', name: crds.name }],
  });
  return { repo, first, crds, app };
}

describe('dependsOn', () => {
  it('an app track waits for the CRD track it depends on, then converges once that one is Ready', async () => {
    const ns = await freshNamespace(client, 'dep');
    const w = widgets(client);
    try {
      await w.allow(ns);
      const { first, crds, app } = await crdsAndApp(ns, w, 'a CRD and a custom resource of it');

      const waiting = await e.run(app);
      expect(waiting).toMatchObject({ result: 'Waiting', heldBack: 'DependencyNotReady' });
      expect(waiting.commit).toBeUndefined();
      expect(waiting.waitingFor).toEqual([{ track: crds, reason: 'not reconciled yet' }]);
      expect(waiting.writes.objects).toBe(0);
      expect(await ready(app)).toMatchObject({
        status: 'False',
        reason: 'DependencyNotReady',
        message: `waiting for ClusterGitTrack/${crds.name}: not reconciled yet (unblock: lightkeeper reconcile clustergittrack/${crds.name})`,
      });
      expect((await trackStatus(client, app)).lastAppliedCommit).toBeUndefined();

      const crdRun = await e.run(crds);
      expect(crdRun).toMatchObject({ result: 'Succeeded', commit: first });
      expect(crdRun.dependents).toEqual([{ track: app, sameRepository: true }]);

      // What the reconcile function does with summary.dependents: reconcile each.
      const applied = await e.run(app);
      expect(applied).toMatchObject({ result: 'Succeeded', commit: first });
      expect((await w.widget('one', ns))?.spec?.size).toBe(1);
      expect(await ready(app)).toMatchObject({ status: 'True' });

      // A track that stays Ready (a sweep) invokes nothing.
      expect((await e.run(crds)).dependents).toBeUndefined();
    } finally {
      await w.remove();
    }
  });

  it('a dependency at an older commit than its reference names is not ready, and is reported behind', async () => {
    const ns = await freshNamespace(client, 'dep');
    const w = widgets(client);
    try {
      await w.allow(ns);
      const { repo, first, crds, app } = await crdsAndApp(ns, w, 'first');
      expect((await e.run(crds)).result).toBe('Succeeded');
      expect((await e.run(app)).result).toBe('Succeeded');

      // A push that touches only the app: the CRD track is Ready at `first`, and crds/ is the same
      // tree there and at the head, so it counts as at the head and the app is applied at once.
      const second = commit(repo, { 'app/widget.yaml': w.widgetYaml('one', ns, 2) }, 'second');
      expect(await e.run(app)).toMatchObject({ result: 'Succeeded', commit: second });
      expect((await w.widget('one', ns))?.spec?.size).toBe(2);
      expect((await trackStatus(client, crds)).lastAppliedCommit).toBe(first);

      // A push that touches the CRD track's folder too: Ready, but behind the head.
      const third = commit(
        repo,
        { 'crds/widget.yaml': `${w.crdYaml}# touched\n`, 'app/widget.yaml': w.widgetYaml('one', ns, 3) },
        'third',
      );
      const held = await e.run(app);
      expect(held.result).toBe('Waiting');
      // Listed from the app's own repository as the app; a tenant is told no commit of the platform.
      expect(held.waitingFor).toEqual([
        { track: crds, reason: 'Ready, but not yet at the commit it is meant to be at', behind: true },
      ]);
      expect((await w.widget('one', ns))?.spec?.size).toBe(2);
      expect((await trackStatus(client, app)).lastAppliedCommit).toBe(second);

      // Brought forward (as the function does for a dependency that is behind), it lists the app again.
      const caughtUp = await e.run(crds);
      expect(caughtUp).toMatchObject({ result: 'Succeeded', commit: third });
      expect(caughtUp.dependents).toEqual([{ track: app, sameRepository: true }]);
      expect(await e.run(app)).toMatchObject({ result: 'Succeeded', commit: third });
      expect((await w.widget('one', ns))?.spec?.size).toBe(3);

      // Pinned at the older commit, the dependency is meant to be there: the app is not held back.
      await patchTrackSpec(client, crds, { pin: { commit: first, by: 'test' } });
      expect((await e.run(app)).waitingFor?.[0]?.reason).toBe('its current generation is not reconciled yet');
      expect((await e.run(crds)).commit).toBe(first);
      expect((await e.run(app)).result).toBe('Succeeded');
    } finally {
      await w.remove();
    }
  });

  it("a GitTrack may not depend on another namespace's GitTrack, nor a ClusterGitTrack on a GitTrack", async () => {
    const [ns, other] = [await freshNamespace(client, 'dep'), await freshNamespace(client, 'dep-other')];
    const repo = createRepo(server, uniqueName('dep'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('held')) }, 'one ConfigMap');
    const db = await createGitTrack(client, other, { repository: repo.url, reference: 'main' });
    expect((await e.run(db)).result).toBe('Succeeded');
    for (const name of [db.name, 'does-not-exist']) {
      const app = await createGitTrack(client, ns, {
        repository: repo.url,
        reference: 'main',
        dependsOn: [{ kind: 'GitTrack', name, namespace: other }],
      });
      const out = await e.run(app);
      // The same answer whether the other namespace's track exists or not: nothing of it is read.
      const why = `spec.dependsOn[0]: GitTrack/${ns}/${app.name} may depend only on GitTracks of its own namespace ${ns} and on ClusterGitTracks, not on GitTrack/${other}/${name}`;
      expect(out).toMatchObject({ result: 'Failed', heldBack: 'DependencyRefused', errors: [why] });
      expect(await ready(app)).toMatchObject({ status: 'False', reason: 'DependencyRefused', message: why });
      expect(await getLive(client, configMaps, 'held', ns)).toBeUndefined();
    }
    const platform = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      defaultNamespace: ns,
      dependsOn: [{ kind: 'GitTrack', name: db.name, namespace: other }],
    });
    expect(await e.run(platform)).toMatchObject({ result: 'Failed' });
    expect(await ready(platform)).toMatchObject({
      reason: 'DependencyRefused',
      message: `spec.dependsOn[0]: ClusterGitTrack/${platform.name} may depend only on ClusterGitTracks, not on GitTrack/${other}/${db.name}`,
    });
    expect(await getLive(client, configMaps, 'held', ns)).toBeUndefined();
  });

  it("a tenant's GitTrack sees why a ClusterGitTrack is not Ready, not the platform repository's errors", async () => {
    const ns = await freshNamespace(client, 'dep');
    const platformRepo = createRepo(server, uniqueName('platform'));
    commit(platformRepo, { 'secret-plans.yaml': 'kind: [' }, 'broken');
    const platform = await createClusterGitTrack(client, { repository: platformRepo.url, reference: 'main' });
    expect(await e.run(platform)).toMatchObject({ result: 'Failed' });
    expect((await ready(platform))?.message).toContain('secret-plans.yaml');
    const repo = createRepo(server, uniqueName('dep'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('held')) }, 'one ConfigMap');
    const app = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      dependsOn: [{ kind: 'ClusterGitTrack', name: platform.name }],
    });
    const out = await e.run(app);
    expect(out.waitingFor).toEqual([{ track: platform, reason: 'not Ready (ParseFailed)' }]);
    expect((await ready(app))?.message).not.toContain('secret-plans');
    expect(await getLive(client, configMaps, 'held', ns)).toBeUndefined();
  });

  it('the API server refuses a dependsOn entry of another kind or without a name (the CRD schema)', async () => {
    const ns = await freshNamespace(client, 'dep');
    for (const entry of [{ kind: 'Kustomization', name: 'x' }, { kind: 'GitTrack' }]) {
      await expect(
        createGitTrack(client, ns, {
          repository: 'https://example.com/r.git',
          reference: 'main',
          dependsOn: [entry],
        }),
      ).rejects.toMatchObject({ status: 422 });
    }
  });

  it('a cycle is refused on every track on it, naming the cycle; a missing dependency is named; nothing is applied', async () => {
    const ns = await freshNamespace(client, 'dep');
    const repo = createRepo(server, uniqueName('dep'));
    commit(repo, { 'cm.yaml': yamlOf(configMap('held')) }, 'one ConfigMap');
    const spec = (dependsOn: string) => ({
      repository: repo.url,
      reference: 'main',
      dependsOn: [{ kind: 'GitTrack', name: dependsOn }],
    });
    const a = await createGitTrack(client, ns, spec('b'), { name: 'a' });
    const b = await createGitTrack(client, ns, spec('a'), { name: 'b' });
    const self = await createGitTrack(client, ns, spec('self'), { name: 'self' });
    const after = await createGitTrack(client, ns, spec('a'), { name: 'after' });
    const cases: Array<[TrackRef, string]> = [
      [a, `GitTrack/${ns}/a → GitTrack/${ns}/b → GitTrack/${ns}/a`],
      [b, `GitTrack/${ns}/b → GitTrack/${ns}/a → GitTrack/${ns}/b`],
      [self, `GitTrack/${ns}/self → GitTrack/${ns}/self`],
    ];
    for (const [track, cycle] of cases) {
      expect(await e.run(track)).toMatchObject({
        result: 'Failed',
        heldBack: 'DependencyCycle',
        errors: [`dependency cycle: ${cycle}`],
      });
      expect(await ready(track)).toMatchObject({
        status: 'False',
        reason: 'DependencyCycle',
        message: `dependency cycle: ${cycle}`,
      });
    }
    // A missing dependency holds the track back, by name.
    const orphan = await createGitTrack(client, ns, spec('ghost'), { name: 'orphan' });
    expect((await e.run(orphan)).waitingFor).toEqual([
      { track: { kind: 'GitTrack', namespace: ns, name: 'ghost' }, reason: 'not found' },
    ]);
    expect(await ready(orphan)).toMatchObject({
      reason: 'DependencyNotReady',
      message: `waiting for GitTrack/${ns}/ghost: not found`,
    });
    // A track that only leads into the cycle waits for it: the tracks on it are not Ready.
    const waiting = await e.run(after);
    expect(waiting.result).toBe('Waiting');
    expect(waiting.waitingFor?.[0]?.reason).toBe(
      `not Ready (DependencyCycle: dependency cycle: ${cases[0]?.[1]})`,
    );
    expect(await getLive(client, configMaps, 'held', ns)).toBeUndefined();
  });
});
