// Push to applied: what a user waits for after `git push`. One file changed in a repository whose
// 2,000 objects are already applied; a signed push delivered to the webhook of the local stack
// (serverless-offline); the reconcile function started in a fresh process as a Lambda cold start
// (import included, empty /tmp so an empty clone cache); done when the changed object carries the
// new value in the API server. The breakdown comes from the invocation's request timeline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../lib/kube/kubeClient';
import { deliverPush } from '../lib/localstack/deliverPush';
import { commit, type TestRepo } from '../lib/localstack/gitRepo';
import { deliveryHeaders, pingPayload } from '../lib/localstack/pushPayload';
import { startServerlessOffline } from '../lib/localstack/serverlessOffline';
import { provisionWebhookIdentity } from '../lib/localstack/webhookIdentity';
import type { OneChange } from './changeOneObject';
import { startColdLambda } from './coldLambda';
import type { ColdInvocation, TimedRequest } from './coldReconcileChild';

export interface PushToApplied {
  /** ms from sending the push until the changed object carried the new value. */
  totalMs: number;
  /** The webhook's answer to the delivery (it has queued the reconcile by then). */
  webhookMs: number;
  /** From the Invoke reaching the (cold) Lambda until the function's bundle starts importing. */
  invokeMs: number;
  /** The bundle's import: Lambda's init phase. */
  initMs: number;
  /** Handler start until the first git request: the track, its lease and credentials. */
  prepareMs: number;
  fetchMs: number;
  /** After the fetch until the next request to the API server (parsing 2,000 files). */
  parseMs: number;
  /** Discovery and the labelled LISTs, until the first write of an object. */
  listMs: number;
  applyMs: number;
  /** The last object write until the handler returned (status, events, lease release). */
  statusMs: number;
  requests: { git: number; api: number };
}

const isObjectWrite = (r: TimedRequest) =>
  (r.method === 'PATCH' && !r.path.split('?')[0]!.endsWith('/status')) ||
  (r.method === 'POST' && !r.path.split('?')[0]!.endsWith('/events') && !r.path.includes('/leases'));

export function breakdown(
  sentAt: number,
  ackAt: number,
  appliedAt: number,
  receivedAt: number,
  inv: ColdInvocation,
): PushToApplied {
  const git = inv.git.filter((r) => r.end !== undefined);
  if (git.length === 0) throw new Error('the cold reconcile made no git request');
  const gitStart = Math.min(...git.map((r) => r.start));
  const gitEnd = Math.max(...git.map((r) => r.end!));
  const after = inv.api.filter(
    (r) => r.start >= gitEnd && !(r.method === 'POST' && r.path.includes('/events')),
  );
  const firstApi = after[0]?.start ?? gitEnd;
  const writes = after.filter(isObjectWrite);
  const applyStart = writes[0]?.start ?? firstApi;
  const applyEnd = Math.max(applyStart, ...writes.map((r) => r.end ?? r.start));
  return {
    totalMs: appliedAt - sentAt,
    webhookMs: ackAt - sentAt,
    invokeMs: inv.importStart - receivedAt,
    initMs: inv.importEnd - inv.importStart,
    prepareMs: gitStart - inv.handlerStart,
    fetchMs: gitEnd - gitStart,
    parseMs: firstApi - gitEnd,
    listMs: applyStart - firstApi,
    applyMs: applyEnd - applyStart,
    statusMs: inv.handlerEnd - applyEnd,
    requests: { git: inv.git.length, api: inv.api.length },
  };
}

async function waitForValue(client: KubeClient, change: OneChange, timeoutMs: number): Promise<number> {
  const path = `/api/v1/namespaces/${change.namespace}/configmaps/${change.name}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const cm = await client.get<{ data?: Record<string, string> }>(path);
    if (cm.data?.mode === change.value) return Date.now();
    if (Date.now() > deadline)
      throw new Error(`${change.namespace}/${change.name} never got the pushed value`);
    await sleep(20);
  }
}

export async function measurePushToApplied(options: {
  client: KubeClient;
  kubeconfig: string;
  repo: TestRepo;
  change: OneChange;
  reconcileBundle: string;
  coldChild: string;
  log: (line: string) => void;
}): Promise<PushToApplied> {
  const { client, kubeconfig, repo, change, log } = options;
  const identityDir = mkdtempSync(join(tmpdir(), 'lk-bench-webhook-identity-'));
  const lambda = await startColdLambda({
    bundle: options.reconcileBundle,
    child: options.coldChild,
    env: { KUBECONFIG: kubeconfig, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  try {
    const identity = await provisionWebhookIdentity(client, kubeconfig, identityDir);
    log('starting serverless-offline (the webhook), its Invoke pointed at a cold-start Lambda');
    const secret = 'bench-secret';
    const offline = await startServerlessOffline({
      kubeconfig,
      webhookKubeconfig: identity.kubeconfig,
      webhookSecret: secret,
      env: { LIGHTKEEPER_LAMBDA_ENDPOINT: lambda.endpoint },
    });
    try {
      // A ping first, so the webhook's own first import is not counted (its cold start is measured apart).
      const ping = JSON.stringify(pingPayload());
      await fetch(offline.webhookUrl, {
        method: 'POST',
        body: ping,
        headers: await deliveryHeaders(ping, secret, 'ping'),
      });
      commit(repo, change.files, 'push: one object changed');
      log(`push: ${Object.keys(change.files)[0]} changed, delivering the signed push`);
      const sentAt = Date.now();
      const push = await deliverPush({ repo, webhookUrl: offline.webhookUrl, secret });
      const ackAt = Date.now();
      if (push.status !== 202 || lambda.invocations.length !== 1) {
        throw new Error(
          `the webhook did not start one reconcile (${push.status}): ${JSON.stringify(push.body)}`,
        );
      }
      const appliedAt = await waitForValue(client, change, 180_000);
      const invocation = lambda.invocations[0]!;
      const timeline = await invocation.done;
      if (timeline.error) throw new Error(`the cold reconcile failed: ${timeline.error}`);
      return breakdown(sentAt, ackAt, appliedAt, invocation.receivedAt, timeline);
    } finally {
      await offline.stop();
    }
  } finally {
    await lambda.close();
    rmSync(identityDir, { recursive: true, force: true });
  }
}
