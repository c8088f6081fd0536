import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCluster } from '../../../lib/audit/auditCluster';
import { exitCodeFor, formatError } from '../../../lib/cli/formatError';
import { ensureControlPlaneBinaries } from '../../../lib/controlplane/binaries';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { kubeClientFromFile } from '../../../lib/kube/loadKubeConfig';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { farosResources } from '../../../lib/migrate/farosResources';
import { type MigrationReport, migrateFaros } from '../../../lib/migrate/migrateFaros';
import { planMigration } from '../../../lib/migrate/planMigration';
import type { TrackRef } from '../../../lib/track/trackRef';
import {
  eventually,
  freshNamespace,
  kubeClient,
  kubeconfig,
  localControlPlane,
  uniqueName,
} from '../../support/cluster';
import { engine, includeNamespaced } from '../../support/engine';
import { installFarosCrds, removeFarosCrds } from '../../support/farosCrds';
import { grant } from '../../support/tenancy';
import { farosInstall, gitFiles } from './farosInstall';
import { type LaidOut, layOutFarosTrack } from './farosLayout';

// `lightkeeper migrate faros` on what a Faros installation leaves: legal and illegal shapes, 112
// children in three namespaces and cluster scope, laid out with the collector stopped (so it cannot
// act first). Migrated (interrupted once, then resumed), the collector restarted three times, the
// Faros objects deleted with the printed kubectl commands: every child keeps its UID, and
// lightkeeper then reconciles each from git with no write on the next no-op reconcile.

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', 'migrate', 'faros', ...args], {
    env: { ...process.env, KUBECONFIG: kubeconfig() },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

const token = 'faros-migration-token';
const plane = localControlPlane();

let client: KubeClient;
let server: GitServer;
beforeAll(async () => {
  client = await kubeClient();
  server = await startGitServer({ token });
  await installFarosCrds(client);
});
afterAll(async () => {
  await removeFarosCrds(client);
  await server.close();
  await client.close();
});

interface Refusal {
  code: number;
  stderr: string;
  writes: number;
}

/** A migration run as the CLI runs it, in process: its exit code, what it prints on stderr, its writes. */
async function refusal(): Promise<Refusal> {
  const migrator = await kubeClientFromFile(kubeconfig());
  try {
    await migrateFaros(migrator, { config: includeNamespaced });
    return { code: 0, stderr: '', writes: migrator.stats.writes };
  } catch (e) {
    return { code: exitCodeFor(e), stderr: formatError(e), writes: migrator.stats.writes };
  } finally {
    await migrator.close();
  }
}

/** Children's UIDs now, by path; undefined for a child that is gone. */
const liveUids = async (children: LaidOut['children']) => {
  const limit = pLimit(16);
  return Promise.all(
    children.map((c) =>
      limit(async () => (await client.find<{ metadata: { uid: string } }>(c.path))?.metadata.uid),
    ),
  );
};

describe.skipIf(!plane)('lightkeeper migrate faros', () => {
  it('takes over every child with no deletion, through three collector restarts and the Faros objects deleted', async () => {
    const [a, b, c] = await Promise.all([
      freshNamespace(client, 'faros-a'),
      freshNamespace(client, 'faros-b'),
      freshNamespace(client, 'faros-c'),
    ]);
    const clusterTrack = uniqueName('faros-cluster');
    // a/platform spans namespaces: migrated only because the operator names it, its credentials
    // copied to the reconciler's namespace (c stands for it here).
    const promotion = { promote: [`GitTrack/${a}/platform`], reconcilerNamespace: c };
    const roles = [
      uniqueName('faros-role'),
      uniqueName('faros-role'),
      uniqueName('faros-role'),
      uniqueName('faros-role'),
      uniqueName('faros-role'),
    ];
    // The GitTrack a/team acts as a/default once migrated: a tenant bound to admin in its namespace.
    await grant(client, a, { clusterRole: 'admin' });
    // Faros' HTTPBasicAuth deploy key: one Secret key holding <username>:<password>.
    await client.request('POST', resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: a }), {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'faros-git' },
        stringData: { creds: `git:${token}` },
      },
    });
    const repo = createRepo(server, uniqueName('gitops'));
    const tracks = farosInstall({ a, b, c }, repo.url, clusterTrack, roles);
    commit(repo, gitFiles(tracks), 'what Faros applied');

    const laid: Record<string, LaidOut> = {};
    let dryRun: { code: number; stdout: string };
    let refusedByDeployment: Refusal;
    let refusedByStatus: Refusal;
    let versionsBefore: string[];
    let versionsAfterDryRun: string[];
    let namespacePlan: string[];
    let dryRunWrites: number;
    let interrupted: MigrationReport;
    let midwayFindings: string[];
    let resumed: MigrationReport;
    let rerun: MigrationReport;
    let rerunWrites: number;
    const started = Date.now();
    const phases: string[] = [];
    const mark = (what: string) => phases.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)}s`);
    await plane!.stopControllerManager();
    try {
      for (const [key, t] of Object.entries(tracks)) laid[key] = await layOutFarosTrack(client, t);
      mark('laid out');
      const allChildren = Object.values(laid).flatMap((l) => l.children);
      expect(allChildren.length).toBe(112);
      const versions = async () => {
        const list = await Promise.all(
          allChildren.map((ch) => client.find<{ metadata: { resourceVersion: string } }>(ch.path)),
        );
        const lk = await client.get<{ items: unknown[] }>('/apis/lightkeeper.dev/v1alpha1/gittrackobjects');
        return [
          ...list.map((o) => o?.metadata.resourceVersion ?? 'gone'),
          `lightkeeper trackers: ${lk.items.length}`,
        ];
      };

      // --dry-run: the plan, and nothing written.
      versionsBefore = await versions();
      const planner = await kubeClientFromFile(kubeconfig());
      let namespaced: Awaited<ReturnType<typeof planMigration>>;
      [dryRun, , namespaced] = await Promise.all([
        cli('--dry-run', '-o', 'json'),
        migrateFaros(planner, { config: includeNamespaced, dryRun: true }).finally(() => planner.close()),
        planMigration(client, { config: includeNamespaced, namespace: c }),
      ]);
      versionsAfterDryRun = await versions();
      dryRunWrites = planner.stats.writes;
      namespacePlan = namespaced.tracks.map((t) => t.label);

      mark('dry runs');
      // A Faros controller still deployed (anywhere): refused, saying how to stop it.
      const deployment = resourcePath({
        apiVersion: 'apps/v1',
        plural: 'deployments',
        namespace: c,
        name: 'faros',
      });
      await client.request(
        'POST',
        resourcePath({ apiVersion: 'apps/v1', plural: 'deployments', namespace: c }),
        {
          body: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'faros' },
            spec: {
              selector: { matchLabels: { app: 'faros' } },
              template: {
                metadata: { labels: { app: 'faros' } },
                spec: { containers: [{ name: 'manager', image: 'quay.io/pusher/faros:v0.7.1' }] },
              },
            },
          },
        },
      );
      refusedByDeployment = await refusal();
      await client.request('PATCH', deployment, {
        body: { spec: { replicas: 0 } },
        contentType: 'application/merge-patch+json',
      });
      // A status write a minute ago: a controller that was stopped a moment ago, or runs elsewhere.
      const teamPath = resourcePath({ ...farosResources.GitTrack, namespace: a, name: 'team' });
      const writeCondition = (at: string) =>
        client.request('PATCH', teamPath, {
          body: { status: { conditions: [{ type: 'ParseError', status: 'False', lastUpdateTime: at }] } },
          contentType: 'application/merge-patch+json',
        });
      await writeCondition(new Date(Date.now() - 60_000).toISOString());
      refusedByStatus = await refusal();
      await writeCondition(new Date(Date.now() - 3600_000).toISOString());
      await client.request('DELETE', deployment);

      mark('refusals');
      // Interrupted after 60 writes (as Ctrl-C does: no new write starts), then resumed.
      const migrator = await kubeClientFromFile(kubeconfig());
      try {
        const signal = {
          get aborted() {
            return migrator.stats.writes >= 60;
          },
        } as AbortSignal;
        interrupted = await migrateFaros(migrator, { config: includeNamespaced, ...promotion, signal });
        // Midway, every child still has an owner the collector resolves: the audit names none.
        const uids = new Set(allChildren.map((ch) => ch.uid));
        const audit = await auditCluster(client);
        midwayFindings = audit.findings
          .filter((f) => uids.has(f.dependent.uid))
          .map((f) => `${f.dependent.kind} ${f.dependent.name}: ${f.finding}`);
        mark('interrupted + audit');
        resumed = await migrateFaros(migrator, { config: includeNamespaced, ...promotion });
        mark('resumed');
        const before = migrator.stats.writes;
        rerun = await migrateFaros(migrator, { config: includeNamespaced, ...promotion });
        rerunWrites = migrator.stats.writes - before;
      } finally {
        await migrator.close();
      }
    } finally {
      await plane!.startControllerManager();
    }
    mark('rerun + collector started');

    // The dry run: exit 1 (nosa is left in place), the plan as data, and not one write.
    expect(dryRun.code).toBe(1);
    const plan = JSON.parse(dryRun.stdout) as MigrationReport;
    const planned = Object.fromEntries(plan.plan.tracks.map((t) => [t.label, t]));
    expect(planned[`GitTrack.faros.pusher.com/${a}/team`]?.target).toEqual({
      kind: 'GitTrack',
      name: 'team',
      namespace: a,
    });
    expect(planned[`GitTrack.faros.pusher.com/${a}/platform`]?.target).toEqual({
      kind: 'ClusterGitTrack',
      name: `${a}.platform`,
    });
    expect(planned[`GitTrack.faros.pusher.com/${a}/platform`]?.spec).toMatchObject({
      subPath: 'platform',
      defaultNamespace: a,
    });
    // Without --promote the CLI leaves the promotion alone, naming what the platform would trust.
    expect(planned[`GitTrack.faros.pusher.com/${a}/platform`]?.blocked.join()).toMatch(
      `following ${repo.url} with the credentials of Secret ${a}/faros-git; left alone (to promote it: --promote GitTrack/${a}/platform)`,
    );
    expect(planned[`GitTrack.faros.pusher.com/${c}/nosa`]?.blocked.join()).toMatch(
      new RegExp(
        `ServiceAccount ${c}/default, which the GitTrack acts as, may not list configmaps, patch ConfigMap nosa-00, delete ConfigMap nosa-00`,
      ),
    );
    expect(versionsAfterDryRun).toEqual(versionsBefore);
    expect(dryRunWrites!).toBe(0);
    expect(namespacePlan!).toEqual([`GitTrack.faros.pusher.com/${c}/nosa`]);

    // Refusals: exit 2, the reason and how to stop it; nothing written (the resumed run below did it all).
    expect(refusedByDeployment.code).toBe(2);
    expect(refusedByDeployment.stderr).toMatch(
      new RegExp(`Deployment ${c}/faros runs the Faros image quay.io/pusher/faros:v0.7.1`),
    );
    expect(refusedByDeployment.stderr).toMatch(
      new RegExp(`kubectl scale deployment/faros -n ${c} --replicas=0`),
    );
    expect(refusedByDeployment.writes).toBe(0);
    expect(refusedByStatus.code).toBe(2);
    expect(refusedByStatus.writes).toBe(0);
    expect(refusedByStatus.stderr).toMatch(
      new RegExp(`Faros wrote the status of GitTrack.faros.pusher.com/${a}/team`),
    );

    // Interrupted midway with every child resolvable; resumed to the end; a rerun writes nothing.
    expect(interrupted!.interrupted).toBe(true);
    expect(interrupted!.tracks.flatMap((t) => t.children).some((ch) => ch.outcome === 'interrupted')).toBe(
      true,
    );
    expect(midwayFindings!).toEqual([]);
    const outcomes = (r: MigrationReport) =>
      Object.fromEntries(
        r.tracks.map((t) => [
          t.label.split('/').pop(),
          t.blocked.length ? 'blocked' : [...new Set(t.children.map((ch) => ch.outcome))].sort().join(),
        ]),
      );
    // Children finished before the interruption are found done; the others go on from their step.
    const resumedChildren = resumed!.tracks.flatMap((t) => t.children.map((ch) => ch.outcome));
    expect(resumedChildren.length).toBe(110);
    expect(new Set(resumedChildren)).toEqual(new Set(['already ours', 'handed over']));
    expect(outcomes(resumed!).nosa).toBe('blocked');
    expect(rerunWrites!).toBe(0);
    expect(outcomes(rerun!)).toEqual({
      team: 'already ours',
      platform: 'already ours',
      [clusterTrack]: 'already ours',
      nosa: 'blocked',
    });
    expect(rerun!.deleteCommands).toEqual(resumed!.deleteCommands);
    expect(resumed!.deleteCommands.join('\n')).not.toMatch(/nosa/);

    // The collector, restarted three times, deletes the illegal Faros tracking objects in b and c — and
    // with them nothing of what they tracked.
    for (let i = 0; i < 3; i++) await plane!.restartGarbageCollector();
    mark('3 restarts');
    const platformInB = laid.platform!.trackers.find((t) => t.namespace === b)!;
    await eventually(
      'the collector deletes the cross-namespace Faros tracking objects',
      async () =>
        !(await client.find(
          resourcePath({ ...farosResources.GitTrackObject, namespace: b, name: platformInB.name }),
        )),
    );
    mark('collector deleted the illegal Faros objects');
    const allChildren = Object.values(laid).flatMap((l) => l.children);
    expect(await liveUids(allChildren)).toEqual(allChildren.map((ch) => ch.uid));

    // The printed commands, run with kubectl as the operator would (the collector finishes the
    // orphaning while lightkeeper reconciles below).
    const kubectl = join(await ensureControlPlaneBinaries(), 'kubectl');
    const deleting = Promise.all(
      resumed!.deleteCommands.map(async (command) => {
        const [bin, ...args] = command.split(' ');
        expect(bin).toBe('kubectl');
        await run(kubectl, [...args, '--kubeconfig', kubeconfig()]);
      }),
    );
    const farosObjectsGone = async () => {
      await deleting;
      await eventually('the migrated Faros objects are gone', async () => {
        const left = await Promise.all(
          (['GitTrack', 'GitTrackObject'] as const).flatMap((k) =>
            [a, b].map((ns) =>
              client.get<{ items: unknown[] }>(resourcePath({ ...farosResources[k], namespace: ns })),
            ),
          ),
        );
        const clusterLeft = await client.find(
          resourcePath({ ...farosResources.ClusterGitTrack, name: clusterTrack }),
        );
        return left.every((l) => l.items.length === 0) && !clusterLeft;
      });
      mark('Faros objects deleted');
    };

    // lightkeeper reconciles every migrated child from git: the first run takes over the fields, the
    // next one writes nothing; UIDs unchanged throughout.
    const e = engine(client);
    try {
      const lightkeeperTracks: TrackRef[] = [
        { kind: 'GitTrack', namespace: a, name: 'team' },
        { kind: 'ClusterGitTrack', name: `${a}.platform` },
        { kind: 'ClusterGitTrack', name: clusterTrack },
      ];
      for (const t of lightkeeperTracks) {
        const first = await e.run(t);
        expect(first.errors, `${t.name}`).toEqual([]);
        expect(first.result).toBe('Succeeded');
        expect(
          first.changes.filter((ch) => ch.action !== 'configured'),
          t.name,
        ).toEqual([]);
      }
      mark('first reconciles');
      for (const t of lightkeeperTracks) {
        const second = await e.run(t);
        expect(second.writes.objects, t.name).toBe(0);
        expect(second.counts.inSync, t.name).toBe(second.counts.discovered);
      }
      mark('no-op reconciles');
      await farosObjectsGone();
      expect(await liveUids(allChildren)).toEqual(allChildren.map((ch) => ch.uid));
      // The blocked GitTrack's children are still Faros', untouched.
      for (const ch of laid.nosa!.children) {
        const live = await client.get<{ metadata: { ownerReferences: Array<{ kind: string }> } }>(ch.path);
        expect(live.metadata.ownerReferences.map((o) => o.kind)).toEqual(['GitTrackObject']);
      }
    } finally {
      await deleting.catch(() => {});
      e.dispose();
      for (const name of [`${a}.platform`, clusterTrack])
        await client
          .request('DELETE', `/apis/lightkeeper.dev/v1alpha1/clustergittracks/${name}`)
          .catch(() => {});
      for (const r of roles)
        await client
          .request('DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${r}`)
          .catch(() => {});
    }
    console.log(`[migrate] ${phases.join(', ')}`);
  });
});
