import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../../lib/audit/auditCluster';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { requestServiceAccountToken } from '../../../lib/kube/serviceAccountToken';
import { tokenKubeconfig } from '../../../lib/kube/tokenKubeconfig';
import type { OwnerReference } from '../../../lib/ownership/ownerReference';
import {
  eventually,
  freshNamespace,
  kubeClient,
  kubeconfig,
  localControlPlane,
  uniqueName,
} from '../../support/cluster';
import {
  type Created,
  createObject,
  createTrack,
  createTrackingObject,
  liveUid,
} from '../../support/trackingObjects';

// `lightkeeper audit` names, before the collector acts, exactly the objects a restarted collector
// then deletes or reports — and none of the legal shapes.

const run = promisify(execFile);
const audit = (...args: string[]) => auditAs(kubeconfig(), ...args);
const auditAs = (config: string, ...args: string[]) =>
  run('node', ['bin/lightkeeper.mjs', 'audit', '-o', 'json', ...args], {
    env: { ...process.env, KUBECONFIG: config },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

let client: KubeClient;
beforeAll(async () => {
  client = await kubeClient();
});
afterAll(() => client.close());

const plane = localControlPlane();

const referenceTo = (o: { apiVersion: string; kind: string; name: string; uid: string }): OwnerReference => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.name,
  uid: o.uid,
  controller: true,
  blockOwnerDeletion: true,
});
const configMap = (name: string, namespace: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  name,
  namespace,
});
const target = { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' };
const invalidNamespaceEvents = async (o: Created) =>
  (
    await client.get<{ items: Array<{ reason: string; involvedObject: { kind: string; name: string } }> }>(
      '/api/v1/events',
    )
  ).items.filter(
    (e) =>
      e.reason === 'OwnerRefInvalidNamespace' &&
      e.involvedObject.kind === o.kind &&
      e.involvedObject.name === o.name,
  );

describe.skipIf(!plane)('lightkeeper audit, checked against a restarted garbage collector', () => {
  it('names exactly what the collector then deletes or reports, and no legal shape', async () => {
    const [a, b, legal] = await Promise.all([
      freshNamespace(client, 'audit-a'),
      freshNamespace(client, 'audit-b'),
      freshNamespace(client, 'audit-legal'),
    ]);
    await plane!.stopControllerManager();
    let shapes: Record<string, Created>;
    let clusterTrack: Created;
    let report: AuditReport;
    let exitCode: number;
    let filtered: { code: number; stdout: string };
    try {
      const gitTrack = await createTrack(client, 'GitTrack', 'seed', a);
      const legalTrack = await createTrack(client, 'GitTrack', 'team', legal);
      clusterTrack = await createTrack(client, 'ClusterGitTrack', uniqueName('audit-cgt'));
      shapes = {
        crossNamespace: await createTrackingObject(client, 'GitTrackObject', 'cross', b, target, [
          referenceTo(gitTrack),
        ]),
        dangling: await createObject(client, configMap('dangling', a), { data: {} }, [
          referenceTo({ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: randomUUID() }),
        ]),
        clusterScoped: await createTrackingObject(
          client,
          'ClusterGitTrackObject',
          uniqueName('audit-seed'),
          undefined,
          target,
          [referenceTo(gitTrack)],
        ),
        unserved: await createObject(client, configMap('faros-owned', a), { data: {} }, [
          referenceTo({
            apiVersion: 'faros.pusher.com/v1alpha1',
            kind: 'GitTrack',
            name: 'seed',
            uid: randomUUID(),
          }),
        ]),
        sameNamespace: await createTrackingObject(client, 'GitTrackObject', 'same', legal, target, [
          referenceTo(legalTrack),
        ]),
        clusterOwnedNamespaced: await createTrackingObject(
          client,
          'GitTrackObject',
          'from-cgt',
          legal,
          target,
          [referenceTo(clusterTrack)],
        ),
        clusterOwnedClusterScoped: await createTrackingObject(
          client,
          'ClusterGitTrackObject',
          uniqueName('audit-legal'),
          undefined,
          target,
          [referenceTo(clusterTrack)],
        ),
      };
      // The CLI, as an operator runs it, while the collector is still down.
      const result = await audit();
      exitCode = result.code;
      report = JSON.parse(result.stdout) as AuditReport;
      filtered = await audit('-n', legal);
    } finally {
      await plane!.startControllerManager();
    }

    expect(exitCode).toBe(1);
    const ours = new Map(Object.entries(shapes).map(([shape, o]) => [o.uid, shape]));
    const named: Record<string, { finding: string; consequence: string }> = Object.fromEntries(
      report.findings
        .filter((f) => ours.has(f.dependent.uid))
        .map((f) => [ours.get(f.dependent.uid), { finding: f.finding, consequence: f.consequence }]),
    );
    expect(named).toEqual({
      crossNamespace: { finding: 'CrossNamespaceOwner', consequence: 'deleted' },
      dangling: { finding: 'DanglingOwner', consequence: 'deleted' },
      clusterScoped: { finding: 'NamespacedOwnerOfClusterScoped', consequence: 'leaks' },
      unserved: { finding: 'UnservedOwnerKind', consequence: 'never collected' },
    });
    const cross = report.findings.find((f) => f.dependent.uid === shapes.crossNamespace!.uid);
    expect(cross?.owner).toMatchObject({ kind: 'GitTrack', name: 'seed', foundIn: a });
    expect(cross?.why).toMatch(/an owner reference has no namespace/);
    // Only legal shapes in that namespace: clean.
    expect(filtered.code).toBe(0);
    expect((JSON.parse(filtered.stdout) as AuditReport).findings).toEqual([]);

    // The restarted collector does what the audit said, to exactly those objects.
    const deleted = Object.entries(named)
      .filter(([, f]) => f.consequence === 'deleted')
      .map(([shape]) => shapes[shape]!);
    await eventually('the collector deletes the objects the audit said it would', async () =>
      (await Promise.all(deleted.map((o) => liveUid(client, o)))).every((uid) => uid === undefined),
    );
    await eventually('the collector reports the cluster-scoped dependent of a namespaced owner', async () => {
      return (await invalidNamespaceEvents(shapes.clusterScoped!)).length > 0;
    });
    for (const shape of [
      'clusterScoped',
      'unserved',
      'sameNamespace',
      'clusterOwnedNamespaced',
      'clusterOwnedClusterScoped',
    ])
      expect(await liveUid(client, shapes[shape]!), shape).toBe(shapes[shape]!.uid);
    for (const shape of ['sameNamespace', 'clusterOwnedNamespaced', 'clusterOwnedClusterScoped'])
      expect(await invalidNamespaceEvents(shapes[shape]!), shape).toEqual([]);

    await client.request('DELETE', shapes.clusterScoped!.path);
    await client.request('DELETE', clusterTrack.path);
  });
});

describe('lightkeeper audit that cannot read the cluster', () => {
  it('exits 2, never 1 (findings), with one line naming what it could not list', async () => {
    const ns = await freshNamespace(client, 'audit-forbidden');
    // A ServiceAccount with no binding: it may read discovery, not list objects cluster-wide.
    await client.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'auditor' } },
    });
    const { token } = await requestServiceAccountToken(client, { namespace: ns, name: 'auditor' }, 600);
    const base = new KubeConfig();
    base.loadFromFile(kubeconfig());
    const dir = mkdtempSync(join(tmpdir(), 'lk-audit-'));
    try {
      const config = join(dir, 'kubeconfig');
      writeFileSync(config, tokenKubeconfig(base, 'tenant', token));
      const result = await auditAs(config);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lightkeeper: list \S+: .*forbidden/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
