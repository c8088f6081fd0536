import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureControlPlaneBinaries } from '../../../lib/controlplane/binaries';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, configMaps, createGitTrack, getLive, trackStatus, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';

// When the API server refuses some objects of a valid commit, nothing of it is written (lib/apply/
// validateChanges.ts) and the cluster runs the part of it that was already there: the status,
// `kubectl get` and the CLI say which commit and how much of it.

const run = promisify(execFile);
let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

/** `kubectl get` of one track as a map from printer column to value (empty when unset). */
async function printed(kind: string, ns: string, name: string): Promise<Record<string, string>> {
  const kubectl = join(await ensureControlPlaneBinaries(), 'kubectl');
  const { stdout } = await run(kubectl, ['--kubeconfig', kubeconfig(), 'get', kind, name, '-n', ns]);
  const [header = '', row = ''] = stdout.split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ column: m[0], at: m.index }));
  return Object.fromEntries(
    starts.map(({ column, at }, i) => [column, row.slice(at, starts[i + 1]?.at).trim()]),
  );
}

const lightkeeper = (...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], { env: { ...process.env, KUBECONFIG: kubeconfig() } }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

describe('a commit the API server refuses in part', () => {
  it('reports "applied N of M at C" in status, printer columns and the CLI summary', async () => {
    const ns = await freshNamespace(client, 'partial');
    const repo = createRepo(server, uniqueName('partial'));
    const first = commit(
      repo,
      { 'a.yaml': yamlOf(configMap('a', { v: '1' })), 'b.yaml': yamlOf(configMap('b', { v: '1' })) },
      'first',
    );
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', commit: first });

    // An invalid label value: the API server refuses that object; the others are as they were.
    const invalid = { ...configMap('invalid'), metadata: { name: 'invalid', labels: { app: 'not valid!' } } };
    const second = commit(repo, { 'invalid.yaml': yamlOf(invalid) }, 'second');
    const summary = await e.run(track);
    expect(summary).toMatchObject({
      result: 'Failed',
      commit: second,
      deployed: { extent: 'partial', objects: 2, of: 3 },
      counts: { failed: 1, inSync: 2 },
    });
    expect((await getLive(client, configMaps, 'a', ns))?.data).toEqual({ v: '1' });
    expect(await getLive(client, configMaps, 'invalid', ns)).toBeUndefined();

    const status = await trackStatus(client, track);
    expect(status).toMatchObject({
      lastAppliedCommit: first,
      lastAttemptedCommit: second,
      partiallyAppliedCommit: second,
      objectsPlanned: 3,
      objectsInSync: 2,
      objectsFailed: 1,
    });
    const applied = status.conditions.find((c) => c.type === 'Applied');
    expect(applied).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(applied?.message).toMatch(
      new RegExp(`^applied 2 of 3 objects at ${second}; 1 refused before anything was written:\n.*invalid`),
    );

    expect(await printed('gittracks.lightkeeper.dev', ns, track.name)).toMatchObject({
      COMMIT: first.slice(0, 7),
      INSYNC: '2',
      FAILED: '1',
      PARTIAL: second.slice(0, 7),
      READY: 'False',
    });

    const cli = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`\n  applied 2 of 3 objects at ${second}\n`);

    // Fixed in git: applied in full, and nothing partial is left to report.
    const third = commit(repo, { 'invalid.yaml': yamlOf(configMap('invalid')) }, 'fix');
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', deployed: { extent: 'full' } });
    const fixed = await trackStatus(client, track);
    expect(fixed).not.toHaveProperty('partiallyAppliedCommit');
    expect(fixed).not.toHaveProperty('partiallyAppliedShortCommit');
    expect(await printed('gittracks.lightkeeper.dev', ns, track.name)).toMatchObject({
      COMMIT: third.slice(0, 7),
      PARTIAL: '',
    });
  });
});
