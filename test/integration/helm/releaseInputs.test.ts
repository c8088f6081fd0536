import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { diffTrack } from '../../../lib/diff/diffTrack';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import type { TrackRef } from '../../../lib/track/trackRef';
import { freshNamespace, uniqueName } from '../../support/cluster';
import {
  createClusterGitTrack,
  createGitTrack,
  getLive,
  includeNamespaced,
  patchTrackSpec,
  trackStatus,
} from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { createRole, grant } from '../../support/tenancy';

// spec.helm.valuesFrom, postRender and a nondeterministic chart on the real control plane: values
// read as the GitTrack's own service account from its namespace, a Secret's values nowhere in the
// track's status, its Events, what the run logged or the diff; a source the track may not read
// breaks the commit (nothing applied, nothing pruned); a chart using randAlphaNum is reported and
// its sweeps write nothing; a post-render's labels and patch reach the cluster.

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const chart = (name: string, templates: Record<string, string>, values = '{}\n') => ({
  [`${name}/Chart.yaml`]: `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`,
  [`${name}/values.yaml`]: values,
  ...Object.fromEntries(Object.entries(templates).map(([f, t]) => [`${name}/templates/${f}`, t])),
});

const dbChart = chart(
  'db',
  {
    'secret.yaml':
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-db\nstringData:\n  password: {{ .Values.db.password | quote }}\n',
    'cm.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-conf\ndata:\n  user: {{ .Values.db.user | quote }}\n',
  },
  'db:\n  user: nobody\n  password: ""\n',
);

const secrets = { apiVersion: 'v1', plural: 'secrets' };
const configMaps = { apiVersion: 'v1', plural: 'configmaps' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function putObject(
  ns: string,
  kind: 'Secret' | 'ConfigMap',
  name: string,
  data: Record<string, string>,
) {
  const plural = kind === 'Secret' ? 'secrets' : 'configmaps';
  const body = {
    apiVersion: 'v1',
    kind,
    metadata: { name, namespace: ns },
    ...(kind === 'Secret' ? { stringData: data } : { data }),
  };
  const path = resourcePath({ apiVersion: 'v1', plural, namespace: ns, name });
  if (await client.find(path)) await client.request('PUT', path, { body });
  else await client.request('POST', resourcePath({ apiVersion: 'v1', plural, namespace: ns }), { body });
}

const everything = async (ns: string, track: TrackRef) =>
  JSON.stringify([
    await client.get(resourcePath({ ...lightkeeperResources.GitTrack, namespace: ns, name: track.name })),
    await client.get(`/api/v1/namespaces/${ns}/events`),
  ]);

/** What the run wrote to stdout, stderr and the console, as a Lambda's log would hold it. */
let logged: string[] = [];
beforeEach(() => {
  logged = [];
  const keep = (chunk: unknown) => {
    logged.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, level).mockImplementation(
      (...args: unknown[]) => void keep(args.map(String).join(' ')),
    );
});
afterEach(() => vi.restoreAllMocks());

describe('spec.helm.valuesFrom on the control plane', () => {
  it("renders a tenant Secret's values, keeps them out of status, Events, logs and diff, and re-renders when it changes", async () => {
    const ns = await freshNamespace(client, 'helm-vf');
    const password = `pw-${uniqueName('s')}`;
    await putObject(ns, 'Secret', 'db-values', { 'values.yaml': `db:\n  password: ${password}\n` });
    await putObject(ns, 'ConfigMap', 'db-settings', { 'values.yaml': 'db:\n  user: alice\n' });
    const repo = createRepo(server, uniqueName('helm-vf'));
    commit(repo, dbChart, 'db chart');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      helm: {
        chart: 'db',
        releaseName: 'app',
        valuesFrom: [
          { kind: 'ConfigMap', name: 'db-settings' },
          { kind: 'Secret', name: 'db-values' },
          { kind: 'Secret', name: 'not-there', optional: true },
        ],
      },
    });
    const run = await e.run(track);
    expect(run.errors).toEqual([]);
    expect(run).toMatchObject({ result: 'Succeeded', counts: { failed: 0 } });
    const secret = await getLive(client, secrets, 'app-db', ns);
    expect((secret as { data?: Record<string, string> }).data?.password).toBe(b64(password));
    expect((await getLive(client, configMaps, 'app-conf', ns))?.data).toEqual({ user: 'alice' });

    // A changed Secret renders anew on the next run: the diff says so (masked), the run applies it.
    const rotated = `pw-${uniqueName('r')}`;
    await putObject(ns, 'Secret', 'db-values', { 'values.yaml': `db:\n  password: ${rotated}\n` });
    const planned = await diffTrack(client, includeNamespaced, { track });
    expect(planned.errors).toEqual([]);
    expect(planned.changed.map((c) => c.subject)).toEqual([`Secret/${ns}/app-db`]);
    const again = await e.run(track);
    expect(again.changes).toContainEqual({ subject: `Secret/${ns}/app-db`, action: 'configured' });
    const live = await getLive(client, secrets, 'app-db', ns);
    expect((live as { data?: Record<string, string> }).data?.password).toBe(b64(rotated));

    const seen = [await everything(ns, track), JSON.stringify([run, again, planned]), ...logged].join('\n');
    for (const value of [password, rotated, b64(password), b64(rotated)]) expect(seen).not.toContain(value);
  });

  it('breaks the commit when the track may not read a source: nothing applied, nothing pruned', async () => {
    const ns = await freshNamespace(client, 'helm-vf-forbidden');
    // The tenant's service account may manage ConfigMaps and Secrets it applies, but read no other Secret.
    await createRole(client, ns, 'apply-only', [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
      { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'update', 'patch', 'delete', 'list'] },
    ]);
    await grant(client, ns, { role: 'apply-only' });
    await putObject(ns, 'Secret', 'db-values', { 'values.yaml': 'db:\n  password: hidden\n' });
    const repo = createRepo(server, uniqueName('helm-vf-forbidden'));
    commit(repo, dbChart, 'db chart');
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main', helm: { chart: 'db', releaseName: 'app' } },
      { access: false },
    );
    const first = await e.run(track);
    expect(first.errors).toEqual([]);
    expect(await getLive(client, configMaps, 'app-conf', ns)).toBeDefined();

    await patchTrackSpec(client, track, {
      helm: { chart: 'db', releaseName: 'app', valuesFrom: [{ kind: 'Secret', name: 'db-values' }] },
    });
    const refused = await e.run(track);
    expect(refused).toMatchObject({ result: 'Failed', writes: { objects: 0 } });
    // The run's error is the one line naming the grant (lib/identity/forbiddenFix.ts); Parsed names the source.
    expect(refused.errors.join('\n')).toMatch(
      new RegExp(`acts as ServiceAccount ${ns}/default, which may not get secrets in ${ns}: grant it`),
    );
    const parsed = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed).toMatchObject({ status: 'False', reason: 'ParseFailed' });
    expect(parsed?.message).toMatch(
      new RegExp(
        `spec\\.helm\\.valuesFrom\\[0\\]: Secret ${ns}/db-values may not be read as system:serviceaccount:${ns}:default \\(the track's identity\\)`,
      ),
    );
    expect(await getLive(client, configMaps, 'app-conf', ns)).toBeDefined();

    // A source that is not there, and not optional: broken the same way, saying so.
    await patchTrackSpec(client, track, {
      helm: { chart: 'db', releaseName: 'app', valuesFrom: [{ kind: 'ConfigMap', name: 'missing' }] },
    });
    const missing = await e.run(track);
    expect(missing).toMatchObject({ result: 'Failed', writes: { objects: 0 } });
    expect(missing.errors.join('\n')).toMatch(
      new RegExp(`spec\\.helm\\.valuesFrom\\[0\\]: ConfigMap ${ns}/missing not found \\(set optional: true`),
    );
    expect(await getLive(client, configMaps, 'app-conf', ns)).toBeDefined();
  });
});

describe("a ClusterGitTrack's valuesFrom", () => {
  it('reads each source in the namespace it names (required, as for its secretRef)', async () => {
    const ns = await freshNamespace(client, 'helm-cvf');
    const vault = await freshNamespace(client, 'helm-cvf-vault');
    await putObject(vault, 'Secret', 'db-values', { password: 'cluster-pw-1' });
    const repo = createRepo(server, uniqueName('helm-cvf'));
    commit(repo, dbChart, 'db chart');
    const name = uniqueName('cvf');
    const source = { kind: 'Secret', name: 'db-values', valuesKey: 'password', targetPath: 'db.password' };
    // Without a namespace the API server refuses the ClusterGitTrack (crds/clustergittrack.yaml).
    await expect(
      createClusterGitTrack(
        client,
        {
          repository: repo.url,
          reference: 'main',
          helm: { chart: 'db', targetNamespace: ns, valuesFrom: [source] },
        },
        uniqueName('cvf-bad'),
      ),
    ).rejects.toThrow(/namespace: Required value/);
    const track = await createClusterGitTrack(
      client,
      {
        repository: repo.url,
        reference: 'main',
        helm: { chart: 'db', targetNamespace: ns, valuesFrom: [{ ...source, namespace: vault }] },
      },
      name,
    );
    const run = await e.run(track);
    expect(run.errors).toEqual([]);
    const secret = await getLive(client, secrets, `${name}-db`, ns);
    expect((secret as { data?: Record<string, string> }).data?.password).toBe(b64('cluster-pw-1'));
  });
});

describe('a nondeterministic chart on the control plane', () => {
  it('is reported as RenderNondeterministic, and its sweeps write nothing until a new commit', async () => {
    const ns = await freshNamespace(client, 'helm-rand');
    const repo = createRepo(server, uniqueName('helm-rand'));
    const files = chart('rand', {
      'secret.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-token\nstringData:\n  token: {{ randAlphaNum 32 | quote }}\n',
      'cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-conf\ndata:\n  a: "1"\n',
    });
    commit(repo, files, 'random chart');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      helm: { chart: 'rand', releaseName: 'app' },
    });
    const installed = await e.run(track);
    expect(installed).toMatchObject({ result: 'Succeeded', counts: { failed: 0 } });
    const token = (await getLive(client, secrets, 'app-token', ns))?.data as Record<string, string>;
    const parsed = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed).toMatchObject({ status: 'True', reason: 'RenderNondeterministic' });
    expect(parsed?.message).toContain(`Secret/app-token /stringData/token`);
    expect(parsed?.message).not.toContain(Buffer.from(token.token as string, 'base64').toString());
    const events = await client.get<{ items: Array<{ reason: string }> }>(`/api/v1/namespaces/${ns}/events`);
    expect(events.items.filter((x) => x.reason === 'RenderNondeterministic')).toHaveLength(1);

    // Sweeps of the same commit render anew (a fresh render: IsUpgrade now true) and keep the live token.
    for (const sweep of [1, 2]) {
      const drift = await e.run(track, { mode: 'drift', reason: `sweep ${sweep}` });
      expect(drift).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });
      expect((await getLive(client, secrets, 'app-token', ns))?.data).toEqual(token);
    }
    const warned = await client.get<{ items: Array<{ reason: string; count?: number }> }>(
      `/api/v1/namespaces/${ns}/events`,
    );
    expect(warned.items.filter((x) => x.reason === 'RenderNondeterministic')).toHaveLength(1);

    // A new commit renders a new token, as `helm upgrade` would.
    commit(
      repo,
      { 'rand/templates/cm.yaml': files['rand/templates/cm.yaml']?.replace('"1"', '"2"') ?? '' },
      'b',
    );
    const upgraded = await e.run(track);
    expect(upgraded.changes).toContainEqual({ subject: `Secret/${ns}/app-token`, action: 'configured' });
    expect((await getLive(client, secrets, 'app-token', ns))?.data).not.toEqual(token);
  });
});

describe('spec.helm.postRender on the control plane', () => {
  it("applies the kustomization's labels and patch to the chart's objects", async () => {
    const ns = await freshNamespace(client, 'helm-post');
    const repo = createRepo(server, uniqueName('helm-post'));
    commit(repo, dbChart, 'db chart');
    const track = await createGitTrack(client, ns, {
      repository: repo.url,
      reference: 'main',
      helm: {
        chart: 'db',
        releaseName: 'app',
        postRender: {
          labels: [{ pairs: { team: 'payments' } }],
          patches: [
            {
              patch: '- op: add\n  path: /data/patched\n  value: "yes"\n',
              target: { kind: 'ConfigMap', name: 'app-conf' },
            },
          ],
        },
      },
    });
    const run = await e.run(track);
    expect(run.errors).toEqual([]);
    const conf = await getLive(client, configMaps, 'app-conf', ns);
    expect(conf?.metadata.labels).toMatchObject({ team: 'payments' });
    expect(conf?.data).toEqual({ user: 'nobody', patched: 'yes' });
    expect((await getLive(client, secrets, 'app-db', ns))?.metadata.labels).toMatchObject({
      team: 'payments',
    });
    const noop = await e.run(track);
    expect(noop).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });
  });
});
