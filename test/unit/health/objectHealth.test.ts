import { describe, expect, it } from 'vitest';
import type { HealthStatus } from '../../../lib/kstatus/health';
import { objectHealth } from '../../../lib/kstatus/objectHealth';

// Objects shaped as the API server returns them, each with the verdict kstatus gives it (and, for
// Jobs, the verdict Flux's health check gives: a running Job is not yet healthy).

const deployment = (spec: object, status: object, generation = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', generation },
  spec,
  status: { observedGeneration: generation, ...status },
});

const rolledOut = [
  { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
  { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
];

const cases: Array<[string, object | undefined, HealthStatus, RegExp?]> = [
  ['a missing object', undefined, 'NotFound'],
  [
    'an object being deleted',
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', deletionTimestamp: '2026-01-01T00:00:00Z' },
    },
    'Terminating',
  ],
  ['a ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, 'Current'],
  ['a Secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' } }, 'Current'],
  ['a ServiceAccount', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a' } }, 'Current'],
  [
    'a Deployment of 0 replicas, rolled out',
    deployment({ replicas: 0 }, { conditions: rolledOut }),
    'Current',
  ],
  [
    'a Deployment of 3 replicas, all available',
    deployment(
      { replicas: 3 },
      { replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, conditions: rolledOut },
    ),
    'Current',
  ],
  [
    'a Deployment whose Pods are pending',
    deployment(
      { replicas: 1 },
      {
        replicas: 1,
        updatedReplicas: 1,
        unavailableReplicas: 1,
        conditions: [
          { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' },
          { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' },
        ],
      },
    ),
    'InProgress',
    /Available: 0\/1/,
  ],
  [
    'a Deployment past its progress deadline',
    deployment(
      { replicas: 1 },
      {
        replicas: 1,
        updatedReplicas: 1,
        conditions: [
          {
            type: 'Progressing',
            status: 'False',
            reason: 'ProgressDeadlineExceeded',
            message: 'ReplicaSet "web-1" has timed out progressing.',
          },
        ],
      },
    ),
    'Failed',
    /Progress deadline exceeded/,
  ],
  [
    'a Deployment whose new generation its controller has not seen',
    {
      ...deployment({ replicas: 0 }, { conditions: rolledOut }),
      status: { observedGeneration: 1, conditions: rolledOut },
    },
    'InProgress',
    /generation is 2, but latest observed generation is 1/,
  ],
  [
    'a Deployment with a surplus Pod still terminating',
    deployment(
      { replicas: 1 },
      { replicas: 2, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: rolledOut },
    ),
    'InProgress',
    /Pending termination: 1/,
  ],
  [
    'a StatefulSet rolled out',
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', generation: 1 },
      spec: { replicas: 2 },
      status: {
        observedGeneration: 1,
        replicas: 2,
        readyReplicas: 2,
        currentReplicas: 2,
        updatedReplicas: 2,
        currentRevision: 'db-1',
        updateRevision: 'db-1',
      },
    },
    'Current',
  ],
  [
    'a StatefulSet between revisions',
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', generation: 2 },
      spec: { replicas: 2 },
      status: {
        observedGeneration: 2,
        replicas: 2,
        readyReplicas: 2,
        currentReplicas: 2,
        updatedReplicas: 1,
        currentRevision: 'db-1',
        updateRevision: 'db-2',
      },
    },
    'InProgress',
    /revision/,
  ],
  [
    'a StatefulSet with OnDelete updates',
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: { replicas: 2, updateStrategy: { type: 'OnDelete' } },
      status: {},
    },
    'Current',
  ],
  [
    'a DaemonSet on every node',
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', generation: 1 },
      status: {
        observedGeneration: 1,
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        updatedNumberScheduled: 3,
        numberAvailable: 3,
        numberReady: 3,
      },
    },
    'Current',
  ],
  [
    'a DaemonSet its controller has not seen',
    { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', generation: 1 }, status: {} },
    'InProgress',
    /observedGeneration not found/,
  ],
  [
    'a DaemonSet one node short',
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', generation: 1 },
      status: {
        observedGeneration: 1,
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        updatedNumberScheduled: 3,
        numberAvailable: 2,
        numberReady: 2,
      },
    },
    'InProgress',
    /Available: 2\/3/,
  ],
  [
    'a ReplicaSet with every replica available',
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-1' },
      spec: { replicas: 2 },
      status: { replicas: 2, fullyLabeledReplicas: 2, availableReplicas: 2, readyReplicas: 2 },
    },
    'Current',
  ],
  [
    'a ReplicaSet failing to create Pods',
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-1' },
      spec: { replicas: 2 },
      status: {
        replicas: 0,
        conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' }],
      },
    },
    'InProgress',
    /Replica Failure/,
  ],
  [
    'a Job that completed',
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate' },
      spec: { completions: 1 },
      status: {
        startTime: '2026-01-01T00:00:00Z',
        succeeded: 1,
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    },
    'Current',
    /Job Completed/,
  ],
  [
    'a Job that failed',
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate' },
      spec: {},
      status: {
        failed: 6,
        conditions: [
          {
            type: 'Failed',
            status: 'True',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
          },
        ],
      },
    },
    'Failed',
    /backoff limit/,
  ],
  [
    'a Job still running',
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate' },
      spec: {},
      status: { startTime: '2026-01-01T00:00:00Z', active: 1 },
    },
    'InProgress',
    /active: 1/,
  ],
  [
    'a Job not started',
    { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'm' }, spec: {} },
    'InProgress',
  ],
  [
    'a bound PVC',
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      status: { phase: 'Bound' },
    },
    'Current',
  ],
  [
    'a pending PVC',
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      status: { phase: 'Pending' },
    },
    'InProgress',
    /phase: Pending/,
  ],
  [
    'a running, ready Pod',
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    },
    'Current',
  ],
  [
    'a crash-looping Pod',
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: [{ name: 'app', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      },
    },
    'Failed',
    /app/,
  ],
  [
    'a Pod unschedulable for long',
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
      },
    },
    'Failed',
  ],
  [
    'a LoadBalancer Service without a cluster IP',
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'LoadBalancer' } },
    'InProgress',
  ],
  [
    'a ClusterIP Service',
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { clusterIP: '10.0.0.1' } },
    'Current',
  ],
  [
    'an established CRD',
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      status: {
        conditions: [
          { type: 'NamesAccepted', status: 'True' },
          { type: 'Established', status: 'True' },
        ],
      },
    },
    'Current',
  ],
  [
    'a CRD whose names clash',
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      status: { conditions: [{ type: 'NamesAccepted', status: 'False', reason: 'MultipleNamesNotAllowed' }] },
    },
    'Failed',
  ],
  [
    'a custom resource that is Ready',
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', generation: 3 },
      status: { observedGeneration: 3, conditions: [{ type: 'Ready', status: 'True', message: 'all good' }] },
    },
    'Current',
    /all good/,
  ],
  [
    'a custom resource that is not Ready yet',
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', generation: 3 },
      status: {
        observedGeneration: 3,
        conditions: [
          { type: 'Ready', status: 'False', reason: 'Provisioning', message: 'waiting for the bucket' },
        ],
      },
    },
    'InProgress',
    /bucket/,
  ],
  [
    'a Ready custom resource whose spec changed since',
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', generation: 4 },
      status: { observedGeneration: 3, conditions: [{ type: 'Ready', status: 'True' }] },
    },
    'InProgress',
    /Widget generation is 4, but latest observed generation is 3/,
  ],
  [
    'a custom resource its controller gave up on',
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      status: {
        conditions: [
          { type: 'Stalled', status: 'True', reason: 'QuotaExceeded', message: 'no quota' },
          { type: 'Ready', status: 'False' },
        ],
      },
    },
    'Failed',
    /no quota/,
  ],
  [
    'a custom resource its controller is reconciling',
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      status: {
        conditions: [
          { type: 'Reconciling', status: 'True', reason: 'Progressing', message: 'creating' },
          { type: 'Ready', status: 'True' },
        ],
      },
    },
    'InProgress',
    /creating/,
  ],
  [
    'a custom resource without status',
    { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } },
    'Current',
  ],
];

describe('objectHealth', () => {
  it.each(cases)('%s', (_, object, status, message) => {
    const health = objectHealth(
      object as Record<string, unknown> | undefined,
      Date.parse('2026-06-01T00:00:00Z'),
    );
    expect(health.status).toBe(status);
    if (message) expect(health.message).toMatch(message);
  });

  it('gives a Pod that cannot be scheduled the 15 s kstatus allows before calling it failed', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
      },
    };
    expect(objectHealth(pod, Date.parse('2026-01-01T00:00:10Z')).status).toBe('InProgress');
    expect(objectHealth(pod, Date.parse('2026-01-01T00:00:20Z')).status).toBe('Failed');
  });
});
