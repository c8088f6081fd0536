import { splitApiVersion } from '../manifests';

/** One live object as a metadata-only LIST shows it, with its type from discovery. */
export interface ScannedObject {
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  namespace?: string | undefined;
  name: string;
  uid: string;
  ownerReferences?: ReadonlyArray<{ apiVersion: string; kind: string; name: string; uid: string }>;
}

export type FindingKind =
  | 'CrossNamespaceOwner'
  | 'NamespacedOwnerOfClusterScoped'
  | 'DanglingOwner'
  | 'UnservedOwnerKind';

/** What the collector does to the dependent once it processes it (after its next restart at the latest). */
export type Consequence = 'deleted' | 'leaks' | 'reference removed' | 'never collected';

export interface Finding {
  finding: FindingKind;
  dependent: { apiVersion: string; kind: string; namespace?: string | undefined; name: string; uid: string };
  owner: { apiVersion: string; kind: string; name: string; uid: string; foundIn?: string | undefined };
  consequence: Consequence;
  why: string;
  fix: string;
}

/** Whether the server serves a kind, and its scope; undefined when it does not serve it. */
export type ScopeOf = (apiVersion: string, kind: string) => { namespaced: boolean } | undefined;

const groupOf = (apiVersion: string) => splitApiVersion(apiVersion)?.group ?? '';
const label = (o: { kind: string; namespace?: string | undefined; name: string }) =>
  o.namespace ? `${o.kind} ${o.namespace}/${o.name}` : `${o.kind} ${o.name}`;

type Verdict =
  | { valid: true }
  | { valid: false; finding: FindingKind; foundIn?: string | undefined; detail: string };

function judge(
  dependent: ScannedObject,
  ref: NonNullable<ScannedObject['ownerReferences']>[number],
  byUid: ReadonlyMap<string, ScannedObject>,
  scopeOf: ScopeOf,
): Verdict {
  const scope = scopeOf(ref.apiVersion, ref.kind);
  if (!scope)
    return {
      valid: false,
      finding: 'UnservedOwnerKind',
      detail: `the API server does not serve ${ref.kind} in ${ref.apiVersion}, so the collector cannot look the owner up`,
    };
  if (scope.namespaced && !dependent.namespaced)
    return {
      valid: false,
      finding: 'NamespacedOwnerOfClusterScoped',
      detail: `a cluster-scoped object cannot have a namespaced owner (${ref.kind}): the collector reports OwnerRefInvalidNamespace and never resolves the reference`,
    };
  const found = byUid.get(ref.uid);
  const expectedNamespace = scope.namespaced ? dependent.namespace : undefined;
  const sameObject =
    found !== undefined &&
    found.kind === ref.kind &&
    groupOf(found.apiVersion) === groupOf(ref.apiVersion) &&
    found.name === ref.name;
  if (sameObject && (found.namespace ?? undefined) === expectedNamespace) return { valid: true };
  if (sameObject && found.namespace && scope.namespaced)
    return {
      valid: false,
      finding: 'CrossNamespaceOwner',
      foundIn: found.namespace,
      detail: `its owner lives in namespace ${found.namespace}, but an owner reference has no namespace: the collector looks ${ref.kind} ${ref.name} up in ${dependent.namespace}, does not find UID ${ref.uid} there and counts the owner absent`,
    };
  return {
    valid: false,
    finding: 'DanglingOwner',
    detail: found
      ? `UID ${ref.uid} belongs to ${label(found)}, not to ${ref.kind} ${ref.name}: the collector counts the owner absent`
      : `no object with UID ${ref.uid} exists: the owner is gone`,
  };
}

function consequenceOf(finding: FindingKind, anyValidOwner: boolean, allAbsent: boolean): Consequence {
  if (finding === 'NamespacedOwnerOfClusterScoped') return 'leaks';
  if (finding === 'UnservedOwnerKind') return 'never collected';
  if (anyValidOwner) return 'reference removed';
  return allAbsent ? 'deleted' : 'never collected';
}

const consequenceText: Record<Consequence, string> = {
  deleted: 'the collector deletes it (and, in cascade, whatever it owns) — at its next restart if not before',
  'reference removed': 'another owner is valid, so the collector only removes this reference',
  leaks:
    'it is never deleted with its owner: when the owner goes, it leaks; a reference that is illegal may also be deleted by a future collector',
  'never collected':
    'the collector retries it forever and never cascades to it; once the kind is served again without that owner, it is deleted',
};

const fixes: Record<FindingKind, string> = {
  CrossNamespaceOwner:
    'to keep it, first add a legal owner (one in its own namespace, or a cluster-scoped one such as a ClusterGitTrack), then remove this reference; never the other way round',
  NamespacedOwnerOfClusterScoped:
    'replace the reference with a cluster-scoped owner (e.g. a ClusterGitTrackObject), or remove it',
  DanglingOwner: 'if it should stay, remove this owner reference now; otherwise let the collector delete it',
  UnservedOwnerKind:
    'serve the kind again (reinstall its CRD or API) or remove this owner reference if the object should stay',
};

/**
 * Every owner reference the garbage collector treats as absent or invalid
 * (shared/background/gc-semantics.md), judged against the whole cluster: `objects` must be every
 * object of every served type, since an owner may be of any type.
 */
export function classifyOwnerReferences(objects: readonly ScannedObject[], scopeOf: ScopeOf): Finding[] {
  const byUid = new Map<string, ScannedObject>();
  for (const o of objects) if (!byUid.has(o.uid)) byUid.set(o.uid, o);
  const findings: Finding[] = [];
  for (const dependent of byUid.values()) {
    const refs = dependent.ownerReferences ?? [];
    if (refs.length === 0) continue;
    const verdicts = refs.map((ref) => ({ ref, verdict: judge(dependent, ref, byUid, scopeOf) }));
    const anyValid = verdicts.some((v) => v.verdict.valid);
    // The collector deletes a dependent only when every owner resolves as absent.
    const allAbsent = verdicts.every(
      (v) =>
        !v.verdict.valid &&
        (v.verdict.finding === 'CrossNamespaceOwner' || v.verdict.finding === 'DanglingOwner'),
    );
    for (const { ref, verdict } of verdicts) {
      if (verdict.valid) continue;
      const consequence = consequenceOf(verdict.finding, anyValid, allAbsent);
      findings.push({
        finding: verdict.finding,
        dependent: {
          apiVersion: dependent.apiVersion,
          kind: dependent.kind,
          namespace: dependent.namespace,
          name: dependent.name,
          uid: dependent.uid,
        },
        owner: {
          apiVersion: ref.apiVersion,
          kind: ref.kind,
          name: ref.name,
          uid: ref.uid,
          ...(verdict.foundIn ? { foundIn: verdict.foundIn } : {}),
        },
        consequence,
        why: `${verdict.detail}; ${consequenceText[consequence]}`,
        fix: fixes[verdict.finding],
      });
    }
  }
  const order = (f: Finding) => `${f.dependent.namespace ?? ''}/${f.dependent.kind}/${f.dependent.name}`;
  return findings.sort((x, y) => order(x).localeCompare(order(y)));
}
