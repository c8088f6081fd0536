import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureControlPlaneBinaries } from '../../../lib/controlplane/binaries';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { startSweep } from '../../../lib/lambda/startSweep';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { ListedTrack as Track } from '../../../lib/track/listedTrack';
import { listTracks } from '../../../lib/webhook/listTracks';
import { matchTracks } from '../../../lib/webhook/matchTracks';
import { eventually, freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, configMaps, type engine, getLive, yamlOf } from '../../support/engine';
import { useEngineHarness } from '../../support/engineHarness';
import { grant } from '../../support/tenancy';

// The first hour of a Flux user, on the real control plane: create a track from the CLI and see its
// first reconcile, list it, read its Events, suspend and resume it, ask for a reconcile through the
// annotation the every-minute check picks up, and see it all in `kubectl get`.

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
let e: ReturnType<typeof engine>;
useEngineHarness((h) => ({ client, server, e } = h));

const lightkeeper = (...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], { env: { ...process.env, KUBECONFIG: kubeconfig() } }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

/**
 * What a deployment's every-minute check does, every half second, for the tracks of `namespace`
 * (the functions are not running here): until `until` settles.
 */
async function whileDeploymentRuns<T>(
  namespace: string,
  until: Promise<T>,
  clusterTrack?: string,
): Promise<T> {
  let done = false;
  const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced', namespace } as const;
  // GitTracks of this namespace, and only the ClusterGitTrack this test made (other tests run beside).
  const ours = (t: Track) => t.ref.kind === 'GitTrack' || t.ref.name === clusterTrack;
  const loop = (async () => {
    while (!done) {
      const tracks = (await listTracks(client, config)).filter(ours);
      await startSweep(tracks, async (ev) => void (await e.run(ev.track, ev)), { scope: 'unobserved' });
      await sleep(500);
    }
  })();
  try {
    return await until;
  } finally {
    done = true;
    await loop;
  }
}

const gitTrack = (ns: string, name: string) =>
  client.get<{
    metadata: { managedFields: Array<{ manager: string }>; annotations?: Record<string, string> };
    spec: { suspend?: boolean };
    status?: { lastHandledRequestedAt?: string; lastAppliedCommit?: string };
  }>(resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns, name }));

/** A row of `kubectl get` by column: each cell starts where its header does (cells may be empty). */
function columns(header: string, row: string): Record<string, string> {
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index ?? 0 }));
  return Object.fromEntries(
    starts.map((c, i) => [c.name, row.slice(c.at, starts[i + 1]?.at ?? row.length).trim()]),
  );
}

async function tenant(prefix: string) {
  const ns = await freshNamespace(client, prefix);
  await grant(client, ns, { clusterRole: 'admin' });
  const repo = createRepo(server, uniqueName(prefix));
  const head = commit(repo, { 'apps/cm.yaml': yamlOf(configMap('a', { v: '1' })) }, 'one');
  return { ns, repo, head };
}

describe('tracks from the CLI', () => {
  it('create applies as the user and waits for the first reconcile; get and events show it', async () => {
    const { ns, repo, head } = await tenant('create-cli');
    const created = await whileDeploymentRuns(
      ns,
      lightkeeper(
        'create',
        'gittrack',
        'apps',
        '-n',
        ns,
        '--url',
        repo.url,
        '--path',
        'apps',
        '--timeout',
        '60s',
      ),
    );
    expect(created.stderr).toContain('waiting for its first reconcile');
    expect(created.stdout).toContain(`created GitTrack/${ns}/apps`);
    expect(created.stdout).toContain(`Ready True ReconciliationSucceeded: applied ${head}`);
    expect(created.code).toBe(0);
    expect((await gitTrack(ns, 'apps')).metadata.managedFields.map((f) => f.manager)).toContain(
      'lightkeeper-cli',
    );

    // The same again changes nothing; another source is refused without --overwrite.
    expect(
      (await lightkeeper('create', 'gt', 'apps', '-n', ns, '--url', repo.url, '--path', 'apps', '--no-wait'))
        .stdout,
    ).toContain('unchanged');
    const refused = await lightkeeper('create', 'gt', 'apps', '-n', ns, '--url', repo.url, '--no-wait');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('would change its spec.subPath');

    const get = await lightkeeper('get', 'gittracks', '-n', ns);
    expect(get.code).toBe(0);
    const [header, row] = get.stdout.trim().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual([
      'NAME',
      'READY',
      'REASON',
      'COMMIT',
      'SUSPENDED',
      'AGE',
      'MESSAGE',
    ]);
    expect(row?.split(/\s{2,}/).slice(0, 5)).toEqual([
      'apps',
      'True',
      'ReconciliationSucceeded',
      head.slice(0, 7),
      'false',
    ]);
    const all = await lightkeeper('get', '-A', '-o', 'json');
    expect(
      JSON.parse(all.stdout).items.map(
        (t: { metadata: { name: string; namespace?: string } }) => t.metadata.namespace,
      ),
    ).toContain(ns);

    const typo = await lightkeeper('get', 'gt', 'aps', '-n', ns);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('did you mean apps?');
    const typoTree = await lightkeeper('tree', 'gt/app', '-n', ns);
    expect(typoTree.stderr).toContain('did you mean gittrack/apps?');

    const events = await lightkeeper('events', 'gt/apps', '-n', ns);
    expect(events.code).toBe(0);
    expect(events.stdout).toMatch(/Normal\s+ReconcileSucceeded\s+gittrack\/apps\s+/);
    expect(events.stdout.trim().split('\n').length).toBeGreaterThan(1);
    const typoEvents = await lightkeeper('events', 'gt/appz', '-n', ns);
    expect(typoEvents.code).toBe(1);
    expect(typoEvents.stderr).toContain('did you mean gittrack/apps?');
  }, 120_000);

  it('create clustergittrack applies a ClusterGitTrack with its default namespace', async () => {
    const { ns, repo, head } = await tenant('create-cgt');
    const name = uniqueName('cgt-cli');
    const created = await whileDeploymentRuns(
      ns,
      lightkeeper(
        'create',
        'clustergittrack',
        name,
        '--url',
        repo.url,
        '--path',
        'apps',
        '--default-namespace',
        ns,
        '--timeout',
        '60s',
      ),
      name,
    );
    expect(created.stdout).toContain(`created ClusterGitTrack/${name}`);
    expect(created.stdout).toContain(`Ready True ReconciliationSucceeded: applied ${head}`);
    expect(created.code).toBe(0);
    expect(await getLive(client, configMaps, 'a', ns)).toBeDefined();
    const listed = await lightkeeper('get', 'cgt', name);
    expect(
      listed.stdout
        .split('\n')[1]
        ?.split(/\s{2,}/)
        .slice(0, 3),
    ).toEqual([name, 'True', 'ReconciliationSucceeded']);
    await client.request('DELETE', resourcePath({ ...lightkeeperResources.ClusterGitTrack, name }));
  }, 120_000);

  it('create says when no reconcile came, and what runs one now (exit 1)', async () => {
    const { ns, repo } = await tenant('create-wait');
    const waited = await lightkeeper(
      'create',
      'gt',
      'lonely',
      '-n',
      ns,
      '--url',
      repo.url,
      '--timeout',
      '2s',
    );
    expect(waited.code).toBe(1);
    expect(waited.stderr).toContain(
      `GitTrack/${ns}/lonely: no reconcile concluded within 2 s (never reconciled)`,
    );
    expect(waited.stderr).toContain(`lightkeeper reconcile gittrack/lonely -n ${ns}`);
  }, 60_000);

  it('suspend stops the webhook and the sweep; resume lets the every-minute check reconcile it', async () => {
    const { ns, repo } = await tenant('suspend-cli');
    await whileDeploymentRuns(
      ns,
      lightkeeper('create', 'gt', 'apps', '-n', ns, '--url', repo.url, '--timeout', '60s'),
    );
    const suspended = await lightkeeper('suspend', 'gittrack', 'apps', '-n', ns);
    expect(suspended.stdout).toContain(`suspended GitTrack/${ns}/apps`);
    expect((await gitTrack(ns, 'apps')).spec.suspend).toBe(true);
    expect((await lightkeeper('get', 'gt', 'apps', '-n', ns)).stdout.split('\n')[1]?.split(/\s{2,}/)[4]).toBe(
      'true',
    );

    const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled', namespace: ns } as const;
    const tracks = await listTracks(client, config);
    const swept: string[] = [];
    await startSweep(tracks, async (ev) => void swept.push(ev.track.name), { scope: 'all' });
    expect(swept).toEqual([]);
    const push = {
      repositoryUrls: [repo.url],
      defaultBranch: 'main',
      ref: 'refs/heads/main',
      before: '0'.repeat(40),
      after: 'f'.repeat(40),
      created: false,
      deleted: false,
      forced: false,
      headCommitTime: undefined,
      touchedPaths: undefined,
    };
    expect(matchTracks(push, tracks, config)).toEqual({
      triggered: [],
      skipped: [{ track: { kind: 'GitTrack', namespace: ns, name: 'apps' }, reason: 'suspended' }],
    });

    expect((await lightkeeper('suspend', 'gt', 'apps', '-n', ns)).stdout).toContain('suspended already');
    const resumed = await lightkeeper('resume', 'gt', 'apps', '-n', ns);
    expect(resumed.stdout).toContain('the check of changed tracks reconciles it within a minute');
    expect((await gitTrack(ns, 'apps')).spec.suspend).toBe(false);
    expect(matchTracks(push, await listTracks(client, config), config).triggered).toHaveLength(1);
    expect((await lightkeeper('resume', 'gt', 'nope', '-n', ns)).stderr).toContain('not found');
  }, 120_000);

  it('get --watch prints a track again when it changes', async () => {
    const { ns, repo } = await tenant('watch-cli');
    await whileDeploymentRuns(
      ns,
      lightkeeper('create', 'gt', 'apps', '-n', ns, '--url', repo.url, '--timeout', '60s'),
    );
    const child = spawn('node', ['bin/lightkeeper.mjs', 'get', 'gt', '-n', ns, '--watch'], {
      env: { ...process.env, KUBECONFIG: kubeconfig() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      const rows = () => out.split('\n').filter((l) => l.startsWith('apps '));
      await eventually('the list is printed', async () => rows().length === 1, 30_000);
      expect(rows()[0]?.split(/\s{2,}/)[4]).toBe('false');
      await lightkeeper('suspend', 'gt', 'apps', '-n', ns);
      await eventually('the suspended track is printed again', async () => rows().length >= 2, 30_000);
      expect(rows()[1]?.split(/\s{2,}/)[4]).toBe('true');
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);

  it('reconcile --request sets lightkeeper.dev/requestedAt; the every-minute check runs it once', async () => {
    const { ns, repo } = await tenant('request-cli');
    await whileDeploymentRuns(
      ns,
      lightkeeper('create', 'gt', 'apps', '-n', ns, '--url', repo.url, '--timeout', '60s'),
    );
    const next = commit(repo, { 'apps/cm.yaml': yamlOf(configMap('a', { v: '2' })) }, 'two');
    const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled', namespace: ns } as const;
    // Observed and not requested: the every-minute check leaves it alone.
    const idle: string[] = [];
    await startSweep(await listTracks(client, config), async (ev) => void idle.push(ev.track.name), {
      scope: 'unobserved',
    });
    expect(idle).toEqual([]);

    const requested = await whileDeploymentRuns(
      ns,
      lightkeeper('reconcile', 'gt/apps', '-n', ns, '--request', '--timeout', '60s'),
    );
    expect(requested.stderr).toContain('requested a reconcile of');
    expect(requested.stdout).toContain(`Ready True ReconciliationSucceeded: applied ${next}`);
    expect(requested.code).toBe(0);
    const track = await gitTrack(ns, 'apps');
    expect(track.status?.lastHandledRequestedAt).toBe(
      track.metadata.annotations?.['lightkeeper.dev/requestedAt'],
    );
    expect(track.status?.lastAppliedCommit).toBe(next);
    const after: string[] = [];
    await startSweep(await listTracks(client, config), async (ev) => void after.push(ev.track.name), {
      scope: 'unobserved',
    });
    expect(after).toEqual([]);
  }, 120_000);

  it('a hostile lightkeeper.dev/requestedAt is handled once, by its digest, and never copied', async () => {
    const { ns, repo } = await tenant('request-hostile');
    await whileDeploymentRuns(
      ns,
      lightkeeper('create', 'gt', 'apps', '-n', ns, '--url', repo.url, '--timeout', '60s'),
    );
    const config = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'Disabled', namespace: ns } as const;
    const everyMinute = async () => {
      const reasons: string[] = [];
      await startSweep(
        await listTracks(client, config),
        async (ev) => {
          reasons.push(ev.reason ?? '');
          await e.run(ev.track, ev);
        },
        { scope: 'unobserved' },
      );
      return reasons;
    };
    const annotate = (value: string) =>
      client.request(
        'PATCH',
        resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns, name: 'apps' }),
        {
          body: { metadata: { annotations: { 'lightkeeper.dev/requestedAt': value } } },
          contentType: 'application/merge-patch+json',
        },
      );

    // 100 kB over several lines, with a forged Event line and a terminal escape in it.
    const marker = 'HOSTILE'.repeat(14_000);
    await annotate(`2026-12-02T12:00:00Z\nWarning ReconcileFailed forged\u001b[2J${marker}`);
    const first = await everyMinute();
    expect(first).toEqual([expect.stringMatching(/^requested at sha256:[0-9a-f]{16}$/)]);
    const track = await client.get<{ status: Record<string, unknown> }>(
      resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns, name: 'apps' }),
    );
    expect(track.status.lastHandledRequestedAt).toBe(first[0]?.replace('requested at ', ''));
    expect(JSON.stringify(track.status)).not.toContain('HOSTILE');
    const events = await client.get<{ items: Array<{ type: string; reason: string; message: string }> }>(
      `/api/v1/namespaces/${ns}/events`,
      { query: { fieldSelector: 'involvedObject.name=apps' } },
    );
    expect(events.items.filter((ev) => ev.reason === 'RequestedAtRefused')).toEqual([
      expect.objectContaining({
        type: 'Warning',
        message: expect.stringContaining(`handled it as ${track.status.lastHandledRequestedAt}`),
      }),
    ]);
    for (const ev of events.items) {
      expect(ev.message).not.toContain('HOSTILE');
      expect(ev.message).not.toContain('\n');
      expect(ev.message).not.toContain('\u001b');
    }
    // Handled: the every-minute check does not ask again…
    expect(await everyMinute()).toEqual([]);
    // …and a time stamp after it is a request again, recorded as it is.
    await annotate('2026-12-02T12:05:00Z');
    expect(await everyMinute()).toEqual(['requested at 2026-12-02T12:05:00Z']);
    expect((await gitTrack(ns, 'apps')).status?.lastHandledRequestedAt).toBe('2026-12-02T12:05:00Z');
  }, 120_000);

  it('kubectl get shows the short commit, the Ready reason, suspended, the message, and the track of each tracking object', async () => {
    const { ns, repo, head } = await tenant('columns-cli');
    await whileDeploymentRuns(
      ns,
      lightkeeper('create', 'gt', 'apps', '-n', ns, '--url', repo.url, '--path', 'apps', '--timeout', '60s'),
    );
    const kubectl = join(await ensureControlPlaneBinaries(), 'kubectl');
    const get = (...args: string[]) =>
      run(kubectl, ['--kubeconfig', kubeconfig(), 'get', '-n', ns, ...args]).then((r) =>
        r.stdout.trim().split('\n'),
      );
    // Fully qualified: other tests install Faros' CRDs, whose `gittracks` would otherwise be as near.
    const [header = '', row = ''] = await get('gittracks.lightkeeper.dev', '-o', 'wide');
    const cells = columns(header, row);
    expect(cells).toMatchObject({
      NAME: 'apps',
      COMMIT: head.slice(0, 7),
      READY: 'True',
      REASON: 'ReconciliationSucceeded',
      SUSPENDED: 'false',
    });
    expect(cells.MESSAGE).toMatch(/^applied [0-9a-f]{40}$/);
    const [trackerHeader = '', tracker = ''] = await get('gittrackobjects.lightkeeper.dev');
    expect(trackerHeader.split(/\s+/).slice(0, 3)).toEqual(['NAME', 'TRACK', 'KIND']);
    expect(columns(trackerHeader, tracker).TRACK).toBe('apps');
  }, 120_000);
});
