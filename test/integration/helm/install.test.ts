import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffTrack } from '../../../lib/diff/diffTrack';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  createClusterGitTrack,
  createGitTrack,
  getLive,
  includeNamespaced,
  patchTrackSpec,
  trackStatus,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// A GitTrack with spec.helm installs the corpus's podinfo chart through the same pipeline as any
// manifest (tracking objects, staged server-side apply), upgrades it when the values change, and
// writes nothing when nothing changed. No Helm release (Secret) is ever stored.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const podinfo = join(import.meta.dirname, '../../../../shared/corpus/charts/podinfo');

/** The chart's files, read where the corpus keeps them, for a test repository under `into`. */
function chartFiles(dir: string, into: string): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) {
    const at = join(dir, name);
    if (statSync(at).isDirectory()) Object.assign(files, chartFiles(at, `${into}/${name}`));
    else files[`${into}/${relative(dir, at)}`] = readFileSync(at);
  }
  return files;
}

const deployments = { apiVersion: 'apps/v1', plural: 'deployments' };
interface Deployment {
  metadata: { labels?: Record<string, string> };
  spec: {
    replicas: number;
    template: { spec: { containers: Array<{ env?: Array<{ name: string; value?: string }> }> } };
  };
}

describe('a GitTrack with spec.helm', () => {
  it('installs podinfo, upgrades it on a values change, and writes nothing when nothing changed', async () => {
    const ns = await freshNamespace(client, 'helm');
    const repo = createRepo(server, uniqueName('helm'));
    commit(repo, chartFiles(podinfo, 'charts/podinfo'), 'podinfo chart');
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main', subPath: 'charts/podinfo', helm: {} },
      { name: 'podinfo' },
    );

    const installed = await e.run(track);
    expect(installed.errors).toEqual([]);
    expect(installed).toMatchObject({ result: 'Succeeded', counts: { failed: 0, conflicts: 0 } });
    expect(installed.counts.applied).toBeGreaterThanOrEqual(2);
    const deployment = await getLive(client, deployments, 'podinfo', ns);
    expect((deployment as unknown as Deployment).metadata.labels).toMatchObject({
      'app.kubernetes.io/managed-by': 'Helm',
      'helm.sh/chart': 'podinfo-6.14.1',
    });
    expect((deployment as unknown as Deployment).spec.replicas).toBe(1);
    // Each object is tracked under the template it came from; the chart's test hooks are named, not applied.
    const trackers = await client.get<{
      items: Array<{ spec: { target: { kind: string }; source: { path: string } } }>;
    }>(resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }));
    const sources = new Map(trackers.items.map((t) => [t.spec.target.kind, t.spec.source.path]));
    expect(sources.get('Deployment')).toBe('podinfo/templates/deployment.yaml');
    expect(sources.get('Service')).toBe('podinfo/templates/service.yaml');
    expect(sources.has('Pod')).toBe(false);
    const parsed = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed?.message).toMatch(
      new RegExp(
        `^${installed.counts.discovered} objects rendered by helm from charts/podinfo \\(release podinfo in ${ns}\\); \\d+ hooks not applied: Pod/podinfo-grpc-test-`,
      ),
    );
    // No Helm release state: nothing to get stuck in pending-upgrade.
    const secrets = await client.get<{ items: unknown[] }>(
      `/api/v1/namespaces/${ns}/secrets?labelSelector=owner%3Dhelm`,
    );
    expect(secrets.items).toEqual([]);

    await patchTrackSpec(client, track, {
      helm: { values: { replicaCount: 2, ui: { message: 'upgraded' } } },
    });
    // `lightkeeper diff` renders the chart as the reconcile will: the Deployment changes, nothing else.
    const planned = await diffTrack(client, includeNamespaced, { track });
    expect(planned.errors).toEqual([]);
    expect(planned.changed.map((c) => c.subject)).toEqual([`Deployment.apps/${ns}/podinfo`]);
    expect(planned.created).toEqual([]);
    expect(planned.pruned).toEqual([]);
    const upgraded = await e.run(track);
    expect(upgraded).toMatchObject({ result: 'Succeeded', counts: { failed: 0 } });
    expect(upgraded.changes).toContainEqual(
      expect.objectContaining({ subject: `Deployment.apps/${ns}/podinfo`, action: 'configured' }),
    );
    const rolled = (await getLive(client, deployments, 'podinfo', ns)) as unknown as Deployment;
    expect(rolled.spec.replicas).toBe(2);
    expect(rolled.spec.template.spec.containers[0]?.env).toContainEqual({
      name: 'PODINFO_UI_MESSAGE',
      value: 'upgraded',
    });

    const noop = await e.run(track);
    expect(noop).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });
    expect(noop.counts.inSync).toBe(noop.counts.discovered);
  });

  it("renders a ClusterGitTrack's chart into its targetNamespace: objects naming none go there", async () => {
    const ns = await freshNamespace(client, 'helm-cluster');
    const repo = createRepo(server, uniqueName('helm-cluster'));
    commit(repo, chartFiles(podinfo, 'podinfo'), 'podinfo chart');
    const name = uniqueName('podinfo');
    const track = await createClusterGitTrack(
      client,
      { repository: repo.url, reference: 'main', helm: { chart: 'podinfo', targetNamespace: ns } },
      name,
    );
    const applied = await e.run(track);
    expect(applied.errors).toEqual([]);
    expect(applied).toMatchObject({ result: 'Succeeded', counts: { failed: 0, conflicts: 0 } });
    expect(applied.changes).toContainEqual({ subject: `Deployment.apps/${ns}/${name}`, action: 'created' });
    expect(await getLive(client, deployments, name, ns)).toBeDefined();
  });

  it("refuses a GitTrack's chart rendered into another namespace: nothing applied", async () => {
    const ns = await freshNamespace(client, 'helm-ns');
    const repo = createRepo(server, uniqueName('helm-ns'));
    commit(repo, chartFiles(podinfo, 'podinfo'), 'podinfo chart');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      helm: { chart: 'podinfo', targetNamespace: 'kube-system' },
    });
    const refused = await e.run(track);
    expect(refused).toMatchObject({ result: 'Failed', writes: { objects: 0 } });
    expect(refused.errors.join()).toMatch(/spec\.helm\.targetNamespace kube-system is refused/);
  });
});
