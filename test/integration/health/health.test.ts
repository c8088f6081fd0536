import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMap, createClusterGitTrack, trackStatus, yamlOf } from '../../support/engine';
import type { EngineHarness } from '../../support/engineHarness';
import {
  setWidgetStatus,
  trackerHealth,
  trackHealthy,
  useWidgetHarness,
  type WidgetKind,
  widget,
  widgetGitTrack,
} from './widgets';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
let widgets: WidgetKind;
useWidgetHarness((h) => ({ client, server, e, widgets } = h));

const gitTrackWith = (files: Record<string, string>, spec?: Record<string, unknown>) =>
  widgetGitTrack({ client, server, widgets }, 'health', files, spec);
const healthyOf = (track: Parameters<typeof trackHealthy>[1]) => trackHealthy(client, track);

describe('health', () => {
  it('reads custom resources by their Ready condition and observedGeneration, and a healthy no-op writes nothing', async () => {
    const { ns, track } = await gitTrackWith({
      'w.yaml': yamlOf(widget(widgets, 'ready'), widget(widgets, 'pending'), configMap('plain')),
    });
    const first = await e.run(track);
    expect(first.result).toBe('Succeeded');
    // No status yet: a custom resource without conditions is current once it exists (kstatus).
    expect(first.health).toMatchObject({ healthy: 3, progressing: 0, failed: 0, of: 3 });

    await setWidgetStatus(client, widgets, ns, 'ready', 'True');
    await setWidgetStatus(client, widgets, ns, 'pending', 'False');
    const sweep = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(sweep.health).toMatchObject({ healthy: 2, progressing: 1, failed: 0 });
    // Only the two tracking objects whose verdict changed (one's message, the other's status).
    expect(sweep.writes).toMatchObject({ objects: 0, health: 2 });
    expect(await trackerHealth(client, ns, 'Widget', 'ready')).toMatchObject({ status: 'True' });
    expect(await trackerHealth(client, ns, 'Widget', 'pending')).toMatchObject({
      status: 'Unknown',
      reason: 'Progressing',
      message: 'waiting for the bucket',
    });
    expect(await healthyOf(track)).toMatchObject({
      status: 'Unknown',
      reason: 'Progressing',
      message: `healthy 2 of 3, progressing 1\nWidget.${widgets.group}/${ns}/pending: waiting for the bucket`,
    });
    expect((await trackStatus(client, track)) as object).toMatchObject({
      health: { healthy: 2, progressing: 1, failed: 0, total: 3 },
    });

    // Ready, but for a generation its controller has not seen yet: still progressing.
    // A progressing child's new progress message costs no write on its tracking object; the track's
    // condition, written every run, names it.
    await setWidgetStatus(client, widgets, ns, 'pending', 'True', 0);
    const unobserved = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(unobserved.writes).toMatchObject({ objects: 0, health: 0 });
    expect(await trackerHealth(client, ns, 'Widget', 'pending')).toMatchObject({
      status: 'Unknown',
      message: 'waiting for the bucket',
    });
    expect((await healthyOf(track))?.message).toContain(
      `Widget.${widgets.group}/${ns}/pending: Widget generation is 1, but latest observed generation is 0`,
    );

    await setWidgetStatus(client, widgets, ns, 'pending', 'True', 1);
    const healthy = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(healthy.health).toMatchObject({ healthy: 3, progressing: 0, failed: 0 });
    expect(await healthyOf(track)).toMatchObject({
      status: 'True',
      reason: 'Healthy',
      message: 'healthy 3 of 3',
    });

    // Nothing changed in git, in the cluster or in health: not one write to a child or tracking object.
    const noop = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(noop).toMatchObject({ result: 'Succeeded', writes: { objects: 0, health: 0 } });
    expect(noop.changes.every((c) => c.action === 'unchanged')).toBe(true);
  });

  it('waits for a Deployment of 0 replicas to roll out, and calls it healthy', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'idle' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'idle' } },
        template: {
          metadata: { labels: { app: 'idle' } },
          spec: { containers: [{ name: 'app', image: 'busybox' }] },
        },
      },
    };
    const { ns, track } = await gitTrackWith({ 'd.yaml': yamlOf(deployment) }, { healthTimeout: '60s' });
    const summary = await e.run(track);
    expect(summary.result).toBe('Succeeded');
    expect(summary.health).toMatchObject({ healthy: 1, of: 1, waited: { end: 'healthy' } });
    expect(summary.health?.waited?.ms).toBeLessThan(30_000);
    expect(await trackerHealth(client, ns, 'Deployment', 'idle')).toMatchObject({
      status: 'True',
      message: 'Deployment is available. Replicas: 0',
    });
    expect(await healthyOf(track)).toMatchObject({ status: 'True', reason: 'Healthy' });
  });

  it('reads a Job by its completion and failure conditions', async () => {
    const job = (name: string) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: {
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'run', image: 'busybox' }] } },
      },
    });
    const { ns, track } = await gitTrackWith({ 'jobs.yaml': yamlOf(job('migrate'), job('seed')) });
    const first = await e.run(track);
    // No job controller runs here: neither has started.
    expect(first.health).toMatchObject({ healthy: 0, progressing: 2, of: 2 });
    expect(await trackerHealth(client, ns, 'Job', 'migrate')).toMatchObject({
      status: 'Unknown',
      message: 'Job not started',
    });

    const setJobStatus = (name: string, status: object) =>
      client.request(
        'PATCH',
        resourcePath({ apiVersion: 'batch/v1', plural: 'jobs', namespace: ns, name, subresource: 'status' }),
        { body: { status }, contentType: 'application/merge-patch+json' },
      );
    const started = '2026-01-01T00:00:00Z';
    const at = { lastProbeTime: started, lastTransitionTime: started };
    await setJobStatus('migrate', {
      startTime: started,
      completionTime: started,
      succeeded: 1,
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True', ...at },
        { type: 'Complete', status: 'True', ...at },
      ],
    });
    await setJobStatus('seed', {
      startTime: started,
      failed: 1,
      conditions: [
        {
          type: 'FailureTarget',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
          ...at,
        },
        {
          type: 'Failed',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
          ...at,
        },
      ],
    });
    const sweep = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(sweep.health).toMatchObject({ healthy: 1, progressing: 0, failed: 1 });
    expect(await trackerHealth(client, ns, 'Job', 'migrate')).toMatchObject({ status: 'True' });
    expect(await trackerHealth(client, ns, 'Job', 'seed')).toMatchObject({
      status: 'False',
      reason: 'JobFailed',
    });
    expect(await healthyOf(track)).toMatchObject({
      status: 'False',
      reason: 'HealthCheckFailed',
      message: expect.stringContaining(`Job.batch/${ns}/seed: Job Failed. failed: 1/1`),
    });
    // Health is reported, not acted on: the reconcile itself succeeded.
    expect(sweep.result).toBe('Succeeded');
  });

  it('records health on the ClusterGitTrackObjects and GitTrackObjects of a ClusterGitTrack', async () => {
    const ns = await freshNamespace(client, 'health-cgt');
    const role = uniqueName('health-reader');
    const clusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: role },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    };
    const repo = createRepo(server, uniqueName('health-cgt'));
    commit(repo, { 'a.yaml': yamlOf(clusterRole, configMap('settings')) }, 'first');
    const track = await createClusterGitTrack(client, {
      repository: repo.url,
      reference: 'main',
      defaultNamespace: ns,
    });
    try {
      const first = await e.run(track);
      expect(first.result).toBe('Succeeded');
      expect(first.health).toMatchObject({ healthy: 2, of: 2 });
      const cgtos = await client.get<{
        items: Array<{
          spec: { target: { name: string } };
          status?: { conditions?: Array<{ type: string; status: string }> };
        }>;
      }>(resourcePath(lightkeeperResources.ClusterGitTrackObject));
      const tracker = cgtos.items.find((t) => t.spec.target.name === role);
      expect(tracker?.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual([
        'InSync=True',
        'Healthy=True',
      ]);
      expect(await trackerHealth(client, ns, 'ConfigMap', 'settings')).toMatchObject({ status: 'True' });
      expect((await e.run(track)).writes).toMatchObject({ objects: 0, health: 0 });
    } finally {
      await client.request(
        'DELETE',
        resourcePath({ ...lightkeeperResources.ClusterGitTrack, name: track.name }),
      );
    }
  });
});
