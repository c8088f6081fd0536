import { conditionOf, conditionsOf, intField, stringField, type Unstructured } from './fields';
import { current, failed, type Health, inProgress } from './health';

/**
 * A Job is healthy once it completed (or is suspended) and failed once it failed. Unlike kstatus,
 * which calls a started Job current, a running Job is in progress: what Flux users expect of a
 * health check (a migration Job must finish before the rollout counts as healthy).
 */
export function jobHealth(j: Unstructured): Health {
  const parallelism = intField(j, 'spec.parallelism', 1);
  const completions = intField(j, 'spec.completions', parallelism);
  const succeeded = intField(j, 'status.succeeded', 0);
  const active = intField(j, 'status.active', 0);
  const failedPods = intField(j, 'status.failed', 0);
  for (const c of conditionsOf(j)) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete') return current(`Job Completed. succeeded: ${succeeded}/${completions}`);
    if (c.type === 'Failed')
      return failed(
        'JobFailed',
        `Job Failed. failed: ${failedPods}/${completions}${c.message ? `: ${c.message}` : ''}`,
      );
    if (c.type === 'Suspended') return current('Job is suspended');
  }
  if (stringField(j, 'status.startTime', '') === '') return inProgress('JobNotStarted', 'Job not started');
  return inProgress(
    'JobInProgress',
    `Job in progress. success: ${succeeded}, active: ${active}, failed: ${failedPods}`,
  );
}

export function pvcHealth(p: Unstructured): Health {
  const phase = stringField(p, 'status.phase', 'unknown');
  return phase === 'Bound'
    ? current('PVC is Bound')
    : inProgress('NotBound', `PVC is not Bound. phase: ${phase}`);
}

/** How long a Pod may wait for a node before it is reported unschedulable (kstatus' window). */
export const scheduleWindowMs = 15_000;

export function podHealth(p: Unstructured, now: number): Health {
  const phase = stringField(p, 'status.phase', '');
  if (phase === 'Succeeded') return current('Pod has completed successfully');
  if (phase === 'Failed') return current('Pod has completed, but not successfully');
  if (phase === 'Running') {
    if (conditionOf(p, 'Ready')?.status === 'True') return current('Pod is Ready');
    const looping = crashLooping(p);
    if (looping.length > 0)
      return failed('ContainerCrashLooping', `Containers in CrashLoop state: ${looping.join(',')}`);
    return inProgress('PodRunningNotReady', 'Pod is running but is not Ready');
  }
  if (phase === 'Pending') {
    const scheduled = conditionOf(p, 'PodScheduled');
    if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
      const created = Date.parse(stringField(p, 'metadata.creationTimestamp', ''));
      if (Number.isFinite(created) && now - created < scheduleWindowMs)
        return inProgress('PodNotScheduled', 'Pod has not been scheduled');
      return failed(
        'PodUnschedulable',
        `Pod could not be scheduled${scheduled.message ? `: ${scheduled.message}` : ''}`,
      );
    }
    return inProgress('PodPending', 'Pod is in the Pending phase');
  }
  return inProgress('PodNotObserved', phase === '' ? 'Pod phase not available' : `Pod phase ${phase}`);
}

function crashLooping(p: Unstructured): string[] {
  const statuses = (p.status as { containerStatuses?: unknown } | undefined)?.containerStatuses;
  if (!Array.isArray(statuses)) return [];
  return statuses
    .filter((s) => s?.state?.waiting?.reason === 'CrashLoopBackOff' && typeof s.name === 'string')
    .map((s) => s.name as string);
}

export function serviceHealth(s: Unstructured): Health {
  if (
    stringField(s, 'spec.type', 'ClusterIP') === 'LoadBalancer' &&
    stringField(s, 'spec.clusterIP', '') === ''
  )
    return inProgress('NoIPAssigned', 'ClusterIP not set. Service type: LoadBalancer');
  return current('Service is ready');
}

export function crdHealth(c: Unstructured): Health {
  for (const cond of conditionsOf(c)) {
    if (cond.type === 'NamesAccepted' && cond.status === 'False')
      return failed(cond.reason || 'NamesNotAccepted', cond.message ?? 'names not accepted');
    if (cond.type === 'Established') {
      if (cond.status === 'False' && cond.reason !== 'Installing')
        return failed(cond.reason || 'NotEstablished', cond.message ?? 'not established');
      if (cond.status === 'True') return current('CRD is established');
    }
  }
  return inProgress('Installing', 'Install in progress');
}
