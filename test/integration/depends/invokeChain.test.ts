import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { runReconcile } from '../../../lib/lambda/invokeReconcile';
import { createLambdaClient } from '../../../lib/lambda/lambdaClient';
import { commit, createRepo, type TestRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { deliveryHeaders, pushPayload } from '../../../lib/localstack/pushPayload';
import { type OfflineStack, startServerlessOffline } from '../../../lib/localstack/serverlessOffline';
import { provisionWebhookIdentity } from '../../../lib/localstack/webhookIdentity';
import type { ReconcileSummary } from '../../../lib/reconcile/types';
import type { TrackRef } from '../../../lib/track/trackRef';
import { eventually, freshNamespace, kubeClient, kubeconfig, uniqueName } from '../../support/cluster';
import { createClusterGitTrack, createGitTrack, trackStatus } from '../../support/engine';
import { type Widgets, widgets } from './widgets';

// The dependency chain through the functions as deployed (serverless-offline, the Lambda Invoke
// API, the real control plane and git server): a dependency that becomes Ready invokes its
// dependents, and a dependent held back by a dependency behind its reference invokes that one,
// so a push converges in one chain of invocations. The test only starts the chain and watches.

const secret = 'depends-webhook-secret';
let client: KubeClient;
let server: GitServer;
let stack: OfflineStack;
let lambda: LambdaClient;
let identityDir: string;
let namespace: string;
let repo: TestRepo;
let w: Widgets;
let crds: TrackRef;
let app: TrackRef;

interface ReconcileLog {
  message?: string;
  reason?: string;
  result?: string;
  commit?: string;
  track?: TrackRef;
}

/** The reconcile function's `reconciled` log records of `track`, in order. */
const reconciles = (track: TrackRef) =>
  stack
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{"level"') && line.endsWith('}'))
    .map((line) => JSON.parse(line) as ReconcileLog)
    .filter((r) => r.message === 'reconciled' && r.track?.kind === track.kind && r.track.name === track.name);

beforeAll(async () => {
  client = await kubeClient();
  namespace = await freshNamespace(client, 'depchain');
  server = await startGitServer();
  repo = createRepo(server, uniqueName('depchain'));
  w = widgets(client);
  await w.allow(namespace);
  identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-depends-'));
  const webhookIdentity = await provisionWebhookIdentity(client, kubeconfig(), identityDir);
  stack = await startServerlessOffline({
    kubeconfig: kubeconfig(),
    webhookKubeconfig: webhookIdentity.kubeconfig,
    webhookSecret: secret,
  });
  lambda = createLambdaClient({ endpoint: stack.lambdaEndpoint });
}, 600_000);

afterAll(async () => {
  lambda?.destroy();
  await stack?.stop();
  await server?.close();
  await w?.remove();
  await client?.request('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => {});
  await client?.close();
  if (identityDir) rmSync(identityDir, { recursive: true, force: true });
});

describe('dependsOn through the reconcile function', () => {
  it('an app track reports DependencyNotReady, then the CRD track, once Ready, invokes it', async () => {
    const first = commit(
      repo,
      { 'crds/widget.yaml': w.crdYaml, 'app/widget.yaml': w.widgetYaml('one', namespace, 1) },
      'a CRD and a custom resource of it',
    );
    crds = await createClusterGitTrack(client, { repository: repo.url, reference: 'main', subPath: 'crds' });
    app = await createGitTrack(client, namespace, {
      repository: repo.url,
      reference: 'main',
      subPath: 'app',
      dependsOn: [{ kind: 'ClusterGitTrack', name: crds.name }],
    });

    const held = (await runReconcile(lambda, stack.functionName('reconcile'), {
      track: app,
      mode: 'apply',
      reason: 'test',
    })) as ReconcileSummary;
    expect(held).toMatchObject({
      result: 'Waiting',
      waitingFor: [{ track: crds, reason: 'not reconciled yet' }],
    });
    const status = await trackStatus(client, app);
    expect(status.conditions.find((c) => c.type === 'Ready')).toMatchObject({ reason: 'DependencyNotReady' });
    expect(await w.widget('one', namespace)).toBeUndefined();

    // Only the CRD track is started; the app follows by itself.
    const ready = (await runReconcile(lambda, stack.functionName('reconcile'), {
      track: crds,
      mode: 'apply',
      reason: 'test',
    })) as ReconcileSummary;
    expect(ready).toMatchObject({ result: 'Succeeded', commit: first, dependents: [{ track: app }] });
    await eventually(
      'the app applied by the chain',
      async () => (await trackStatus(client, app)).lastAppliedCommit === first,
    );
    expect((await w.widget('one', namespace))?.spec?.size).toBe(1);
    await eventually('the chained run logged', async () => reconciles(app).length >= 2);
    const appRuns = reconciles(app);
    expect(appRuns.map((r) => r.result)).toEqual(['Waiting', 'Succeeded']);
    expect(appRuns[1]?.reason).toBe(`ClusterGitTrack/${crds.name} Ready at ${first} (test)`);
  });

  it('a push that touches only the app applies it at once: the CRD track, its folder unchanged, counts as at the push', async () => {
    const second = commit(repo, { 'app/widget.yaml': w.widgetYaml('one', namespace, 2) }, 'a bigger widget');
    const body = JSON.stringify(
      pushPayload('branch-created', {
        url: repo.url,
        ref: 'refs/heads/main',
        after: second,
        touched: { modified: ['app/widget.yaml'] },
      }),
    );
    const res = await fetch(stack.webhookUrl, {
      method: 'POST',
      body,
      headers: await deliveryHeaders(body, secret),
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({
      triggered: [`GitTrack/${namespace}/${app.name}`],
      skipped: [{ track: `ClusterGitTrack/${crds.name}` }],
    });
    const started = Date.now();
    await eventually(
      'the app at the pushed commit',
      async () => (await trackStatus(client, app)).lastAppliedCommit === second,
    );
    const converged = Date.now() - started;
    expect((await w.widget('one', namespace))?.spec?.size).toBe(2);
    // crds/ is the same tree at the commit the CRD track applied and at the push: no reconcile of it.
    expect((await trackStatus(client, crds)).lastAppliedCommit).not.toBe(second);
    await eventually('the app run logged', async () => reconciles(app).length >= 3);
    expect(
      reconciles(app)
        .slice(2)
        .map((r) => [r.result, r.commit]),
    ).toEqual([['Succeeded', second]]);
    expect(reconciles(crds)).toHaveLength(1);
    console.log(`push touching only the app → applied in one invocation, ${converged} ms`);
  });

  it('a push that adds a CRD and a resource of it, to both tracks at once, converges whichever runs first', async () => {
    const third = commit(
      repo,
      { 'crds/gadget.yaml': w.gadgetCrdYaml, 'app/gadget.yaml': w.gadgetYaml('first', namespace) },
      'a new kind and a resource of it',
    );
    const body = JSON.stringify(
      pushPayload('branch-created', {
        url: repo.url,
        ref: 'refs/heads/main',
        after: third,
        touched: { added: ['crds/gadget.yaml', 'app/gadget.yaml'] },
      }),
    );
    const res = await fetch(stack.webhookUrl, {
      method: 'POST',
      body,
      headers: await deliveryHeaders(body, secret),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { triggered: string[] }).triggered.sort()).toEqual(
      [`ClusterGitTrack/${crds.name}`, `GitTrack/${namespace}/${app.name}`].sort(),
    );
    const started = Date.now();
    await eventually(
      'the app at the pushed commit',
      async () => (await trackStatus(client, app)).lastAppliedCommit === third,
    );
    expect(await w.gadget('first', namespace)).toBeDefined();
    // The app never tried the commit before its CRD was there: no run of it failed.
    await eventually('the app runs logged', async () => reconciles(app).some((r) => r.commit === third));
    expect(reconciles(app).filter((r) => r.result === 'Failed')).toEqual([]);
    const runs = reconciles(app)
      .slice(3)
      .map((r) => `${r.result} (${r.reason})`);
    console.log(
      `push to both tracks → app applied in ${Date.now() - started} ms; app runs: ${runs.join(', ')}`,
    );
  });
});
