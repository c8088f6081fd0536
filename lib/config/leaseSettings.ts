import { defaultLeaseNamespace } from '../lease/leaseTarget';
import { isNamespaceName } from '../manifests/objectName';
import { checked } from '../settings/setting';

/** The namespace the reconciler owns: its track leases and its digest key (the function and the CLI). */
export const leaseNamespaceSetting = checked(
  'LIGHTKEEPER_LEASE_NAMESPACE',
  defaultLeaseNamespace,
  'a namespace name (a DNS-1123 label) the reconciler owns',
  isNamespaceName,
);
