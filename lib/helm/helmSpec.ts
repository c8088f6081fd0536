import { validateSubPath } from '../git/validateSubPath';
import type { CrdPolicy, HookPolicy } from './helmPolicies';

/** A track's `spec.helm`: render the chart at `chart` (names as Flux's HelmRelease and Argo CD use them). */
export interface HelmSpec {
  /** The chart's directory in the repository (holding Chart.yaml); default: the track's subPath. */
  chart?: string;
  /** Default: the track's name. */
  releaseName?: string;
  /** A GitTrack's own namespace (the only one it may render into); a ClusterGitTrack's defaultNamespace. */
  targetNamespace?: string;
  /** Values files, paths relative to the chart (inside it), merged in order. */
  valuesFiles?: string[];
  /** Inline values, merged last (over the files and valuesFrom). */
  values?: Record<string, unknown>;
  /** What becomes of the chart's crds/ (lib/helm/helmPolicies.ts): CreateReplace (default), Create, Skip. */
  crds?: CrdPolicy;
  /** Whether the chart's hooks run (lib/helm/helmPolicies.ts): Skip (default) or Run. */
  hooks?: HookPolicy;
  /**
   * Fetch the chart's dependencies that charts/ lacks from their chart repositories or OCI registries (default
   * false): a GitTrack then reaches only the deployment's allow-listed hosts, as remote kustomize
   * bases do (lib/kustomize/remoteAccess.ts).
   */
  allowRemote?: boolean;
  /** ConfigMap and Secret keys of the track's namespace, read as the track, merged in order after the files. */
  valuesFrom?: ValuesReference[];
  /** A kustomization applied over the chart's output (as Flux's `postRenderers[].kustomize`). */
  postRender?: PostRenderSpec;
}

/** One entry of `spec.helm.valuesFrom`, as Flux's HelmRelease has it. */
export interface ValuesReference {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  /** A ClusterGitTrack's: where the object is (required there, as for its spec.auth.secretRef). */
  namespace?: string;
  /** Default `values.yaml`. */
  valuesKey?: string;
  /** Set the key's content as one value at this path (Helm's --set syntax) instead of merging it as values. */
  targetPath?: string;
  /** A missing object or key is skipped instead of breaking the commit. */
  optional?: boolean;
}

/** `spec.helm.postRender`: the fields of a kustomization it may set (patches inline only). */
export interface PostRenderSpec {
  patches?: Array<{ patch: string; target?: Record<string, unknown>; options?: Record<string, boolean> }>;
  labels?: Array<Record<string, unknown>>;
  commonLabels?: Record<string, string>;
  commonAnnotations?: Record<string, string>;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
}

/** A valuesFrom entry resolved: where it is read, which key. */
export interface ResolvedValuesReference {
  kind: 'ConfigMap' | 'Secret';
  namespace: string;
  name: string;
  valuesKey: string;
  targetPath?: string;
  optional: boolean;
}

/** The track as the chart's release sees it. */
export interface HelmTrack {
  kind: 'GitTrack' | 'ClusterGitTrack';
  name: string;
  /** A GitTrack's namespace. */
  namespace?: string | undefined;
  subPath?: string | undefined;
  defaultNamespace?: string | undefined;
}

/** What one render of a track's chart is asked, every default resolved. */
export interface HelmRelease {
  /** Repository path of the chart directory ('' for the root). */
  chart: string;
  releaseName: string;
  namespace: string;
  valuesFiles: string[];
  values: Record<string, unknown>;
  valuesFrom: ResolvedValuesReference[];
  postRender?: PostRenderSpec;
}

export type ResolvedRelease = { ok: true; release: HelmRelease } | { ok: false; reason: string };

/** `spec.helm` with its defaults, or why the track may not render it. */
export function resolveHelmRelease(track: HelmTrack, spec: HelmSpec): ResolvedRelease {
  let chart: string;
  try {
    chart = validateSubPath(spec.chart ?? track.subPath ?? '').join('/');
  } catch (e) {
    return { ok: false, reason: `spec.helm.chart: ${(e as Error).message}` };
  }
  const namespace = targetNamespace(track, spec);
  if (!namespace.ok) return namespace;
  const valuesFrom = resolveValuesFrom(track, spec.valuesFrom ?? []);
  if (!valuesFrom.ok) return valuesFrom;
  return {
    ok: true,
    release: {
      chart,
      releaseName: spec.releaseName ?? track.name,
      namespace: namespace.namespace,
      valuesFiles: spec.valuesFiles ?? [],
      values: spec.values ?? {},
      valuesFrom: valuesFrom.refs,
      ...(spec.postRender ? { postRender: spec.postRender } : {}),
    },
  };
}

/**
 * Where each valuesFrom entry is read: a GitTrack's own namespace (no other), a ClusterGitTrack's
 * entry's `namespace` (required, as its spec.auth.secretRef names one).
 */
function resolveValuesFrom(
  track: HelmTrack,
  refs: readonly ValuesReference[],
): { ok: true; refs: ResolvedValuesReference[] } | { ok: false; reason: string } {
  const resolved: ResolvedValuesReference[] = [];
  for (const [i, ref] of refs.entries()) {
    const own = track.kind === 'GitTrack' ? (track.namespace ?? '') : undefined;
    const namespace = own ?? ref.namespace;
    if (own !== undefined && ref.namespace !== undefined && ref.namespace !== own)
      return {
        ok: false,
        reason: `spec.helm.valuesFrom[${i}].namespace ${ref.namespace} is refused: a GitTrack reads values from its own namespace (${own}) only`,
      };
    if (!namespace)
      return { ok: false, reason: `spec.helm.valuesFrom[${i}] needs a namespace on a ClusterGitTrack` };
    resolved.push({
      kind: ref.kind,
      namespace,
      name: ref.name,
      valuesKey: ref.valuesKey ?? 'values.yaml',
      ...(ref.targetPath ? { targetPath: ref.targetPath } : {}),
      optional: ref.optional === true,
    });
  }
  return { ok: true, refs: resolved };
}

function targetNamespace(
  track: HelmTrack,
  spec: HelmSpec,
): { ok: true; namespace: string } | { ok: false; reason: string } {
  if (track.kind === 'GitTrack') {
    const own = track.namespace ?? '';
    if (spec.targetNamespace !== undefined && spec.targetNamespace !== own)
      return {
        ok: false,
        reason: `spec.helm.targetNamespace ${spec.targetNamespace} is refused: a GitTrack renders its chart into its own namespace (${own}) only`,
      };
    return { ok: true, namespace: own };
  }
  const namespace = spec.targetNamespace ?? track.defaultNamespace;
  if (!namespace)
    return {
      ok: false,
      reason: 'spec.helm needs a targetNamespace (or spec.defaultNamespace) on a ClusterGitTrack',
    };
  return { ok: true, namespace };
}
