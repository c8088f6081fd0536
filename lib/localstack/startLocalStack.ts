import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControlPlane } from '../controlplane/controlPlane';
import { installLightkeeperCrds } from '../kube/crds';
import { KubeClient } from '../kube/kubeClient';
import { trackLabel } from '../reconcile/loadTrack';
import type { TrackRef } from '../reconcile/types';
import { deliverPush, type PushResult } from './deliverPush';
import { commit, type TestRepo } from './gitRepo';
import { startGitServer } from './gitServer';
import { localControlPlane } from './localControlPlane';
import { createSampleRepo, releaseTwoFiles } from './sampleRepo';
import { applySampleTracks } from './sampleTracks';
import { type OfflineStack, startServerlessOffline } from './serverlessOffline';
import { provisionSweepIdentity, sweepReader } from './sweepIdentity';
import type { Teardown } from './teardown';
import { trackedObjectsTable } from './trackedObjects';
import { formatTrackTable } from './trackStatus';
import { type CommitOutcome, waitForCommit } from './waitForCommit';
import { waitForReconcileLogs } from './waitForReconcileLogs';
import { provisionWebhookIdentity, type WebhookIdentity, webhookRbacFile } from './webhookIdentity';

export interface LocalStackOptions {
  log: (line: string) => void;
  /** Aborted by Ctrl-C: startup stops at the next step and the caller tears down. */
  signal: AbortSignal;
  /** Everything started is registered here, also when startup fails half-way. */
  teardown: Teardown;
  /** Receives serverless-offline's and the functions' output. */
  onFunctionOutput?: (text: string) => void;
  /** Bound on the wait for the first push's reconciles (default 180 s). */
  reconcileTimeoutMs?: number;
}

export interface LocalStack {
  kubeconfig: string;
  kubectl: string;
  repo: TestRepo;
  firstCommit: string;
  webhookSecret: string;
  /** The identity the webhook lists tracks with, and its token kubeconfig (removed at teardown). */
  webhookIdentity: WebhookIdentity;
  offline: OfflineStack;
  /** Whether the drift sweep runs every 5 minutes (only on the local control plane). */
  sweepScheduled: boolean;
  tracks: TrackRef[];
  push: PushResult;
  outcome: CommitOutcome['outcome'];
  /** The tracks' status and the objects they manage, as tables. */
  report: string;
}

/**
 * Steps 1–5 of `lightkeeper start`: cluster and CRDs, sample repository, serverless-offline, sample
 * tracks, one signed push delivered and its reconciles awaited.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { log, signal, teardown } = options;
  let plane: ControlPlane | undefined;
  if (process.env.KUBECONFIG) {
    log(`using the cluster of KUBECONFIG=${process.env.KUBECONFIG}`);
  } else {
    plane = await localControlPlane({ log, teardown });
  }
  signal.throwIfAborted();
  const kubeconfig = plane?.kubeconfig ?? (process.env.KUBECONFIG as string);
  const client = await KubeClient.fromFile(kubeconfig);
  try {
    log(`installed the CRDs: ${(await installLightkeeperCrds(client)).join(', ')}`);
    signal.throwIfAborted();

    const server = await startGitServer();
    teardown.add('stopping the git server', () => server.close());
    const { repo, first } = createSampleRepo(server);
    log(`serving the sample repository ${repo.url} (commit ${first.slice(0, 7)})`);

    const webhookSecret = randomBytes(24).toString('base64url');
    // The functions' clones go to a temp dir of ours, removed at the end with everything else.
    const functionsTmp = mkdtempSync(join(tmpdir(), 'lightkeeper-functions-'));
    teardown.add('removing the functions’ temp dir', () =>
      rmSync(functionsTmp, { recursive: true, force: true }),
    );
    const identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-webhook-identity-'));
    teardown.add('removing the webhook’s kubeconfig', () =>
      rmSync(identityDir, { recursive: true, force: true }),
    );
    const webhookIdentity = await provisionWebhookIdentity(client, kubeconfig, identityDir);
    log(
      `the webhook lists tracks as ${webhookIdentity.user} (${webhookRbacFile}: get/list/watch tracks only)`,
    );
    const sweepIdentity = await provisionSweepIdentity(client, kubeconfig, identityDir);
    log(
      `the sweep lists tracks as ${sweepIdentity.user} (${sweepReader.rbacFile}: get/list/watch tracks only)`,
    );
    signal.throwIfAborted();

    log('starting serverless-offline with the three functions (bundled by esbuild first)');
    const offline = await startServerlessOffline({
      kubeconfig,
      webhookKubeconfig: webhookIdentity.kubeconfig,
      sweepKubeconfig: sweepIdentity.kubeconfig,
      webhookSecret,
      // The drift sweep runs on its schedule only on our own cluster: elsewhere it would reconcile
      // every track of the cluster from this machine.
      env: { TMPDIR: functionsTmp, LIGHTKEEPER_SWEEP_SCHEDULE: String(plane !== undefined) },
      signal,
      onOutput: options.onFunctionOutput,
    });
    teardown.add('stopping serverless-offline', () => offline.stop());
    log(`serverless-offline is up: webhook ${offline.webhookUrl}, Lambda ${offline.lambdaEndpoint}`);

    const tracks = await applySampleTracks(client, repo.url);
    log(`created the sample tracks: ${tracks.map(trackLabel).join(', ')}`);
    signal.throwIfAborted();

    const second = commit(repo, releaseTwoFiles, 'Release 2: new greeting, viewers may read services');
    const pushedAt = new Date();
    const outputAtPush = offline.output().length;
    const push = await deliverPush({ repo, webhookUrl: offline.webhookUrl, secret: webhookSecret });
    const triggered = (push.body as { triggered?: string[] } | undefined)?.triggered ?? [];
    log(`pushed ${second.slice(0, 7)}: webhook answered ${push.status}, triggered ${triggered.join(', ')}`);
    if (push.status !== 202 || triggered.length !== tracks.length) {
      throw new Error(`the webhook did not trigger every sample track: ${JSON.stringify(push.body)}`);
    }
    log('waiting for the reconciles');
    const result = await waitForCommit(client, tracks, second, {
      since: pushedAt,
      timeoutMs: options.reconcileTimeoutMs ?? 180_000,
      signal,
    });
    if (result.outcome === 'applied') {
      await waitForReconcileLogs(offline, outputAtPush, tracks.length, { timeoutMs: 10_000, signal });
    }
    const report = `${formatTrackTable(result.tracks)}\n\n${await trackedObjectsTable(client, result.tracks)}`;
    return {
      kubeconfig,
      kubectl: plane?.kubectl ?? 'kubectl',
      repo,
      firstCommit: first,
      webhookSecret,
      webhookIdentity,
      offline,
      sweepScheduled: plane !== undefined,
      tracks,
      push,
      outcome: result.outcome,
      report,
    };
  } finally {
    await client.close();
  }
}
