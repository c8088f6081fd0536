// A tracking object is readable by whoever may read tracking objects (a `view` role aggregated with
// them, an auditor, another team's dashboard), most of whom may not read Secrets. The digests it
// shows are keyed with a key kept in the reconciler's own namespace (lib/apply/digestKey.ts): from
// them nobody can check a guess of a Secret's password offline, while the in-sync check still finds
// every change in git. Digests written before the key existed no longer match: one re-apply per
// object, never a deletion, and the no-op after it writes nothing.
import { describe, expect, it } from 'vitest';
import { digestKeySecretName } from '../../../lib/apply/digestKey';
import { clientAs } from '../../../lib/identity/trackIdentity';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { lightkeeperResources } from '../../../lib/kube/lightkeeperResources';
import { resourcePath } from '../../../lib/kube/paths';
import { defaultLeaseNamespace } from '../../../lib/lease/leaseTarget';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { digestOf, type JsonValue, parseManifests } from '../../../lib/manifests';
import { trackingObjectName } from '../../../lib/ownership/trackingObjectName';
import { keyedDigest } from '../../../lib/plan/plannedDigest';
import type { LiveTracker } from '../../../lib/tracker/liveTracker';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createGitTrack, engine, getLive, yamlOf } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { reconcilerClient } from '../../support/reconcilerClient';
import { createRole, grant } from '../../support/tenancy';

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const secret = (ns: string, password: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db', namespace: ns },
  type: 'Opaque',
  stringData: { username: 'app', password },
});

/** What anyone can compute for a guessed password: the digest of the manifest as git would hold it. */
const plainDigest = (ns: string, password: string) => {
  const yaml = yamlOf(secret(ns, password));
  const [manifest] = parseManifests([{ path: 'db.yaml', content: new TextEncoder().encode(yaml) }]).manifests;
  return digestOf(manifest?.object as JsonValue);
};

const trackerPath = (ns: string) =>
  resourcePath({
    ...lightkeeperResources.GitTrackObject,
    namespace: ns,
    name: trackingObjectName({ group: '', kind: 'Secret', namespace: ns, name: 'db' }),
  });

describe('tracking objects are no password oracle', () => {
  it('show only digests keyed with a key tenants cannot read; a change of password is still applied', async () => {
    const ns = await freshNamespace(client, 'oracle');
    const repo = createRepo(server, uniqueName('oracle'));
    commit(repo, { 'db.yaml': yamlOf(secret(ns, 'hunter2')) }, 'db');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');

    // Whoever may read tracking objects (here an auditor's account), though not the Secrets.
    await createRole(client, ns, 'tracking-reader', [
      { apiGroups: ['lightkeeper.dev'], resources: ['gittrackobjects'], verbs: ['get', 'list'] },
    ]);
    await grant(client, ns, { role: 'tracking-reader' }, 'auditor');
    const as = (name: string) =>
      clientAs(client, {
        kind: 'ServiceAccount',
        namespace: ns,
        name,
        user: `system:serviceaccount:${ns}:${name}`,
      });
    const auditor = as('auditor');
    await expect(
      auditor.get(resourcePath({ apiVersion: 'v1', plural: 'secrets', namespace: ns, name: 'db' })),
    ).rejects.toMatchObject({ status: 403 });
    const tracker = await auditor.get<LiveTracker>(trackerPath(ns));
    const shown = [tracker.spec.digest, tracker.status?.lastAppliedDigest];
    for (const guess of ['password', '123456', 'hunter1', 'hunter2']) {
      expect(shown).not.toContain(plainDigest(ns, guess));
    }
    // The key is the reconciler's: neither the auditor nor the tenant (admin of its namespace) may read it.
    const keyPath = `/api/v1/namespaces/${defaultLeaseNamespace}/secrets/${digestKeySecretName}`;
    for (const reader of [auditor, as('default')]) {
      await expect(reader.get(keyPath)).rejects.toMatchObject({ status: 403 });
    }
    // With the key, the digest is the manifest's: equal manifests still digest equally.
    const keySecret = await client.get<{ data: { key: string } }>(keyPath);
    const key = Buffer.from(keySecret.data.key, 'base64');
    expect(shown).toEqual([
      keyedDigest(key, plainDigest(ns, 'hunter2')),
      keyedDigest(key, plainDigest(ns, 'hunter2')),
    ]);

    const noop = await e.run(track);
    expect(noop).toMatchObject({ result: 'Succeeded', counts: { applied: 0, inSync: 1 } });
    expect(noop.writes.objects).toBe(0);

    commit(repo, { 'db.yaml': yamlOf(secret(ns, 'correct horse battery staple')) }, 'rotate');
    const rotated = await e.run(track);
    expect(rotated).toMatchObject({ result: 'Succeeded', counts: { applied: 1 } });
    const live = await getLive(client, { apiVersion: 'v1', plural: 'secrets' }, 'db', ns);
    const data = live?.data as Record<string, string>;
    expect(Buffer.from(data.password ?? '', 'base64').toString()).toBe('correct horse battery staple');
  });

  it('re-applies an object whose digest an earlier version wrote once, deleting nothing', async () => {
    const ns = await freshNamespace(client, 'oracle-upgrade');
    const repo = createRepo(server, uniqueName('oracle-upgrade'));
    commit(repo, { 'db.yaml': yamlOf(secret(ns, 'hunter2')) }, 'db');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    expect((await e.run(track)).result).toBe('Succeeded');
    const before = await getLive(client, { apiVersion: 'v1', plural: 'secrets' }, 'db', ns);

    // As the version before the key left it: the plain digest in spec and status.
    const plain = plainDigest(ns, 'hunter2');
    await client.request('PATCH', trackerPath(ns), {
      contentType: 'application/merge-patch+json',
      body: { spec: { digest: plain }, status: { lastAppliedDigest: plain } },
    });

    const upgraded = await e.run(track);
    expect(upgraded).toMatchObject({ result: 'Succeeded', counts: { applied: 1, pruned: 0, drifted: 0 } });
    expect(upgraded.changes).toEqual([expect.objectContaining({ action: 'configured' })]);
    // Its tracking object's spec (the new digest), the child's apply (nothing changes on it), the status.
    expect(upgraded.writes.objects).toBe(3);
    const after = await getLive(client, { apiVersion: 'v1', plural: 'secrets' }, 'db', ns);
    expect(after?.metadata.uid).toBe(before?.metadata.uid);
    const keySecret = await client.get<{ data: { key: string } }>(
      `/api/v1/namespaces/${defaultLeaseNamespace}/secrets/${digestKeySecretName}`,
    );
    const key = Buffer.from(keySecret.data.key, 'base64');
    expect((await client.get<LiveTracker>(trackerPath(ns))).spec.digest).toBe(keyedDigest(key, plain));

    const noop = await e.run(track);
    expect(noop).toMatchObject({ result: 'Succeeded', counts: { applied: 0, inSync: 1 } });
    expect(noop.writes.objects).toBe(0);
  });

  it('fails clearly, applying and pruning nothing, where the reconciler may not read its key', async () => {
    const ns = await freshNamespace(client, 'oracle-nokey');
    const elsewhere = await freshNamespace(client, 'oracle-keyless');
    const repo = createRepo(server, uniqueName('oracle-nokey'));
    commit(repo, { 'db.yaml': yamlOf(secret(ns, 'hunter2')) }, 'db');
    const track = await createGitTrack(client, ns, { repository: repo.url, reference: 'main' });
    const reconciler = await reconcilerClient(client);
    try {
      const run = engine(reconciler, { keyNamespace: elsewhere });
      const summary = await run.run(track);
      run.dispose();
      expect(summary).toMatchObject({ result: 'Failed', counts: { applied: 0, pruned: 0 } });
      expect(summary.errors).toEqual([
        expect.stringContaining(
          `cannot read or create Secret/${elsewhere}/${digestKeySecretName}, the key of tracking-object digests`,
        ),
      ]);
      expect(await getLive(client, { apiVersion: 'v1', plural: 'secrets' }, 'db', ns)).toBeUndefined();
    } finally {
      await reconciler.close();
    }
  });
});
