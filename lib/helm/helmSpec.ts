import { validateSubPath } from '../git/validateSubPath';

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
  /** Inline values, merged over the files. */
  values?: Record<string, unknown>;
  /**
   * Fetch the chart's dependencies that charts/ lacks from their chart repositories or OCI registries (default
   * false): a GitTrack then reaches only the deployment's allow-listed hosts, as remote kustomize
   * bases do (lib/kustomize/remoteAccess.ts).
   */
  allowRemote?: boolean;
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
  return {
    ok: true,
    release: {
      chart,
      releaseName: spec.releaseName ?? track.name,
      namespace: namespace.namespace,
      valuesFiles: spec.valuesFiles ?? [],
      values: spec.values ?? {},
    },
  };
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
