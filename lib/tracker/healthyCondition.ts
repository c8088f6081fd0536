import type { ObjectCondition, Unstructured } from '../kstatus/fields';
import { type HealthVerdict, healthVerdict } from '../kstatus/healthVerdict';
import { objectHealth } from '../kstatus/objectHealth';

/** A tracking object's `Healthy` condition as read, if it has one. */
export const healthyOf = (conditions: readonly { type: string }[] | undefined) =>
  (conditions as ObjectCondition[] | undefined)?.find((c) => c.type === 'Healthy');

/**
 * The `Healthy` condition recording `verdict`, as every writer of it (apply, health step) writes
 * it: the transition time is kept while the status stays what `previous` said.
 */
export function healthyCondition(
  verdict: Pick<HealthVerdict, 'status' | 'reason' | 'message'>,
  previous: ObjectCondition | undefined,
  now: string,
): ObjectCondition {
  return {
    type: 'Healthy',
    status: verdict.status,
    reason: verdict.reason,
    message: verdict.message.slice(0, 4000),
    lastTransitionTime:
      previous?.status === verdict.status && previous.lastTransitionTime ? previous.lastTransitionTime : now,
  };
}

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
  const verdict = healthVerdict(objectHealth(applied, now.getTime()), { now: now.getTime() });
  if (verdict.status !== 'True') return undefined;
  return healthyCondition(verdict, healthyOf(conditions), now.toISOString());
}

/**
 * The `Healthy` condition a new tracking object is created with, judged from the manifest before
 * the child exists (lib/apply/createTracker.ts): a child current by its own content is `True`, one
 * that must first be worked on (a Deployment, a CRD, a LoadBalancer Service) is `Progressing`, as
 * the health step would record it. The apply's answer is then judged the same way; only when the
 * two differ is the status written again.
 */
export function healthAtCreate(object: Unstructured, now: Date = new Date()): ObjectCondition | undefined {
  const verdict = healthVerdict(objectHealth(object, now.getTime()), { now: now.getTime() });
  if (verdict.counted === 'failed') return undefined;
  return healthyCondition(verdict, undefined, now.toISOString());
}
