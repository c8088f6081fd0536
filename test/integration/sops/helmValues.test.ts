import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffTrack } from '../../../lib/diff/diffTrack';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { commit, createRepo } from '../../../lib/localstack/gitRepo';
import type { GitServer } from '../../../lib/localstack/gitServer';
import { decryptedAnnotation } from '../../../lib/manifests/metadataKeys';
import { freshNamespace, uniqueName } from '../../support/cluster';
import { createGitTrack, getLive, includeNamespaced, trackStatus } from '../../support/engine';
import { type EngineHarness, useEngineHarness } from '../../support/engineHarness';
import { ageKeygen, createAgeKeySecret, sopsEncrypt } from '../../support/sopsOracle';

// The case Flux declined (flux2 #4075): a chart's values file encrypted with SOPS, decrypted in the
// engine's memory with the track's keys and rendered; without a key the commit is broken.

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

const deployments = { apiVersion: 'apps/v1', plural: 'deployments' };
type Env = Array<{ name: string; value?: string }>;
const envOf = (d: unknown) =>
  (d as { spec: { template: { spec: { containers: Array<{ env?: Env }> } } } }).spec.template.spec
    .containers[0]?.env;

describe('a Helm values file encrypted with SOPS', () => {
  it('is decrypted with the track keys and rendered, masked in diff; a wrong key breaks the commit', async () => {
    const [key, wrong] = await Promise.all([ageKeygen(), ageKeygen()]);
    const ns = await freshNamespace(client, 'sops-helm');
    await createAgeKeySecret(client, ns, key);
    const repo = createRepo(server, uniqueName('sops-helm'));
    const values = (message: string, recipient = key.recipient) =>
      sopsEncrypt('values-secret.yaml', `ui:\n  message: ${message}\n`, recipient);
    commit(
      repo,
      { ...chartFiles(podinfo, 'podinfo'), 'podinfo/values-secret.yaml': await values('helm-plain-1') },
      'chart with encrypted values',
    );
    const track = await createGitTrack(
      client,
      ns,
      {
        repository: repo.url,
        reference: 'main',
        subPath: 'podinfo',
        helm: { valuesFiles: ['values-secret.yaml'] },
        decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
      },
      { name: 'podinfo' },
    );
    const installed = await e.run(track);
    expect(installed.errors).toEqual([]);
    expect(installed).toMatchObject({ result: 'Succeeded', counts: { failed: 0 } });
    const deployment = await getLive(client, deployments, 'podinfo', ns);
    expect(envOf(deployment)).toContainEqual({ name: 'PODINFO_UI_MESSAGE', value: 'helm-plain-1' });
    expect(deployment?.metadata.annotations?.[decryptedAnnotation]).toBe('sops');
    expect(await e.run(track)).toMatchObject({ result: 'Succeeded', writes: { objects: 0 } });

    commit(repo, { 'podinfo/values-secret.yaml': await values('helm-plain-2') }, 'new message');
    const diff = await diffTrack(client, includeNamespaced, { track });
    expect(diff.errors).toEqual([]);
    expect(diff.changed.map((c) => c.subject)).toEqual([`Deployment.apps/${ns}/podinfo`]);
    expect(JSON.stringify(diff)).not.toMatch(/helm-plain/);

    commit(
      repo,
      { 'podinfo/values-secret.yaml': await values('helm-plain-3', wrong.recipient) },
      'wrong key',
    );
    const broken = await e.run(track);
    expect(broken).toMatchObject({
      result: 'Failed',
      counts: { applied: 0, pruned: 0 },
      writes: { objects: 0 },
    });
    expect(envOf(await getLive(client, deployments, 'podinfo', ns))).toContainEqual({
      name: 'PODINFO_UI_MESSAGE',
      value: 'helm-plain-1',
    });
    const parsed = (await trackStatus(client, track)).conditions.find((c) => c.type === 'Parsed');
    expect(parsed?.message).toContain('values file values-secret.yaml: cannot decrypt: no matching key');
    expect(JSON.stringify(await trackStatus(client, track))).not.toMatch(/helm-plain/);
  });
});
