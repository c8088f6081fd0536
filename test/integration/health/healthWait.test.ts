import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { reconcileUnderLease } from '../../../lib/lambda/reconcileUnderLease';
import { defaultLeaseNamespace } from '../../../lib/lease/leaseTarget';
import { commit } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import { eventually } from '../../support/cluster';
import { engine, getLive, includeNamespaced, trackStatus, yamlOf } from '../../support/engine';
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

// With no scheduler and no kubelet, a Deployment of one replica never becomes available.
const deployment = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'busybox' }] },
    },
  },
});

const gitTrackWith = (files: Record<string, string>, spec: Record<string, unknown>) =>
  widgetGitTrack({ client, server, widgets }, 'health-wait', files, spec);
const healthyOf = (track: Parameters<typeof trackHealthy>[1]) => trackHealthy(client, track);

/** Sweeps until one finds a child failed (its health timeout passed); no sweep may wait for health. */
async function sweepUntilFailed(track: Parameters<typeof trackHealthy>[1]): Promise<ReconcileSummary> {
  let sweep: ReconcileSummary | undefined;
  await eventually(
    'a sweep fails the child',
    async () => {
      sweep = await e.run(track, { mode: 'drift', reason: 'sweep' });
      expect(sweep.health?.waited).toBeUndefined();
      return (sweep.health?.failed ?? 0) > 0;
    },
    30_000,
  );
  return sweep as ReconcileSummary;
}

describe('spec.healthTimeout', () => {
  it('fails the run on a Deployment that never becomes available once the timeout passes, naming it', async () => {
    const { ns, track } = await gitTrackWith(
      { 'd.yaml': yamlOf(deployment('web', 1)) },
      { healthTimeout: '3s' },
    );
    const summary = await e.run(track);
    // As Flux's wait: the run waited for health and it failed, so the run failed (nothing undone).
    expect(summary.result).toBe('Failed');
    expect(summary.errors).toEqual([
      expect.stringMatching(
        new RegExp(`^health check failed: healthy 0 of 1, failed 1; Deployment.apps/${ns}/web: `),
      ),
    ]);
    expect(await getLive(client, { apiVersion: 'apps/v1', plural: 'deployments' }, 'web', ns)).toBeDefined();
    const ready = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'HealthCheckFailed' });
    expect(ready?.message).toContain(`Deployment.apps/${ns}/web: not healthy within 3s`);
    expect((await trackStatus(client, track)).lastAppliedCommit).toBe(summary.commit);
    expect(summary.health).toMatchObject({ healthy: 0, failed: 1, waited: { end: 'timeout' } });
    expect(summary.health?.waited?.ms).toBeGreaterThanOrEqual(2_500);
    expect(await trackerHealth(client, ns, 'Deployment', 'web')).toMatchObject({
      status: 'False',
      reason: 'HealthCheckTimeout',
    });
    const healthy = await healthyOf(track);
    expect(healthy).toMatchObject({ status: 'False', reason: 'HealthCheckTimeout' });
    expect(healthy?.message).toMatch(
      new RegExp(`^healthy 0 of 1, failed 1\\nDeployment.apps/${ns}/web: not healthy within 3s: `),
    );
    // A sweep finds it still unavailable: the verdict stays, and nothing is rewritten.
    const sweep = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(sweep.result).toBe('Failed');
    expect(sweep.health).toMatchObject({ failed: 1 });
    expect(sweep.health?.waited).toBeUndefined();
    expect(sweep.writes).toMatchObject({ objects: 0, health: 0 });
  });

  it('stops waiting when the time budget ends; the sweep judges what is still progressing later', async () => {
    const { ns, track } = await gitTrackWith(
      { 'd.yaml': yamlOf(deployment('web', 1)) },
      { healthTimeout: '4s' },
    );
    const short = engine(client, { timeBudgetMs: 1_500 });
    try {
      const started = Date.now();
      const summary = await short.run(track);
      expect(summary.result).toBe('Succeeded');
      expect(summary.health).toMatchObject({ progressing: 1, waited: { end: 'timeout' } });
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(await healthyOf(track)).toMatchObject({ status: 'Unknown', reason: 'Progressing' });
    } finally {
      short.dispose();
    }
    // No function is parked on it: a sweep after the timeout reaches the verdict itself, and no
    // sweep waits for it.
    const sweep = await sweepUntilFailed(track);
    expect(sweep.health).toMatchObject({ failed: 1 });
    expect(await trackerHealth(client, ns, 'Deployment', 'web')).toMatchObject({
      reason: 'HealthCheckTimeout',
    });
  });

  it('lets a sweep see a custom resource become Ready after a run gave up on it', async () => {
    const { ns, track } = await gitTrackWith(
      { 'w.yaml': yamlOf(widget(widgets, 'bucket')) },
      { healthTimeout: '2s' },
    );
    await e.run(track);
    await setWidgetStatus(client, widgets, ns, 'bucket', 'False');
    // The clock starts when a sweep first finds it progressing…
    await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(await healthyOf(track)).toMatchObject({ status: 'Unknown', reason: 'Progressing' });
    // …and a later sweep, past the timeout, fails it without having waited for it (the sweeps in
    // between do not restart the clock, or this would never end).
    await sweepUntilFailed(track);
    expect(await healthyOf(track)).toMatchObject({ status: 'False', reason: 'HealthCheckTimeout' });
    await setWidgetStatus(client, widgets, ns, 'bucket', 'True');
    const sweep = await e.run(track, { mode: 'drift', reason: 'sweep' });
    expect(sweep.health).toMatchObject({ healthy: 1, failed: 0 });
    expect(await healthyOf(track)).toMatchObject({ status: 'True', reason: 'Healthy' });
    // Healthy again, the track is Ready again.
    expect(sweep.result).toBe('Succeeded');
    const ready = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
  });

  it('never holds a newer commit back: an older run stops its health wait when another run is queued', async () => {
    const { ns, repo, track } = await gitTrackWith(
      { 'd.yaml': yamlOf(deployment('web', 1)) },
      { healthTimeout: '120s' },
    );
    const gitCacheRoot = mkdtempSync(join(tmpdir(), 'lk-health-git-'));
    const invoke = (holder: string) =>
      reconcileUnderLease(
        { client, config: includeNamespaced, gitCacheRoot },
        { track, reason: holder },
        { namespace: defaultLeaseNamespace, holder, pollMs: 100, waitUntil: Date.now() + 150_000 },
      );
    const started = Date.now();
    try {
      const older = invoke('run-old');
      const deployments = { apiVersion: 'apps/v1', plural: 'deployments' };
      await eventually(
        'the older run applied its Deployment',
        async () => !!(await getLive(client, deployments, 'web', ns)),
      );
      await eventually(
        'the older run judged its Deployment at apply',
        async () => (await trackerHealth(client, ns, 'Deployment', 'web')) !== undefined,
      );
      const fixed = commit(repo, { 'd.yaml': yamlOf(deployment('web', 0)) }, 'scale to zero');
      const newer = invoke('run-new');
      const [old, next] = (await Promise.all([older, newer])) as [ReconcileSummary, ReconcileSummary];
      expect(old.health?.waited?.end).toBe('newerRun');
      expect(old.durationMs).toBeLessThan(30_000);
      expect(next).toMatchObject({ result: 'Succeeded', commit: fixed });
      expect(next.health).toMatchObject({ healthy: 1, waited: { end: 'healthy' } });
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(await healthyOf(track)).toMatchObject({ status: 'True' });
    } finally {
      rmSync(gitCacheRoot, { recursive: true, force: true });
    }
  });
});
