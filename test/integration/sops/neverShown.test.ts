import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditCluster } from '../../../lib/audit/auditCluster';
import { formatAudit } from '../../../lib/audit/formatAudit';
import { diffTrack } from '../../../lib/diff/diffTrack';
import { formatDiffPlan } from '../../../lib/diff/formatDiffPlan';
import { createGitHubClient } from '../../../lib/github/githubClient';
import { type PushStatusDeps, reportPushStatus } from '../../../lib/github/reportPushStatus';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { clusterFailure } from '../../../lib/lambda/clusterFailure';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { formatTrackTree } from '../../../lib/tree/formatTrackTree';
import { loadTrackTree } from '../../../lib/tree/loadTrackTree';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  configMap,
  configMaps,
  createGitTrack,
  getLive,
  includeNamespaced,
  yamlOf,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { type GitHubRecorder, startGitHubRecorder } from '../../support/githubRecorder';
import { createKmsKey } from '../../support/motoKms';
import { type MotoServer, startMoto } from '../../support/motoServer';
import { ageKeygen, createAgeKeySecret, sopsEncrypt, sopsEncryptKms } from '../../support/sopsOracle';

// Every place text leaves lightkeeper after a track applied, re-applied, was asked for a diff of, and
// failed on SOPS files (age, and AWS KMS with the function's role against moto): the track's status,
// its tracking objects, Events, what the engine printed, the commit statuses posted for each run (to
// the loopback GitHub fake, through the function's code path), the failure queue's event of a
// failed run (Lambda's on-failure record of the error the function would throw), the output of diff,
// tree and audit (text and JSON), and files left in the temp dir. None holds a plaintext or its base64.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const plaintexts = [
  'db-plain-7f3a9',
  'cm-plain-5c2e1',
  'cm-plain-9b8d4',
  'cm-plain-wrong-key',
  'kms-plain-2d4c8',
];
const forbidden = plaintexts.flatMap((p) => [p, Buffer.from(p).toString('base64')]);

/** What the engine writes to the console and the process's streams while `run` runs. */
function capturedOutput(): { text: () => string } {
  const chunks: string[] = [];
  const keep = (...args: unknown[]) => {
    chunks.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  };
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, method).mockImplementation(keep);
  for (const stream of [process.stdout, process.stderr])
    vi.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
      keep(String(chunk));
      return true;
    });
  return { text: () => chunks.join('\n') };
}

/** Every file a render, a decryption or a diff left under the temp dir (none should be left at all). */
async function scratchText(): Promise<string> {
  const dirs = (await readdir(tmpdir())).filter((n) => /^lightkeeper-(sops|helm|kustomize|git)-/.test(n));
  const texts: string[] = [];
  for (const dir of dirs) {
    const entries = await readdir(join(tmpdir(), dir), { recursive: true, withFileTypes: true }).catch(
      () => [],
    );
    for (const entry of entries)
      if (entry.isFile())
        texts.push(await readFile(join(entry.parentPath, entry.name), 'latin1').catch(() => ''));
  }
  return texts.join('\n');
}

afterEach(() => {
  vi.restoreAllMocks();
});

let moto: MotoServer;
let gh: GitHubRecorder;
let arn: string;
beforeAll(async () => {
  [moto, gh] = await Promise.all([startMoto(), startGitHubRecorder()]);
  arn = await createKmsKey(moto);
}, 120_000);
afterAll(async () => {
  await gh?.close();
  await moto?.stop();
});

/** The record Lambda sends to the failure queue when the reconcile function throws `error`. */
const failureQueueEvent = (request: object, error: Error) => ({
  version: '1.0',
  requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 3 },
  requestPayload: request,
  responseContext: { statusCode: 200, functionError: 'Unhandled' },
  responsePayload: { errorType: error.name, errorMessage: error.message },
});

describe('the plaintext of a decrypted object', () => {
  it('is in no status, tracking object, Event, log line, diff, tree or audit output', async () => {
    const [key, wrong] = await Promise.all([ageKeygen(), ageKeygen()]);
    const ns = await freshNamespace(client, 'sops-sweep');
    await createAgeKeySecret(client, ns, key);
    const regex = { encryptedRegex: '^(data|stringData)$' };
    const encryptedConfig = (value: string, recipient = key.recipient) =>
      sopsEncrypt('config.yaml', yamlOf(configMap('app', { token: value })), recipient, regex);
    const repo = createRepo(server, `${uniqueName('owner')}/app`);
    const config = {
      ...includeNamespaced,
      kms: {
        endpoint: moto.endpoint,
        functionCredentials: async () => ({ accessKeyId: 'function', secretAccessKey: 'function-secret' }),
      },
    };
    const statusDeps: PushStatusDeps = {
      github: {
        client: createGitHubClient({ token: 'ghp_sweep', baseUrl: gh.url, retryDelayMs: 10 }),
        targetUrl: 'https://ci.example/{namespace}/{name}',
      },
      kube: client,
    };
    let head = commit(
      repo,
      {
        'secret.yaml': await sopsEncrypt(
          'secret.yaml',
          yamlOf({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 'db' },
            stringData: { password: plaintexts[0] },
          }),
          key.recipient,
          regex,
        ),
        'config.yaml': await encryptedConfig(plaintexts[1] as string),
        'kms.yaml': await sopsEncryptKms(
          'kms.yaml',
          yamlOf({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 'kms' },
            stringData: { token: plaintexts[4] as string },
          }),
          {
            arn,
            context: `lightkeeper.dev/namespace:${ns}`,
            env: { ...moto.env, AWS_ENDPOINT_URL_KMS: moto.endpoint },
          },
          regex,
        ),
      },
      'encrypted',
    );
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
    });

    const output = capturedOutput();
    const summaries: unknown[] = [];
    const failureEvents: unknown[] = [];
    // As the reconcile function runs a push: pending, the run, its final status; a failed run's
    // error as the failure queue would receive it.
    const run = async () => {
      const request = { track, push: { after: head } };
      await reportPushStatus(statusDeps, request);
      const summary = await e.run(track, {}, { config });
      await reportPushStatus(statusDeps, request, summary);
      const thrown = clusterFailure(summary, 1);
      if (thrown) failureEvents.push(failureQueueEvent(request, thrown));
      summaries.push(summary);
    };
    await run();
    await run();
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ token: plaintexts[1] });
    const kmsSecret = await getLive(client, { apiVersion: 'v1', plural: 'secrets' }, 'kms', ns);
    expect(kmsSecret?.data).toEqual({ token: Buffer.from(plaintexts[4] as string).toString('base64') });

    head = commit(repo, { 'config.yaml': await encryptedConfig(plaintexts[2] as string) }, 'a new value');
    const diff = await diffTrack(client, config, { track });
    expect(diff.changed.map((c) => c.subject)).toEqual([`ConfigMap/${ns}/app`]);
    expect(diff.changed[0]?.diff).toContain('+++++ (changed)');
    await run();
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ token: plaintexts[2] });

    head = commit(
      repo,
      { 'config.yaml': await encryptedConfig(plaintexts[3] as string, wrong.recipient) },
      'wrong key',
    );
    await run();
    const afterBroken = await diffTrack(client, config, { track });
    expect(afterBroken.errors.join('\n')).toContain('no matching key');

    const tree = await loadTrackTree(client, track);
    const audit = await auditCluster(client, { namespaces: [ns] });
    const trackObject = await client.get(
      resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns, name: track.name }),
    );
    const trackers = await client.get(
      resourcePath({ ...lightkeeperResources.GitTrackObject, namespace: ns }),
    );
    const events = await client.get(`/api/v1/namespaces/${ns}/events`);
    const places: Record<string, string> = {
      'run summaries': JSON.stringify(summaries),
      'track status': JSON.stringify(trackObject),
      'tracking objects': JSON.stringify(trackers),
      Events: JSON.stringify(events),
      'engine output': output.text(),
      'commit statuses': JSON.stringify(gh.requests.map((r) => r.body)),
      'failure queue events': JSON.stringify(failureEvents),
      diff: formatDiffPlan(diff) + formatDiffPlan(afterBroken),
      'diff -o json': JSON.stringify([diff, afterBroken], null, 2),
      tree: formatTrackTree(tree),
      'tree -o json': JSON.stringify(tree, null, 2),
      audit: formatAudit(audit),
      'audit -o json': JSON.stringify(audit, null, 2),
    };
    expect(JSON.stringify(events)).toContain('no matching key');
    // The statuses and the failure event are there to be searched: four runs, one broken.
    expect(gh.requests.map((r) => r.body.state)).toEqual([
      'pending',
      'success',
      'pending',
      'success',
      'pending',
      'success',
      'pending',
      'failure',
    ]);
    expect(JSON.stringify(failureEvents)).toContain('no matching key');
    // The search finds a plaintext where one is: the live object holds it.
    expect(JSON.stringify(await getLive(client, configMaps, 'app', ns))).toContain(plaintexts[2]);
    places['scratch files left in the temp dir'] = await scratchText();
    for (const [place, text] of Object.entries(places))
      for (const value of forbidden) expect(text.includes(value), `${place} shows ${value}`).toBe(false);
  });
});
