import type { ObjectCondition, Unstructured } from './fields';
import { healthVerdict } from './healthVerdict';
import { objectHealth } from './objectHealth';

/**
 * The `Healthy` condition a child has earned the moment the API server answers its apply, when
 * that answer already settles it: a child current by its own content (a ConfigMap, a Secret, a
 * ClusterIP Service, a custom resource without conditions…). It goes into the same status write
 * as InSync, so the health step finds the verdict recorded and writes nothing more for it.
 * Undefined for any other health (a Deployment rolling out): only the health step, which may wait,
 * judges progress. `conditions` are the tracking object's as read; `applied` must be a whole
 * object as the server returned it, not its metadata.
 */
export function healthyAtApply(
  applied: Unstructured,
  conditions: readonly { type: string }[] | undefined,
  now: Date = new Date(),
): ObjectCondition | undefined {
  const previous = (conditions as ObjectCondition[] | undefined)?.find((c) => c.type === 'Healthy');
  const verdict = healthVerdict(objectHealth(applied, now.getTime()), { now: now.getTime() });
  if (verdict.status !== 'True') return undefined;
  // As the health step writes it (lib/health/assessTrackHealth.ts), so it finds nothing changed.
  return {
    type: 'Healthy',
    status: 'True',
    reason: verdict.reason,
    message: verdict.message.slice(0, 4000),
    lastTransitionTime:
      previous?.status === 'True' && previous.lastTransitionTime
        ? previous.lastTransitionTime
        : now.toISOString(),
  };
}
