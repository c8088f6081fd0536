/**
 * A child's health, in kstatus' vocabulary (sigs.k8s.io/cli-utils pkg/kstatus/status): `Current`
 * (it does what its manifest asks), `InProgress` (its controller is still getting there),
 * `Failed` (it will not get there without a change), `Terminating` (being deleted), `NotFound`.
 */
export type HealthStatus = 'Current' | 'InProgress' | 'Failed' | 'Terminating' | 'NotFound';

export interface Health {
  status: HealthStatus;
  /** CamelCase, usable as a condition reason. */
  reason: string;
  message: string;
}

export const current = (message: string, reason = 'Current'): Health => ({
  status: 'Current',
  reason,
  message,
});
export const inProgress = (reason: string, message: string): Health => ({
  status: 'InProgress',
  reason,
  message,
});
export const failed = (reason: string, message: string): Health => ({ status: 'Failed', reason, message });
