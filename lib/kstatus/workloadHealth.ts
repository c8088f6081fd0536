import { conditionOf, conditionsOf, hasField, intField, stringField, type Unstructured } from './fields';
import { current, failed, type Health, inProgress } from './health';

// The rollout rules of kstatus for the apps/v1 workloads: each counter of the status is compared
// with the replicas the spec asks for, in kstatus' order, and the first shortfall is the answer.

const progressDeadlineUnset = 2 ** 31 - 1;

export function deploymentHealth(d: Unstructured): Health {
  let progressing =
    intField(d, 'spec.progressDeadlineSeconds', progressDeadlineUnset) === progressDeadlineUnset;
  let available = false;
  for (const c of conditionsOf(d)) {
    if (c.type === 'Progressing') {
      if (c.reason === 'ProgressDeadlineExceeded')
        return failed(
          'ProgressDeadlineExceeded',
          `Progress deadline exceeded${c.message ? `: ${c.message}` : ''}`,
        );
      if (c.status === 'True' && c.reason === 'NewReplicaSetAvailable') progressing = true;
    }
    if (c.type === 'Available' && c.status === 'True') available = true;
  }
  const spec = intField(d, 'spec.replicas', 1);
  const replicas = intField(d, 'status.replicas', 0);
  const updated = intField(d, 'status.updatedReplicas', 0);
  const ready = intField(d, 'status.readyReplicas', 0);
  const availableReplicas = intField(d, 'status.availableReplicas', 0);
  if (spec > replicas) return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
  if (spec > updated) return inProgress('LessUpdated', `Updated: ${updated}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  if (updated > availableReplicas)
    return inProgress('LessAvailable', `Available: ${availableReplicas}/${updated}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (!progressing) return inProgress('ReplicaSetNotAvailable', 'ReplicaSet not Available');
  if (!available) return inProgress('DeploymentNotAvailable', 'Deployment not Available');
  return current(`Deployment is available. Replicas: ${replicas}`);
}

export function statefulSetHealth(s: Unstructured): Health {
  if (stringField(s, 'spec.updateStrategy.type', '') === 'OnDelete')
    return current('StatefulSet is using the OnDelete update strategy');
  const spec = intField(s, 'spec.replicas', 1);
  const replicas = intField(s, 'status.replicas', 0);
  const ready = intField(s, 'status.readyReplicas', 0);
  const currentReplicas = intField(s, 'status.currentReplicas', 0);
  const updated = intField(s, 'status.updatedReplicas', 0);
  const partition = intField(s, 'spec.updateStrategy.rollingUpdate.partition', -1);
  if (spec > replicas) return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  if (partition !== -1) {
    if (updated < spec - partition)
      return inProgress('PartitionRollout', `updated: ${updated}/${spec - partition}`);
    return current(`Partition rollout complete. updated: ${updated}`);
  }
  if (spec > currentReplicas) return inProgress('LessCurrent', `current: ${currentReplicas}/${spec}`);
  if (stringField(s, 'status.currentRevision', '') !== stringField(s, 'status.updateRevision', ''))
    return inProgress('RevisionMismatch', 'Waiting for updated revision to match current');
  return current(`All replicas scheduled as expected. Replicas: ${replicas}`);
}

export function daemonSetHealth(d: Unstructured): Health {
  // The generic check skips a missing observedGeneration; a DaemonSet the controller has seen has one.
  if (!hasField(d, 'metadata.generation'))
    return inProgress('NoGeneration', 'DaemonSet metadata.generation not found');
  if (!hasField(d, 'status.observedGeneration'))
    return inProgress('NoObservedGeneration', 'DaemonSet status.observedGeneration not found');
  const desired = intField(d, 'status.desiredNumberScheduled', -1);
  if (desired === -1) return inProgress('NoDesiredNumber', 'Missing .status.desiredNumberScheduled');
  const scheduled = intField(d, 'status.currentNumberScheduled', 0);
  const updated = intField(d, 'status.updatedNumberScheduled', 0);
  const available = intField(d, 'status.numberAvailable', 0);
  const ready = intField(d, 'status.numberReady', 0);
  if (desired > scheduled) return inProgress('LessCurrent', `Current: ${scheduled}/${desired}`);
  if (desired > updated) return inProgress('LessUpdated', `Updated: ${updated}/${desired}`);
  if (desired > available) return inProgress('LessAvailable', `Available: ${available}/${desired}`);
  if (desired > ready) return inProgress('LessReady', `Ready: ${ready}/${desired}`);
  return current(`All replicas scheduled as expected. Replicas: ${desired}`);
}

export function replicaSetHealth(r: Unstructured): Health {
  if (conditionOf(r, 'ReplicaFailure')?.status === 'True')
    return inProgress('ReplicaFailure', 'Replica Failure condition. Check Pods');
  const spec = intField(r, 'spec.replicas', 1);
  const replicas = intField(r, 'status.replicas', 0);
  const labelled = intField(r, 'status.fullyLabeledReplicas', 0);
  const available = intField(r, 'status.availableReplicas', 0);
  const ready = intField(r, 'status.readyReplicas', 0);
  if (spec > labelled) return inProgress('LessLabelled', `Labelled: ${labelled}/${spec}`);
  if (spec > available) return inProgress('LessAvailable', `Available: ${available}/${spec}`);
  if (spec > ready) return inProgress('LessReady', `Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
  return current(`ReplicaSet is available. Replicas: ${replicas}`);
}
