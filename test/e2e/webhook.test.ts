import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../lib/kube/loadKubeConfig';
import { createLambdaClient } from '../../lib/lambda/lambdaClient';
import { commit, createRepo, type TestRepo } from '../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../lib/localstack/gitServer';
import { deliveryHeaders, pingPayload, pushPayload } from '../../lib/localstack/pushPayload';
import { type OfflineStack, startServerlessOffline } from '../../lib/localstack/serverlessOffline';
import { provisionSweepIdentity } from '../../lib/localstack/sweepIdentity';
import type { TrackReaderIdentity } from '../../lib/localstack/trackReaderIdentity';
import {
  provisionWebhookIdentity,
  type WebhookIdentity,
  webhookUser,
} from '../../lib/localstack/webhookIdentity';
import { eventually, freshNamespace, kubeClient, kubeconfig } from '../support/cluster';
import { grant } from '../support/tenancy';

// The functions as deployed (bundled by serverless-esbuild) behind serverless-offline, the real
// control plane and a real git server; GitHub's own example push payloads, re-pointed and signed.

const secret = 'e2e-webhook-secret';
const run = promisify(execFile);
const cliPath = join(import.meta.dirname, '..', '..', 'bin', 'lightkeeper.mjs');
const configMap = (name: string, value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  value: "${value}"\n`;

let client: KubeClient;
let namespace: string;
let server: GitServer;
let repo: TestRepo;
let stack: OfflineStack;
let identityDir: string | undefined;
let webhookIdentity: WebhookIdentity;
let sweepIdentity: TrackReaderIdentity;
const commits: string[] = [];

async function deliver(body: string, headers: Record<string, string>) {
  const res = await fetch(stack.webhookUrl, { method: 'POST', body, headers });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function push(after: string, change: Parameters<typeof pushPayload>[1] = {}) {
  const body = JSON.stringify(
    pushPayload('branch-created', { url: repo.url, ref: 'refs/heads/main', after, ...change }),
  );
  return deliver(body, await deliveryHeaders(body, secret));
}

const cmPath = (name: string) => `/api/v1/namespaces/${namespace}/configmaps/${name}`;
const cmValue = async (name: string) =>
  (await client.find<{ data?: { value?: string } }>(cmPath(name)))?.data?.value;
/**
 * Reconcile invocations of GitTrack `app` that finished so far (ran, or coalesced into the one
 * waiting), from the reconcile function's JSON logs.
 */
const appReconciles = () =>
  stack
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{"level"') && line.endsWith('}'))
    .map(
      (line) =>
        JSON.parse(line) as { message?: string; track?: string | { namespace?: string; name?: string } },
    )
    .filter(
      (r) =>
        (r.message === 'reconciled' || r.message === 'coalesced' || r.message === 'served already') &&
        // The summary names the track as an object; other lines carry the logger's `Kind/ns/name`.
        (typeof r.track === 'string'
          ? r.track === `GitTrack/${namespace}/app`
          : r.track?.namespace === namespace && r.track.name === 'app'),
    ).length;
/** Full reconciles of GitTrack `app` so far. */
const appFullReconciles = () =>
  stack
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{"level"') && line.endsWith('}'))
    .map((line) => JSON.parse(line) as { message?: string; track?: { namespace?: string; name?: string } })
    .filter((r) => r.message === 'reconciled' && r.track?.namespace === namespace && r.track.name === 'app')
    .length;
const trackStatus = async () =>
  (
    await client.get<{ status?: { lastAppliedCommit?: string } }>(
      `/apis/lightkeeper.dev/v1alpha1/namespaces/${namespace}/gittracks/app`,
    )
  ).status;

beforeAll(async () => {
  client = await kubeClient();
  namespace = await freshNamespace(client, 'e2e');
  server = await startGitServer();
  repo = createRepo(server, 'gitops');
  commits.push(
    commit(
      repo,
      { 'app/config.yaml': configMap('config', 'v1'), 'app/extra.yaml': configMap('extra', 'x') },
      'one',
    ),
  );
  await grant(client, namespace, { clusterRole: 'edit' });
  for (const [name, subPath] of [
    ['app', 'app'],
    ['other', 'other'],
  ]) {
    await client.request('POST', `/apis/lightkeeper.dev/v1alpha1/namespaces/${namespace}/gittracks`, {
      body: {
        apiVersion: 'lightkeeper.dev/v1alpha1',
        kind: 'GitTrack',
        metadata: { name },
        spec: { repository: repo.url, reference: 'main', subPath },
      },
    });
  }
  // The control plane is shared with other test files: this deployment serves only this file's
  // namespace, as a namespace-restricted lightkeeper would, so its sweep sees only these tracks.
  // The webhook and the sweep list tracks as the shipped restricted identities
  // (infra/rbac/webhook.yaml, infra/rbac/sweep.yaml: get/list/watch tracks only), each with a token
  // of its ServiceAccount; only the reconcile function uses the admin kubeconfig.
  identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-e2e-webhook-'));
  webhookIdentity = await provisionWebhookIdentity(client, kubeconfig(), identityDir);
  sweepIdentity = await provisionSweepIdentity(client, kubeconfig(), identityDir);
  stack = await startServerlessOffline({
    kubeconfig: kubeconfig(),
    webhookKubeconfig: webhookIdentity.kubeconfig,
    sweepKubeconfig: sweepIdentity.kubeconfig,
    webhookSecret: secret,
    env: { LIGHTKEEPER_NAMESPACE: namespace, CLUSTERGITTRACK_MODE: 'Disabled' },
  });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await server?.close();
  await client?.request('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => {});
  await client?.close();
  if (identityDir) rmSync(identityDir, { recursive: true, force: true });
});

describe('webhook through serverless-offline', () => {
  it('rejects or ignores bad deliveries without invoking anything', async () => {
    const body = JSON.stringify(pushPayload('branch-created', { url: repo.url, ref: 'refs/heads/main' }));
    const good = await deliveryHeaders(body, secret);
    const { 'x-hub-signature-256': _, ...unsigned } = good;
    const sha1 = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
    const big = JSON.stringify({ pad: 'x'.repeat(5 * 1024 * 1024) });
    const tagDeleted = JSON.stringify(pushPayload('tag-deleted', { url: repo.url }));
    const ping = JSON.stringify(pingPayload());
    const issue = JSON.stringify({ action: 'opened' });
    const cases: Array<[string, string, Record<string, string>, number]> = [
      ['forged', body, await deliveryHeaders(body, 'not-the-secret'), 401],
      ['unsigned', body, unsigned, 401],
      ['sha1 only', body, { ...unsigned, 'x-hub-signature': sha1 }, 401],
      ['oversized', big, await deliveryHeaders(big, secret), 413],
      ['malformed', '{"ref":', await deliveryHeaders('{"ref":', secret), 400],
      ['ping', ping, await deliveryHeaders(ping, secret, 'ping'), 200],
      ['not a push', issue, await deliveryHeaders(issue, secret, 'issues'), 202],
      ['tag deletion', tagDeleted, await deliveryHeaders(tagDeleted, secret), 202],
    ];
    for (const [what, payload, headers, status] of cases) {
      expect((await deliver(payload, headers)).status, what).toBe(status);
    }
    // Time passing is the point: no reconcile may start; there is no event to wait for instead.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(stack.output()).not.toContain('(λ: reconcile)');
    expect(await trackStatus()).toBeUndefined();
  });

  it('gives the webhook an identity that reads tracks and nothing else', async () => {
    const webhookClient = await kubeClientFromFile(webhookIdentity.kubeconfig);
    try {
      const review = await webhookClient.request<{ status: { userInfo: { username: string } } }>(
        'POST',
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
      );
      expect(review.status.userInfo.username).toBe(webhookUser);
      const tracks = await webhookClient.get<{ items: unknown[] }>(
        `/apis/lightkeeper.dev/v1alpha1/namespaces/${namespace}/gittracks`,
      );
      expect(tracks.items).toHaveLength(2);
      await expect(webhookClient.get(`/api/v1/namespaces/${namespace}/configmaps`)).rejects.toMatchObject({
        status: 403,
      });
    } finally {
      await webhookClient.close();
    }
  });

  it('applies a push to the tracks it concerns', async () => {
    const res = await push(commits[0]!, { touched: { added: ['app/config.yaml', 'app/extra.yaml'] } });
    expect(res).toEqual({
      status: 202,
      json: {
        triggered: [`GitTrack/${namespace}/app`],
        skipped: [{ track: `GitTrack/${namespace}/other`, reason: 'no file under other/ changed' }],
      },
    });
    await eventually(
      'the push is applied',
      async () => (await trackStatus())?.lastAppliedCommit === commits[0],
    );
    expect(await cmValue('config')).toBe('v1');
    expect(await cmValue('extra')).toBe('x');
    // Exactly one reconcile so far: none of the rejected deliveries of the previous test started one.
    await eventually('the reconcile reported', async () => stack.finished('reconcile') >= 1);
    expect(stack.finished('reconcile')).toBe(1);
  });

  it('prunes what a push removed', async () => {
    commits.push(commit(repo, { 'app/extra.yaml': null, 'app/more.yaml': configMap('more', 'm') }, 'two'));
    const res = await push(commits[1]!, {
      before: commits[0],
      touched: { added: ['app/more.yaml'], removed: ['app/extra.yaml'] },
    });
    expect(res.status).toBe(202);
    // The status is written after the prune: wait for the run to have recorded the commit too.
    await eventually(
      'the push is applied',
      async () => (await trackStatus())?.lastAppliedCommit === commits[1],
    );
    expect(await cmValue('extra')).toBeUndefined();
    expect(await cmValue('more')).toBe('m');
  });

  it('corrects an edited and a deleted child with one sweep, which lists tracks as its read-only identity', async () => {
    expect(sweepIdentity.user).toBe('system:serviceaccount:lightkeeper-system:lightkeeper-sweep');
    await client.request('PATCH', cmPath('config'), {
      body: { data: { value: 'edited by hand' } },
      contentType: 'application/merge-patch+json',
    });
    await client.request('DELETE', cmPath('more'));
    const lambda = createLambdaClient({ endpoint: stack.lambdaEndpoint });

    const out = await lambda.send(
      new InvokeCommand({
        FunctionName: stack.functionName('sweep'),
        Payload: new TextEncoder().encode('{}'),
      }),
    );
    expect(out.FunctionError).toBeUndefined();
    // The control plane is shared with the other test files, whose tracks the sweep starts too.
    const result = JSON.parse(new TextDecoder().decode(out.Payload)) as {
      started: number;
      failed: unknown[];
    };
    expect(result.failed).toEqual([]);
    expect(result.started).toBeGreaterThanOrEqual(2);
    await eventually(
      'the drift reconcile corrected both children',
      async () => (await cmValue('config')) === 'v1' && (await cmValue('more')) === 'm',
    );
    lambda.destroy();
  });

  it('replays an older commit with `lightkeeper replay` through Lambda Invoke', async () => {
    const replay = (...args: string[]) =>
      run(
        process.execPath,
        [cliPath, 'replay', ...args, '--function', stack.functionName('reconcile')].concat([
          '--endpoint',
          stack.lambdaEndpoint,
          '--region',
          'us-east-1',
        ]),
        // The pin is written with the caller's kubeconfig, before the function applies the commit.
        {
          env: {
            ...process.env,
            KUBECONFIG: kubeconfig(),
            AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          },
        },
      );
    const { stdout } = await replay('gittrack/app', '-n', namespace, '--commit', commits[0]!, '-o', 'json');
    expect(JSON.parse(stdout)).toMatchObject({
      result: 'Succeeded',
      commit: commits[0],
      mode: 'apply',
      pin: { commit: commits[0], head: commits[1] },
    });
    expect(await cmValue('extra')).toBe('x');
    expect((await trackStatus())?.lastAppliedCommit).toBe(commits[0]);

    // A push while pinned still triggers a reconcile: it keeps the pin and warns about the head.
    const before = appReconciles();
    const pushed = await push(commits[1]!, { before: commits[0], touched: { removed: ['app/extra.yaml'] } });
    expect(pushed.json).toMatchObject({ triggered: [`GitTrack/${namespace}/app`] });
    await eventually('the pinned push reconciled', async () => appReconciles() > before);
    expect(await cmValue('extra')).toBe('x');
    expect((await trackStatus())?.lastAppliedCommit).toBe(commits[0]);
    const events = await client.get<{ items: Array<{ reason: string; message: string }> }>(
      `/api/v1/namespaces/${namespace}/events`,
      { query: { fieldSelector: 'involvedObject.name=app,type=Warning' } },
    );
    expect(events.items).toContainEqual(
      expect.objectContaining({
        reason: 'PinnedBehindHead',
        message: expect.stringContaining(`pinned at ${commits[0]} by `),
      }),
    );

    // Unpinned again, so the pushes below are applied.
    await run(process.execPath, [cliPath, 'unpin', 'gittrack/app', '-n', namespace], {
      env: { ...process.env, KUBECONFIG: kubeconfig() },
    });

    const missing = await replay('gittrack/absent', '-n', namespace).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^lightkeeper: .* failed for GitTrack\/[^ ]+\/absent/),
    });
  });

  it('ends with the newest head after concurrent, out-of-order pushes', async () => {
    const heads = ['v3', 'v4', 'v5'].map((v) =>
      commit(repo, { 'app/config.yaml': configMap('config', v) }, v),
    );
    // Count only this track's reconciles: the sweep above also started one of the other track.
    const before = appReconciles();
    const responses = await Promise.all(
      [...heads].reverse().map((sha) => push(sha, { touched: { modified: ['app/config.yaml'] } })),
    );
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202]);
    await eventually('all three reconciles finished', async () => appReconciles() >= before + 3, 120_000);
    expect((await trackStatus())?.lastAppliedCommit).toBe(heads[2]);
    expect(await cmValue('config')).toBe('v5');
  });

  it('serves ten concurrent copies of one signed delivery with one reconcile, and a later copy with none', async () => {
    const head = commit(repo, { 'app/config.yaml': configMap('config', 'copies') }, 'copies');
    const body = JSON.stringify(
      pushPayload('branch-created', {
        url: repo.url,
        ref: 'refs/heads/main',
        after: head,
        touched: { modified: ['app/config.yaml'] },
      }),
    );
    const headers = await deliveryHeaders(body, secret);
    const delivery = headers['x-github-delivery'] as string;
    const [finished, full] = [appReconciles(), appFullReconciles()];
    const copies = await Promise.all(Array.from({ length: 10 }, () => deliver(body, headers)));
    expect(copies.map((c) => c.status)).toEqual(Array(10).fill(202));
    // A copy arriving after the run finished is answered by the webhook itself (no invocation).
    const app = `GitTrack/${namespace}/app`;
    const invoked = copies.filter((c) => (c.json.triggered as string[]).includes(app)).length;
    const answered = copies.filter((c) =>
      (c.json.skipped as Array<{ track: string; reason: string }>).some(
        (s) => s.track === app && s.reason === `delivery ${delivery} was already served`,
      ),
    ).length;
    expect(invoked + answered).toBe(10);
    await eventually(
      'every invoked copy was answered by the reconcile function',
      async () => appReconciles() >= finished + invoked,
      120_000,
    );
    expect((await trackStatus())?.lastAppliedCommit).toBe(head);
    expect(await cmValue('config')).toBe('copies');
    // One ran; the one that waited for the lease found the delivery served; the rest coalesced.
    expect(appFullReconciles() - full).toBe(1);

    const later = await deliver(body, headers);
    expect(later).toMatchObject({ status: 202, json: { triggered: [] } });
    expect(later.json.skipped).toContainEqual({
      track: `GitTrack/${namespace}/app`,
      reason: `delivery ${delivery} was already served`,
    });
    // Another delivery of the applied commit costs no reconcile either.
    const again = await push(head, { touched: { modified: ['app/config.yaml'] } });
    expect(again.json.skipped).toContainEqual({
      track: `GitTrack/${namespace}/app`,
      reason: `already applied ${head.slice(0, 7)} at its current generation`,
    });
  });
});
