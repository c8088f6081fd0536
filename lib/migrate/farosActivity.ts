import type { KubeClient } from '../kube/kubeClient';
import { farosLabel } from './farosResources';
import type { FarosObjects } from './readFarosObjects';

/** A sign that a Faros controller still runs, with how to stop it. */
export interface FarosActivity {
  what: string;
  stop: string;
}

/** A status write of Faros' this recent means its controller may still be running. */
export const recentStatusWindowMs = 5 * 60_000;

interface Workload {
  metadata: { name: string; namespace: string };
  spec?: {
    replicas?: number;
    template?: {
      spec?: { containers?: Array<{ image?: string }>; initContainers?: Array<{ image?: string }> };
    };
  };
  status?: { replicas?: number };
}

/** `quay.io/pusher/faros:v0.7.1`, `faros@sha256:…`: an image whose repository's last segment is faros. */
export function isFarosImage(image: string): boolean {
  const withoutDigest = image.split('@')[0] ?? '';
  const lastSegment = withoutDigest.split('/').pop() ?? '';
  return lastSegment.split(':')[0] === 'faros';
}

const workloads = [
  { kind: 'Deployment', path: '/apis/apps/v1/deployments', short: 'deployment' },
  { kind: 'StatefulSet', path: '/apis/apps/v1/statefulsets', short: 'statefulset' },
] as const;

/** Workloads running the Faros image with replicas wanted or still running, in every namespace. */
async function farosWorkloads(client: KubeClient): Promise<FarosActivity[]> {
  const found: FarosActivity[] = [];
  for (const w of workloads) {
    const list = await client.get<{ items?: Workload[] }>(w.path, { subject: `list ${w.kind}s` });
    for (const item of list.items ?? []) {
      const pod = item.spec?.template?.spec;
      const images = [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])].map((c) => c.image ?? '');
      const image = images.find(isFarosImage);
      if (!image) continue;
      const wanted = item.spec?.replicas ?? 1;
      const running = item.status?.replicas ?? 0;
      if (wanted === 0 && running === 0) continue;
      const { name, namespace } = item.metadata;
      found.push({
        what: `${w.kind} ${namespace}/${name} runs the Faros image ${image} (replicas ${wanted}, running ${running})`,
        stop: `kubectl scale ${w.short}/${name} -n ${namespace} --replicas=0 (or delete it), wait until its pods are gone`,
      });
    }
  }
  return found;
}

/** The newest condition timestamp Faros wrote on any of its objects. */
export function lastFarosStatusWrite(faros: FarosObjects): { at: Date; object: string } | undefined {
  let newest: { at: Date; object: string } | undefined;
  for (const o of [...faros.tracks, ...faros.trackers]) {
    for (const c of o.status?.conditions ?? []) {
      for (const t of [c.lastUpdateTime, c.lastTransitionTime]) {
        const at = t ? new Date(t) : undefined;
        if (at && !Number.isNaN(at.getTime()) && (!newest || at > newest.at))
          newest = { at, object: farosLabel(o) };
      }
    }
  }
  return newest;
}

/**
 * Every sign that a Faros controller may still be running: a Deployment or StatefulSet with the
 * Faros image anywhere in the cluster, or a Faros status write within the last five minutes (a
 * controller run from outside the cluster, or one stopped a moment ago).
 */
export async function farosActivity(
  client: KubeClient,
  faros: FarosObjects,
  now = new Date(),
): Promise<FarosActivity[]> {
  const found = await farosWorkloads(client);
  const last = lastFarosStatusWrite(faros);
  if (last && now.getTime() - last.at.getTime() < recentStatusWindowMs) {
    const after = new Date(last.at.getTime() + recentStatusWindowMs).toISOString();
    found.push({
      what: `Faros wrote the status of ${last.object} at ${last.at.toISOString()}, less than ${recentStatusWindowMs / 60_000} minutes ago`,
      stop: `stop every Faros controller (also any outside the cluster) and run again after ${after}`,
    });
  }
  return found;
}
