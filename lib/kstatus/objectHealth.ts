import { conditionOf, conditionsOf, hasField, intField, stringField, type Unstructured } from './fields';
import { current, failed, type Health, inProgress } from './health';
import { crdHealth, jobHealth, podHealth, pvcHealth, serviceHealth } from './otherKindsHealth';
import { daemonSetHealth, deploymentHealth, replicaSetHealth, statefulSetHealth } from './workloadHealth';

type Rule = (object: Unstructured, now: number) => Health;

const always: Rule = () => current('Resource is always ready');

/** kstatus' table of kinds with rules of their own, keyed `group/Kind` (`Kind` for the core group). */
const rules: Record<string, Rule> = {
  Service: serviceHealth,
  Pod: podHealth,
  Secret: always,
  ConfigMap: always,
  PersistentVolumeClaim: pvcHealth,
  'apps/StatefulSet': statefulSetHealth,
  'apps/DaemonSet': daemonSetHealth,
  'apps/Deployment': deploymentHealth,
  'apps/ReplicaSet': replicaSetHealth,
  'policy/PodDisruptionBudget': () => current('AllowedDisruptions has been computed.'),
  'batch/CronJob': always,
  'batch/Job': jobHealth,
  'apiextensions.k8s.io/CustomResourceDefinition': crdHealth,
};

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * The health of one live object (pure). `undefined`: the object does not exist. The checks every
 * kind shares come first, as in kstatus: being deleted; a generation its controller has not
 * observed yet; a `Reconciling` or `Stalled` condition. Then the kind's own rule; for any other
 * kind (custom resources), its `Ready` condition when it has one, else it is current once it exists.
 */
export function objectHealth(object: Unstructured | undefined, now: number = Date.now()): Health {
  if (!object) return { status: 'NotFound', reason: 'NotFound', message: 'the object does not exist' };
  const kind = stringField(object, 'kind', '');
  if (stringField(object, 'metadata.deletionTimestamp', '') !== '')
    return { status: 'Terminating', reason: 'Terminating', message: 'Resource scheduled for deletion' };
  if (hasField(object, 'metadata.generation') && hasField(object, 'status.observedGeneration')) {
    const generation = intField(object, 'metadata.generation', 0);
    const observed = intField(object, 'status.observedGeneration', 0);
    if (generation !== observed)
      return inProgress(
        'LatestGenerationNotObserved',
        `${kind} generation is ${generation}, but latest observed generation is ${observed}`,
      );
  }
  for (const c of conditionsOf(object)) {
    if (c.status !== 'True') continue;
    if (c.type === 'Reconciling') return inProgress(c.reason || 'Reconciling', c.message || 'Reconciling');
    if (c.type === 'Stalled') return failed(c.reason || 'Stalled', c.message || 'Stalled');
  }
  const group = groupOf(stringField(object, 'apiVersion', ''));
  const rule = rules[group ? `${group}/${kind}` : kind];
  if (rule) return rule(object, now);
  const ready = conditionOf(object, 'Ready');
  if (ready?.status === 'True') return current(ready.message || 'Ready');
  // Ready=False without Stalled: its controller is still at work (kstatus reads it the same way);
  // a health timeout decides when waiting is over.
  if (ready) return inProgress(ready.reason || 'NotReady', ready.message || `Ready is ${ready.status}`);
  return current('Resource is current');
}
