// Small pieces of the benchmark's environment: manifests on disk, the CPU each control-plane
// process spent, the ClusterGitTrack lightkeeper reconciles.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ControlPlane } from '../lib/controlplane/controlPlane';
import { installLightkeeperCrds } from '../lib/kube/crds';
import type { KubeClient } from '../lib/kube/kubeClient';
import { lightkeeperResources } from '../lib/kube/lightkeeperResources';
import { kubeClientFromFile } from '../lib/kube/loadKubeConfig';
import { resourcePath } from '../lib/kube/paths';
import type { TestRepo } from '../lib/localstack/gitRepo';
import { type CpuSample, cpuBetween, sampleCpu } from './cpuTime';

/** Writes `files` into a new temp dir (the caller removes it). */
export function writeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lk-bench-tree-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

export const pidsOf = (p: ControlPlane) => {
  const status = p.status();
  return {
    apiserver: status.apiserver.pid,
    etcd: status.etcd.pid,
    'controller-manager': status.controllerManager.pid,
  };
};

/**
 * Runs `fn` and returns its result with the CPU each control-plane process, each of `others` and
 * the client spent.
 */
export async function withCpu<T>(
  p: ControlPlane,
  fn: () => Promise<T>,
  others: Record<string, number | undefined> = {},
): Promise<[T, CpuSample]> {
  const pids = () => ({ ...pidsOf(p), ...others });
  const before = sampleCpu(pids());
  const out = await fn();
  return [out, cpuBetween(before, sampleCpu(pids()))];
}

export async function createTrack(client: KubeClient, name: string, repo: TestRepo): Promise<void> {
  await client.request('POST', resourcePath(lightkeeperResources.ClusterGitTrack), {
    body: {
      apiVersion: 'lightkeeper.dev/v1alpha1',
      kind: 'ClusterGitTrack',
      metadata: { name },
      spec: { repository: repo.url, reference: 'main' },
    },
  });
}

/**
 * One LIST of each tracking-object kind. The first consistent LIST of a resource after the API
 * server (or its CRD) starts waits ~1 s for the resource's watch cache to be known fresh; in a
 * cluster that has run for a while that happened long ago, so the benchmark does it before timing.
 */
export async function warmTrackerLists(client: KubeClient): Promise<void> {
  for (const r of [lightkeeperResources.GitTrackObject, lightkeeperResources.ClusterGitTrackObject]) {
    await client.get(resourcePath(r), { query: { limit: '1' } });
  }
}

/**
 * Runs `fn` on a control plane of its own (lightkeeper's CRDs installed, the tracking objects' lists
 * warm) and stops it after: a measurement does not pay for the objects an earlier one left, nor for
 * the controllers still rolling out that one's Deployments. `onPlane` is told the plane while it runs
 * (undefined after), for a stop on Ctrl-C.
 */
export async function onFreshPlane<T>(
  log: (line: string) => void,
  label: string,
  fn: (plane: ControlPlane, client: KubeClient) => Promise<T>,
  onPlane: (plane: ControlPlane | undefined) => void = () => {},
): Promise<T> {
  const plane = await ControlPlane.start({ log: (l) => log(`control plane for ${label}: ${l}`) });
  onPlane(plane);
  try {
    const client = await kubeClientFromFile(plane.kubeconfig);
    try {
      await installLightkeeperCrds(client);
      await warmTrackerLists(client);
      return await fn(plane, client);
    } finally {
      await client.close();
    }
  } finally {
    await plane.stop();
    onPlane(undefined);
  }
}
