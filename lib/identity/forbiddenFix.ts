import type { TrackRef } from '../track/trackRef';

/** What the API server's RBAC refusal says: who may not do what, where. */
export interface Forbidden {
  user: string;
  verb: string;
  /** `configmaps`, or `deployments.apps` for a resource of a named API group. */
  resource: string;
  /** Undefined at the cluster scope. */
  namespace?: string;
}

// The authorizer's wording (k8s.io/apiserver, forbidden.go), stable across Kubernetes releases.
const FORBIDDEN =
  /User "([^"]+)" cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?(?: in the namespace "([^"]+)"| at the cluster scope)/;

export function parseForbidden(message: string): Forbidden | undefined {
  const m = FORBIDDEN.exec(message);
  if (!m) return undefined;
  const [, user, verb, plural, group, namespace] = m as unknown as string[];
  return {
    user: user as string,
    verb: verb as string,
    resource: group ? `${plural}.${group}` : (plural as string),
    ...(namespace ? { namespace } : {}),
  };
}

/**
 * A run's errors with every RBAC refusal of the GitTrack's own service account (a service account
 * of its namespace: the only identity a GitTrack acts as) collapsed into one line, where the first
 * was, naming what it may not do and the command that grants it: one RoleBinding (to `edit`, or to
 * `admin` when RBAC objects are refused too), or another `spec.serviceAccountName`. Other errors,
 * and every error of a ClusterGitTrack (it acts as the reconciler), are left as they are.
 */
export function collapseForbidden(errors: string[], track: TrackRef): string[] {
  if (track.kind !== 'GitTrack' || !track.namespace) return errors;
  const prefix = `system:serviceaccount:${track.namespace}:`;
  const user = errors.map(parseForbidden).find((f) => f?.user.startsWith(prefix))?.user;
  if (user === undefined) return errors;
  const refused = errors.map(parseForbidden).map((f) => (f?.user === user ? f : undefined));
  const first = refused.findIndex((f) => f !== undefined);
  const found = refused.filter((f): f is Forbidden => f !== undefined);
  const line = forbiddenLine(track as TrackRef & { namespace: string }, found);
  return errors.flatMap((e, i) => (i === first ? [line] : refused[i] ? [] : [e]));
}

function forbiddenLine(track: TrackRef & { namespace: string }, found: Forbidden[]): string {
  const sa = (found[0] as Forbidden).user.split(':')[3] as string;
  const where = new Map<string, Set<string>>();
  for (const f of found) {
    const at = f.namespace ? `in ${f.namespace}` : 'at the cluster scope';
    where.set(at, (where.get(at) ?? new Set()).add(`${f.verb} ${f.resource}`));
  }
  const what = [...where].map(([at, acts]) => `${[...acts].join(', ')} ${at}`).join('; ');
  const role = found.some((f) => f.resource.endsWith('.rbac.authorization.k8s.io')) ? 'admin' : 'edit';
  const { namespace: ns, name } = track;
  return (
    `GitTrack ${ns}/${name} acts as ServiceAccount ${ns}/${sa}, which may not ${what}: grant it, ` +
    `e.g. kubectl create rolebinding ${name}-deployer -n ${ns} --clusterrole=${role} --serviceaccount=${ns}:${sa}, ` +
    'or set spec.serviceAccountName'
  );
}
