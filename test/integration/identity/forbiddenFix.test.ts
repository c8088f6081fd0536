import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import { type GitServer, startGitServer } from '../../../lib/localstack/gitServer';
import { freshNamespace, kubeClient, kubeconfig, uniqueName } from '../../support/cluster';
import { configMap, createGitTrack, engine, trackStatus, yamlOf } from '../../support/engine';
import { grant } from '../../support/tenancy';

const run = promisify(execFile);
const lightkeeper = (...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', ...args], { env: { ...process.env, KUBECONFIG: kubeconfig() } }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

let client: KubeClient;
let server: GitServer;
let e: ReturnType<typeof engine>;
beforeAll(async () => {
  client = await kubeClient();
  server = await startGitServer();
  e = engine(client);
});
afterAll(async () => {
  e.dispose();
  await client.close();
  await server.close();
});

// Issue 18: a GitTrack whose service account may not list or write says so once, with the fix.
describe('a GitTrack whose service account has no rights', () => {
  it('reports one line naming what it may not do and the RoleBinding to create, in errors and conditions', async () => {
    const ns = await freshNamespace(client, 'norights');
    const repo = createRepo(server, uniqueName('norights'));
    commit(repo, { 'a.yaml': yamlOf(configMap('a')), 'b.yaml': yamlOf(configMap('b')) }, 'first');
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main' },
      { access: false },
    );
    const fix =
      `GitTrack ${ns}/${track.name} acts as ServiceAccount ${ns}/default, which may not list configmaps in ${ns}: ` +
      `grant it, e.g. kubectl create rolebinding ${track.name}-deployer -n ${ns} --clusterrole=edit ` +
      `--serviceaccount=${ns}:default, or set spec.serviceAccountName`;

    const denied = await e.run(track);
    expect(denied.result).toBe('Failed');
    expect(denied.errors).toEqual([fix]);
    // Each object still records its own refusal.
    expect(denied.changes.map((c) => c.action)).toEqual(['failed', 'failed']);
    const conditions = (await trackStatus(client, track)).conditions;
    expect(conditions.find((c) => c.type === 'Ready')?.message).toBe(fix);
    expect(conditions.find((c) => c.type === 'Applied')?.message).toMatch(
      new RegExp(`2 refused before anything was written:\n${escapeRegExp(fix)}$`),
    );

    // And the CLI prints it once, no raw Forbidden line.
    const cli = await lightkeeper('reconcile', `gt/${track.name}`, '-n', ns);
    expect(cli.code).not.toBe(0);
    const out = `${cli.stdout}${cli.stderr}`;
    expect(out.split(fix).length - 1).toBe(1);
    expect(out).not.toMatch(/forbidden/);

    // The command it names is the fix.
    const [rolebinding, name, , namespace, role, subject] =
      fix.split('e.g. kubectl create ')[1]?.split(/[ ,]+/) ?? [];
    expect([rolebinding, namespace]).toEqual(['rolebinding', ns]);
    await grant(client, ns, { clusterRole: role?.split('=')[1] as string }, subject?.split(':')[1]);
    expect(name).toBe(`${track.name}-deployer`);
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', counts: { applied: 2 } });
  });
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
