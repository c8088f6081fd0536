import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControlPlane } from '../controlplane/controlPlane';
import type { KubeClient } from '../kube/kubeClient';
import { kubeClientFromFile } from '../kube/loadKubeConfig';
import { startRunLabel } from '../manifests/metadataKeys';
import { type TrackRef, trackLabel } from '../track/trackRef';
import { deliverPush, type PushResult } from './deliverPush';
import { earlierStartRuns } from './earlierStartRuns';
import { commit, type TestRepo } from './gitRepo';
import { startGitServer } from './gitServer';
import { localControlPlane } from './localControlPlane';
import { removeCreated } from './removeCreated';
import { createSampleRepo, releaseTwoFiles } from './sampleRepo';
import { createSampleTracks } from './sampleTracks';
import { type OfflineStack, startServerlessOffline } from './serverlessOffline';
import { ensureStartCrds } from './startCrds';
import { StartLedger } from './startLedger';
import { chooseStartNames, type StartNames } from './startNames';
import { createStartReaderIdentities } from './startReaderIdentities';
import { sweepReader } from './sweepIdentity';
import type { Teardown } from './teardown';
import { trackedObjectsTable } from './trackedObjects';
import { formatTrackTable } from './trackStatus';
import { type CommitOutcome, waitForCommit } from './waitForCommit';
import { waitForReconcileLogs } from './waitForReconcileLogs';
import { type WebhookIdentity, webhookRbacFile } from './webhookIdentity';

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
  /** A cluster of the user's (KUBECONFIG, read by the CLI's loader); unset: the local control plane. */
  kubeconfig?: string | undefined;
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
  /** The names of everything this run created (plain, or with the run's suffix). */
  names: StartNames;
  tracks: TrackRef[];
  push: PushResult;
  outcome: CommitOutcome['outcome'];
  /** The tracks' status and the objects they manage, as tables. */
  report: string;
}

/**
 * Steps 1–5 of `lightkeeper start`: cluster and CRDs, sample repository, serverless-offline, sample
 * tracks, one signed push delivered and its reconciles awaited. It only ever creates objects that
 * did not exist (StartLedger) and at teardown removes exactly those.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { log, signal, teardown } = options;
  let local: { plane: ControlPlane; startedHere: boolean } | undefined;
  if (options.kubeconfig) {
    log(`using the cluster of KUBECONFIG=${options.kubeconfig}`);
  } else {
    local = await localControlPlane({ log, teardown });
  }
  signal.throwIfAborted();
  const plane = local?.plane;
  const kubeconfig = plane?.kubeconfig ?? (options.kubeconfig as string);
  const client = await kubeClientFromFile(kubeconfig);
  try {
    const ledger = new StartLedger(randomBytes(3).toString('hex'));
    const { names, taken } = await chooseStartNames(client, ledger.runId);
    if (taken.length > 0) {
      log(
        `${taken.join(', ')} already exist in this cluster: this run's objects are named *${names.suffix} instead, and nothing of the cluster's is changed`,
      );
    }
    // Registered before serverless-offline, so it runs after the functions stopped. A control plane
    // this run started goes away whole; anywhere else exactly the run's objects are removed.
    if (!local?.startedHere) {
      teardown.add(`removing what this run created (label ${startRunLabel}=${ledger.runId})`, () =>
        withClient(kubeconfig, (c) => removeCreated(c, ledger, { log: (line) => log(line) })),
      );
    }
    const crds = await ensureStartCrds(client, ledger);
    for (const id of await earlierStartRuns(client)) {
      log(
        `objects of an earlier run that did not stop cleanly are still in the cluster (label ${startRunLabel}=${id}); this run leaves them alone`,
      );
    }
    log(
      [
        crds.created.length > 0 ? `installed the CRDs: ${crds.created.join(', ')}` : '',
        crds.existing.length > 0
          ? `using the CRDs already installed, unchanged: ${crds.existing.join(', ')}`
          : '',
      ]
        .filter(Boolean)
        .join('; '),
    );
    signal.throwIfAborted();

    const server = await startGitServer();
    teardown.add('stopping the git server', () => server.close());
    const { repo, first } = createSampleRepo(server, names);
    log(`serving the sample repository ${repo.url} (commit ${first.slice(0, 7)})`);

    const webhookSecret = randomBytes(24).toString('base64url');
    // The functions' clones go to a temp dir of ours, removed at the end with everything else.
    const functionsTmp = mkdtempSync(join(tmpdir(), 'lightkeeper-functions-'));
    teardown.add('removing the functions’ temp dir', () =>
      rmSync(functionsTmp, { recursive: true, force: true }),
    );
    const identityDir = mkdtempSync(join(tmpdir(), 'lightkeeper-identities-'));
    teardown.add('removing the webhook’s and the sweep’s kubeconfigs', () =>
      rmSync(identityDir, { recursive: true, force: true }),
    );
    const readers = await createStartReaderIdentities(client, ledger, names, kubeconfig, identityDir);
    const webhookIdentity = readers.webhook;
    log(
      `the webhook lists tracks as ${webhookIdentity.user} (${webhookRbacFile}: get/list/watch tracks only)`,
    );
    log(
      `the sweep lists tracks as ${readers.sweep.user} (${sweepReader.rbacFile}: get/list/watch tracks only)`,
    );
    signal.throwIfAborted();

    log('starting serverless-offline with the three functions (bundled by esbuild first)');
    const offline = await startServerlessOffline({
      kubeconfig,
      webhookKubeconfig: webhookIdentity.kubeconfig,
      sweepKubeconfig: readers.sweep.kubeconfig,
      webhookSecret,
      // The drift sweep runs on its schedule only on our own cluster: elsewhere it would reconcile
      // every track of the cluster from this machine.
      env: { TMPDIR: functionsTmp, LIGHTKEEPER_SWEEP_SCHEDULE: String(plane !== undefined) },
      signal,
      onOutput: options.onFunctionOutput,
    });
    teardown.add('stopping serverless-offline', () => offline.stop());
    log(`serverless-offline is up: webhook ${offline.webhookUrl}, Lambda ${offline.lambdaEndpoint}`);

    const tracks = await createSampleTracks(client, ledger, names, repo.url);
    log(`created the sample tracks: ${tracks.map(trackLabel).join(', ')}`);
    signal.throwIfAborted();

    const second = commit(repo, releaseTwoFiles(names), 'Release 2: new greeting, viewers may read services');
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
      names,
      tracks,
      push,
      outcome: result.outcome,
      report,
    };
  } finally {
    await client.close();
  }
}

async function withClient(kubeconfig: string, use: (client: KubeClient) => Promise<void>): Promise<void> {
  const client = await kubeClientFromFile(kubeconfig);
  try {
    await use(client);
  } finally {
    await client.close();
  }
}
