/** Groups whose kinds take names checked only as path segments, with no length limit (RBAC's ValidateRBACName). */
const pathSegmentNameGroups = new Set(['rbac.authorization.k8s.io', 'internal.apiserver.k8s.io']);

const maxNameLength = 253;
const maxLabelLength = 63;
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Why `name` cannot name any object of its API group, or undefined. Only what holds for every kind
 * is refused: Kubernetes' path-segment rule (not `.` or `..`, no `/` or `%`; a name that breaks it
 * could never be a URL segment) and, outside RBAC, more than 253 characters (every other kind's
 * name is a DNS subdomain, a label, or a stricter form). Names valid for some kinds only, such as
 * `system:controller:x` for a ClusterRole or an IPv6 address for an IPAddress, are left to the server.
 */
export function nameProblem(name: string, group: string): string | undefined {
  if (name === '.' || name === '..') return `may not be '${name}'`;
  const illegal = ['/', '%'].filter((c) => name.includes(c));
  if (illegal.length > 0) return illegal.map((c) => `may not contain '${c}'`).join(', ');
  if (name.length > maxNameLength && !pathSegmentNameGroups.has(group))
    return `must be no more than ${maxNameLength} characters`;
  return undefined;
}

/** Whether `name` can name a namespace. */
export const isNamespaceName = (name: string): boolean => namespaceProblem(name) === undefined;

/** Why `namespace` is not a namespace name (a DNS-1123 label), or undefined. */
export function namespaceProblem(namespace: string): string | undefined {
  if (namespace.length > maxLabelLength) return `must be no more than ${maxLabelLength} characters`;
  if (!dnsLabel.test(namespace))
    return "must be a DNS-1123 label: lower case alphanumeric characters or '-', starting and ending with an alphanumeric character";
  return undefined;
}
