import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { helmCli } from '../../support/chartRepository';
import { freshNamespace, kubeconfig, uniqueName } from '../../support/cluster';
import { createGitTrack } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { splitSources } from '../../support/helmOracle';

// Taking over a release Helm installed: the real `helm install` of podinfo on the control plane,
// then a GitTrack with spec.helm for the same chart and release name. Every object is adopted in
// place (same UID, nothing deleted or recreated), and the release's sh.helm.release.v1 Secrets
// can then be deleted (docs/helm.md) without touching the objects (`helm uninstall` would delete them).

let client: KubeClient;
let server: GitServer;
let e: EngineHarness['e'];
useEngineHarness((h) => ({ client, server, e } = h));

const podinfo = join(import.meta.dirname, '../../../../shared/corpus/charts/podinfo');

function chartFiles(dir: string, into: string): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) {
    const at = join(dir, name);
    if (statSync(at).isDirectory()) Object.assign(files, chartFiles(at, `${into}/${name}`));
    else files[`${into}/${relative(dir, at)}`] = readFileSync(at);
  }
  return files;
}

interface Live {
  metadata: { uid: string; ownerReferences?: Array<{ kind: string }> };
}

const plural: Record<string, string> = {
  Deployment: '/apis/apps/v1/namespaces/NS/deployments',
  Service: '/api/v1/namespaces/NS/services',
};

/** The UID of each object the release's manifest lists, read from the cluster. */
async function uids(keys: string[], ns: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const key of keys) {
    const [kind, , name] = key.split('/');
    const base = plural[kind ?? ''];
    if (base === undefined) throw new Error(`no path for ${key}`);
    const live = await client.get<Live>(`${base.replace('NS', ns)}/${name}`);
    out.set(key, live.metadata.uid);
  }
  return out;
}

const releaseSecrets = async (ns: string) =>
  (
    await client.get<{ items: Array<{ metadata: { name: string } }> }>(
      `/api/v1/namespaces/${ns}/secrets?labelSelector=owner%3Dhelm`,
    )
  ).items.map((s) => s.metadata.name);

describe('a release installed by helm', () => {
  it('is adopted by a GitTrack of the same chart and release: same UIDs, nothing deleted; its Secrets then retired', async () => {
    const ns = await freshNamespace(client, 'helm-adopt');
    await helmCli(['install', 'podinfo', podinfo, '--namespace', ns, '--kubeconfig', kubeconfig()]);
    const manifest = await helmCli([
      'get',
      'manifest',
      'podinfo',
      '--namespace',
      ns,
      '--kubeconfig',
      kubeconfig(),
    ]);
    const keys = splitSources(manifest).map((o) => o.key.replace('//', `/${ns}/`));
    expect(keys.sort()).toEqual([`Deployment/${ns}/podinfo`, `Service/${ns}/podinfo`]);
    const installed = await uids(keys, ns);
    expect(await releaseSecrets(ns)).toEqual(['sh.helm.release.v1.podinfo.v1']);

    const repo = createRepo(server, uniqueName('helm-adopt'));
    commit(repo, chartFiles(podinfo, 'charts/podinfo'), 'podinfo chart');
    const track = await createGitTrack(
      client,
      ns,
      { repository: repo.url, reference: 'main', subPath: 'charts/podinfo', helm: {} },
      { name: 'podinfo' },
    );
    const adopted = await e.run(track);
    expect(adopted.errors).toEqual([]);
    expect(adopted).toMatchObject({ result: 'Succeeded', counts: { failed: 0, conflicts: 0 } });
    for (const key of keys) {
      const [kind, , name] = key.split('/');
      const subject = `${kind === 'Deployment' ? 'Deployment.apps' : kind}/${ns}/${name}`;
      // Taken over in place: configured (the tracking object's owner reference added), never created.
      expect(adopted.changes).toContainEqual({ subject, action: 'configured' });
    }
    expect(await uids(keys, ns)).toEqual(installed);
    const deployment = await client.get<Live>(`/apis/apps/v1/namespaces/${ns}/deployments/podinfo`);
    expect(deployment.metadata.ownerReferences?.map((o) => o.kind)).toEqual(['GitTrackObject']);

    // Retiring the release: delete its Secrets (not `helm uninstall`, which deletes the objects).
    await client.request('DELETE', `/api/v1/namespaces/${ns}/secrets/sh.helm.release.v1.podinfo.v1`);
    expect(await releaseSecrets(ns)).toEqual([]);
    const after = await e.run(track);
    expect(after).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });
    expect(await uids(keys, ns)).toEqual(installed);
    // Dropping Helm's field manager (docs/helm.md): an empty apply as `helm` leaves every field to lightkeeper.
    await client.request('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/podinfo?fieldManager=helm`, {
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'podinfo', namespace: ns } },
      contentType: 'application/apply-patch+yaml',
    });
    const managers = await client.get<Live & { metadata: { managedFields: Array<{ manager: string }> } }>(
      `/apis/apps/v1/namespaces/${ns}/deployments/podinfo`,
    );
    expect(managers.metadata.managedFields.map((m) => m.manager)).not.toContain('helm');
    expect(managers.metadata.uid).toBe(installed.get(`Deployment/${ns}/podinfo`));
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });
    // Helm no longer knows the release: nothing of it is left to upgrade, roll back or uninstall.
    await expect(
      helmCli(['status', 'podinfo', '--namespace', ns, '--kubeconfig', kubeconfig()]),
    ).rejects.toThrow(/release: not found/);
  });
});
