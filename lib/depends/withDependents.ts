import { isInfrastructureError, isKubeApiError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import type { DeploymentConfig } from '../settings/deploymentModes';
import type { TrackObject } from '../track/trackObject';
import { becameReady } from './becameReady';
import { type Dependent, listDependents } from './listDependents';

/**
 * Adds to a finished run's summary the tracks to reconcile next: those whose spec.dependsOn names
 * the track, when this run made it Ready (becameReady; `before` is the track as the run read it).
 * Listed after the status is written, so a dependent that checks before sees the old status and is
 * invoked, and one that checks after sees it Ready. A failure to list them never fails the
 * reconcile: the sweep reconciles them.
 */
export async function withDependents<S extends { result: string; commit?: string | undefined }>(
  client: KubeClient,
  config: DeploymentConfig,
  before: TrackObject,
  summary: S,
): Promise<S & { dependents?: Dependent[] }> {
  if (!becameReady(before, summary)) return summary;
  try {
    const dependents = await listDependents(client, config, before);
    return dependents.length > 0 ? { ...summary, dependents } : summary;
  } catch (e) {
    if (!isKubeApiError(e) && !isInfrastructureError(e)) throw e;
    return summary;
  }
}
