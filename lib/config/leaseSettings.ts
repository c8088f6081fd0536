import { defaultLeaseNamespace } from '../lease/leaseTarget';
import { textOr } from './setting';

/** The namespace the reconciler owns: its track leases and its digest key (the function and the CLI). */
export const leaseNamespaceSetting = textOr(
  'LIGHTKEEPER_LEASE_NAMESPACE',
  defaultLeaseNamespace,
  'a namespace name the reconciler owns',
);
