import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHelmCapabilities } from '../../../lib/helm/helmCapabilities';
import { renderHelmChart } from '../../../lib/helm/renderHelmChart';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { configMaps, createGitTrack, getLive, type Live, trackStatus } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { helmTemplate, objectsOf } from '../../support/helmOracle';

// spec.helm.hooks: Run on the real control plane, with a hand-made chart: pre-install hooks of two
// weights (a ConfigMap, then a Job), a pre-upgrade Job, a post-install/-upgrade Job and a test Pod.
// No Job controller runs here: a watcher in the test plays it, completing (or failing) each hook
// Job as it appears and noting what existed at that moment, which is how the order is observed.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));
const scratch = mkdtempSync(join(tmpdir(), 'lk-helm-hooks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const hookJob = (name: string, hook: string, weight: number, deletePolicy?: string) =>
  [
    'apiVersion: batch/v1',
    'kind: Job',
    'metadata:',
    `  name: ${name}`,
    '  annotations:',
    `    helm.sh/hook: ${hook}`,
    `    helm.sh/hook-weight: "${weight}"`,
    ...(deletePolicy ? [`    helm.sh/hook-delete-policy: ${deletePolicy}`] : []),
    'spec:',
    '  template:',
    '    spec:',
    '      restartPolicy: Never',
    '      containers:',
    '        - name: run',
    '          image: busybox',
    '          args: ["echo", "{{ .Values.version }}"]',
    '',
  ].join('\n');

const chart = (version: string, extra: boolean) => ({
  'hooked/Chart.yaml': 'apiVersion: v2\nname: hooked\nversion: 0.1.0\n',
  'hooked/values.yaml': `version: "${version}"\nextra: ${extra}\n`,
  'hooked/templates/app.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  version: {{ .Values.version | quote }}\n' +
    '{{- if .Values.extra }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n{{- end }}\n',
  'hooked/templates/pre-config.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pre-config\n  annotations:\n    helm.sh/hook: pre-install,pre-upgrade\n    helm.sh/hook-weight: "-5"\ndata:\n  version: {{ .Values.version | quote }}\n',
  'hooked/templates/pre-job.yaml': hookJob('pre-job', 'pre-install', 0, 'hook-succeeded'),
  'hooked/templates/upgrade-job.yaml': hookJob(
    'upgrade-job',
    'pre-upgrade',
    0,
    'before-hook-creation,hook-failed',
  ),
  'hooked/templates/post-job.yaml': hookJob('post-job', 'post-install,post-upgrade', 0),
  'hooked/templates/smoke.yaml':
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: smoke\n  annotations:\n    helm.sh/hook: test\nspec:\n  containers:\n    - name: t\n      image: busybox\n',
});

const jobs = { apiVersion: 'batch/v1', plural: 'jobs' };
interface Job extends Live {
  status?: { conditions?: Array<{ type: string }> };
}

/** What the watcher saw when a hook Job appeared: its name, and whether `app` and `pre-config` existed. */
interface Seen {
  job: string;
  uid: string;
  app?: string;
  preConfig: boolean;
}

/** Plays the Job controller for hook Jobs in `ns`: completes each as it appears, or fails those in `failing`. */
function jobController(ns: string, failing: ReadonlySet<string> = new Set()) {
  const seen: Seen[] = [];
  let stop = false;
  const done = new Set<string>();
  const at = { lastProbeTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' };
  const loop = (async () => {
    while (!stop) {
      const list = await client.get<{ items: Job[] }>(resourcePath({ ...jobs, namespace: ns }));
      for (const job of list.items) {
        // A Job another watcher finished before is not a new hook run.
        const finished = job.status?.conditions?.some((c) => c.type === 'Complete' || c.type === 'Failed');
        if (done.has(job.metadata.uid) || finished) continue;
        done.add(job.metadata.uid);
        const app = await getLive(client, configMaps, 'app', ns);
        const preConfig = (await getLive(client, configMaps, 'pre-config', ns)) !== undefined;
        seen.push({
          job: job.metadata.name,
          uid: job.metadata.uid,
          preConfig,
          ...(app ? { app: (app as unknown as { data: { version: string } }).data.version } : {}),
        });
        const fail = failing.has(job.metadata.name);
        const status = fail
          ? {
              startTime: at.lastTransitionTime,
              failed: 1,
              conditions: [
                {
                  type: 'FailureTarget',
                  status: 'True',
                  reason: 'BackoffLimitExceeded',
                  message: 'boom',
                  ...at,
                },
                { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'boom', ...at },
              ],
            }
          : {
              startTime: at.lastTransitionTime,
              completionTime: at.lastTransitionTime,
              succeeded: 1,
              conditions: [
                { type: 'SuccessCriteriaMet', status: 'True', ...at },
                { type: 'Complete', status: 'True', ...at },
              ],
            };
        await client.request(
          'PATCH',
          resourcePath({ ...jobs, namespace: ns, name: job.metadata.name, subresource: 'status' }),
          { body: { status }, contentType: 'application/merge-patch+json' },
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    seen,
    stop: async () => {
      stop = true;
      await loop;
    },
  };
}

async function withJobs<T>(ns: string, run: () => Promise<T>, failing?: ReadonlySet<string>) {
  const controller = jobController(ns, failing);
  try {
    return { result: await run(), seen: controller.seen };
  } finally {
    await controller.stop();
  }
}

describe('spec.helm.hooks: Run', () => {
  it('runs pre hooks by weight before the chart, post hooks after it, pre-upgrade on an upgrade; a failed pre-upgrade hook applies and prunes nothing', async () => {
    const ns = await freshNamespace(client, 'helm-hooks');
    const repo = createRepo(server, uniqueName('helm-hooks'));
    commit(repo, chart('1', true), 'hooked chart');
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main', helm: { chart: 'hooked', hooks: 'Run' } },
      { name: 'hooked' },
    );

    // Install: pre-config (weight -5) then pre-job (0), then the chart's objects, then post-job.
    const install = await withJobs(ns, () => e.run(track));
    expect(install.result.errors).toEqual([]);
    expect(install.result.result).toBe('Succeeded');
    expect(install.seen.map(({ job, app, preConfig }) => ({ job, app, preConfig }))).toEqual([
      { job: 'pre-job', preConfig: true },
      { job: 'post-job', app: '1', preConfig: true },
    ]);
    // hook-succeeded deleted pre-job; post-job (before-hook-creation) stays; the test Pod never ran.
    expect(await getLive(client, jobs, 'pre-job', ns)).toBeUndefined();
    const postJob = await getLive(client, jobs, 'post-job', ns);
    expect(postJob?.metadata.uid).toBe(install.seen[1]?.uid);
    expect(await getLive(client, { apiVersion: 'v1', plural: 'pods' }, 'smoke', ns)).toBeUndefined();
    // Hooks are the track's (its label) but nobody's dependents, and have no tracking object: never pruned.
    const preConfig = await getLive(client, configMaps, 'pre-config', ns);
    expect(preConfig?.metadata.labels?.['lightkeeper.dev/track-uid']).toBeDefined();
    expect(preConfig?.metadata.ownerReferences).toBeUndefined();
    expect(postJob?.metadata.ownerReferences).toBeUndefined();
    const trackers = await client.get<{ items: Array<{ spec: { target: { name: string } } }> }>(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    );
    expect(trackers.items.map((t) => t.spec.target.name).sort()).toEqual(['app', 'extra']);
    const status = await trackStatus(client, track);
    expect(status.conditions.find((c) => c.type === 'Parsed')?.message).toBe(
      '2 objects rendered by helm from hooked (release hooked in ' +
        `${ns}); hooks run in order: pre-install ConfigMap/pre-config, Job/pre-job; then post-install Job/post-job; ` +
        '2 hooks not run: Pod/smoke (test), Job/upgrade-job (pre-upgrade)',
    );

    // The same release again (a sweep): no hook runs, nothing written.
    const again = await withJobs(ns, () => e.run(track, { mode: 'drift', reason: 'sweep' }));
    expect(again.result).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });
    expect(again.seen).toEqual([]);

    // Upgrade: pre-upgrade hooks (pre-config recreated, upgrade-job), never pre-install's pre-job.
    commit(repo, chart('2', true), 'version 2');
    const upgrade = await withJobs(ns, () => e.run(track));
    expect(upgrade.result.errors).toEqual([]);
    expect(upgrade.result.result).toBe('Succeeded');
    expect(upgrade.seen.map(({ job, app }) => ({ job, app }))).toEqual([
      { job: 'upgrade-job', app: '1' },
      { job: 'post-job', app: '2' },
    ]);
    const recreated = await getLive(client, configMaps, 'pre-config', ns);
    expect(recreated?.metadata.uid).not.toBe(preConfig?.metadata.uid);
    expect((recreated as unknown as { data: { version: string } }).data.version).toBe('2');
    expect((await getLive(client, jobs, 'post-job', ns))?.metadata.uid).toBe(upgrade.seen[1]?.uid);

    // A failing pre-upgrade hook: the chart's objects stay at 2, `extra` (gone from the chart) is
    // not pruned, no post hook runs, Ready names the hook; hook-failed deletes the failed Job.
    commit(repo, chart('3', false), 'version 3 without extra');
    const failed = await withJobs(ns, () => e.run(track), new Set(['upgrade-job']));
    expect(failed.result.result).toBe('Failed');
    expect(failed.result.errors).toEqual([
      `pre-upgrade hook Job.batch/${ns}/upgrade-job failed: Job Failed. failed: 1/1: boom`,
      `ConfigMap/${ns}/app: not applied: the pre-upgrade hooks failed`,
    ]);
    expect(failed.result.counts).toMatchObject({ applied: 0, pruned: 0, failed: 1 });
    expect(failed.seen.map((s) => s.job)).toEqual(['upgrade-job']);
    const app = await getLive(client, configMaps, 'app', ns);
    expect((app as unknown as { data: { version: string } }).data.version).toBe('2');
    expect(await getLive(client, configMaps, 'extra', ns)).toBeDefined();
    expect((await getLive(client, jobs, 'post-job', ns))?.metadata.uid).toBe(upgrade.seen[1]?.uid);
    expect(await getLive(client, jobs, 'upgrade-job', ns)).toBeUndefined();
    const ready = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({
      status: 'False',
      message: expect.stringContaining('pre-upgrade hook Job.batch'),
    });

    // Once the hook passes, the release goes on: applied, `extra` pruned, post hook run.
    const retried = await withJobs(ns, () => e.run(track));
    expect(retried.result.errors).toEqual([]);
    expect(retried.seen.map((s) => s.job)).toEqual(['upgrade-job', 'post-job']);
    expect(await getLive(client, configMaps, 'extra', ns)).toBeUndefined();
  });

  it("refuses a GitTrack's hook in another namespace, and never deletes an object of the hook's name that is not its own", async () => {
    const ns = await freshNamespace(client, 'helm-hooks-own');
    const repo = createRepo(server, uniqueName('helm-hooks-own'));
    const { 'hooked/templates/pre-job.yaml': _job, ...files } = chart('1', false);
    commit(repo, files, 'hooked chart without its pre-install Job');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      helm: { chart: 'hooked', hooks: 'Run' },
    });
    // Somebody's own pre-config is there first: the hook's before-hook-creation must not delete it.
    await client.request('POST', resourcePath({ ...configMaps, namespace: ns }), {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pre-config' }, data: { mine: 'yes' } },
    });
    const refused = await e.run(track);
    expect(refused.result).toBe('Failed');
    expect(refused.errors.join()).toMatch(
      new RegExp(
        `pre-install hook ConfigMap/${ns}/pre-config failed: ConfigMap/${ns}/pre-config exists and is not a hook of this track`,
      ),
    );
    expect(refused.changes).toEqual([
      expect.objectContaining({ subject: `ConfigMap/${ns}/app`, action: 'failed' }),
    ]);
    expect(await getLive(client, configMaps, 'app', ns)).toBeUndefined();
    expect((await getLive(client, configMaps, 'pre-config', ns))?.metadata.labels).toBeUndefined();

    const hook = files['hooked/templates/pre-config.yaml'].replace(
      '  name: pre-config\n',
      '  name: pre-config\n  namespace: kube-system\n',
    );
    commit(repo, { 'hooked/templates/pre-config.yaml': hook }, 'the hook in kube-system');
    const elsewhere = await e.run(track);
    expect(elsewhere.result).toBe('Failed');
    expect(elsewhere.errors).toEqual([
      'pre-install hooks not run: ConfigMap/kube-system/pre-config: namespace kube-system is not managed by this GitTrack',
      `ConfigMap/${ns}/app: not applied: the pre-install hooks failed`,
    ]);
    expect(await getLive(client, configMaps, 'pre-config', 'kube-system')).toBeUndefined();
    expect(await getLive(client, configMaps, 'app', ns)).toBeUndefined();
  });

  it('renders the hooks `helm template` renders, object for object', async () => {
    const root = join(scratch, 'oracle');
    for (const [path, content] of Object.entries(chart('1', true))) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const capabilities = await readHelmCapabilities(client, await new Discovery(client).refresh());
    const release = {
      chart: 'hooked',
      releaseName: 'hooked',
      namespace: 'apps',
      valuesFiles: [],
      values: {},
      valuesFrom: [],
    };
    const render = await renderHelmChart({
      source: { kind: 'local', dir: root },
      release,
      capabilities,
      isUpgrade: false,
    });
    expect(render.errors).toEqual([]);
    const ours = render.chartHooks.flatMap((h) => objectsOf(h.path, h.yaml));
    const theirs = (
      await helmTemplate({
        release: 'hooked',
        chartDir: join(root, 'hooked'),
        namespace: 'apps',
        valuesFiles: [],
        capabilities,
      })
    ).filter((o) => o.hook);
    const byKey = (objects: typeof ours) => new Map(objects.map((o) => [o.key, o]));
    expect([...byKey(ours).keys()].sort()).toEqual([...byKey(theirs).keys()].sort());
    for (const o of ours) {
      expect(o.object, o.key).toEqual(byKey(theirs).get(o.key)?.object);
      expect(o.source, o.key).toBe(byKey(theirs).get(o.key)?.source);
    }
    expect(render.chartHooks.find((h) => h.name === 'upgrade-job')).toMatchObject({
      events: ['pre-upgrade'],
      weight: 0,
      deletePolicies: ['before-hook-creation', 'hook-failed'],
    });
  });
});
