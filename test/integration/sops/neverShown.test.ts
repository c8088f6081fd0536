import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditCluster } from '../../../lib/audit/auditCluster';
import { formatAudit } from '../../../lib/audit/formatAudit';
import { diffTrack } from '../../../lib/diff/diffTrack';
import { formatDiffPlan } from '../../../lib/diff/formatDiffPlan';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
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
import { ageKeygen, sopsEncrypt } from '../../support/sopsOracle';

// Every place text leaves lightkeeper after a track applied, re-applied, was asked for a diff of, and
// failed on SOPS files: the track's status, its tracking objects, Events, what the engine printed,
// the output of diff, tree and audit (text and JSON), and files left in the temp dir. None holds a
// plaintext or its base64.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const plaintexts = ['db-plain-7f3a9', 'cm-plain-5c2e1', 'cm-plain-9b8d4', 'cm-plain-wrong-key'];
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

describe('the plaintext of a decrypted object', () => {
  it('is in no status, tracking object, Event, log line, diff, tree or audit output', async () => {
    const [key, wrong] = await Promise.all([ageKeygen(), ageKeygen()]);
    const ns = await freshNamespace(client, 'sops-sweep');
    await client.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'sops-age' },
        data: { 'identity.agekey': Buffer.from(key.keyFile).toString('base64') },
      },
    });
    const regex = { encryptedRegex: '^(data|stringData)$' };
    const encryptedConfig = (value: string, recipient = key.recipient) =>
      sopsEncrypt('config.yaml', yamlOf(configMap('app', { token: value })), recipient, regex);
    const repo = createRepo(server, uniqueName('sops-sweep'));
    commit(
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
    summaries.push(await e.run(track));
    summaries.push(await e.run(track));
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ token: plaintexts[1] });

    commit(repo, { 'config.yaml': await encryptedConfig(plaintexts[2] as string) }, 'a new value');
    const diff = await diffTrack(client, includeNamespaced, { track });
    expect(diff.changed.map((c) => c.subject)).toEqual([`ConfigMap/${ns}/app`]);
    expect(diff.changed[0]?.diff).toContain('+++++ (changed)');
    summaries.push(await e.run(track));
    expect((await getLive(client, configMaps, 'app', ns))?.data).toEqual({ token: plaintexts[2] });

    commit(
      repo,
      { 'config.yaml': await encryptedConfig(plaintexts[3] as string, wrong.recipient) },
      'wrong key',
    );
    summaries.push(await e.run(track));
    const afterBroken = await diffTrack(client, includeNamespaced, { track });
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
      diff: formatDiffPlan(diff) + formatDiffPlan(afterBroken),
      'diff -o json': JSON.stringify([diff, afterBroken], null, 2),
      tree: formatTrackTree(tree),
      'tree -o json': JSON.stringify(tree, null, 2),
      audit: formatAudit(audit),
      'audit -o json': JSON.stringify(audit, null, 2),
    };
    expect(JSON.stringify(events)).toContain('no matching key');
    // The search finds a plaintext where one is: the live object holds it.
    expect(JSON.stringify(await getLive(client, configMaps, 'app', ns))).toContain(plaintexts[2]);
    places['scratch files left in the temp dir'] = await scratchText();
    for (const [place, text] of Object.entries(places))
      for (const value of forbidden) expect(text.includes(value), `${place} shows ${value}`).toBe(false);
  });
});
