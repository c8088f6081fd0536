import type { HelmCapabilities } from '../helm/helmCapabilities';
import { resolveHelmRelease } from '../helm/helmSpec';
import { renderHelmChart } from '../helm/renderHelmChart';
import type { KustomizeSource } from '../kustomize/findKustomization';
import { remoteAccess } from '../kustomize/remoteAccess';
import { type Manifest, parseManifests } from '../manifests';
import type { SourceLimits } from '../settings/sourceLimits';
import type { TrackObject } from '../track/trackObject';
import type { HelmSourceReport } from './outcomes';
import { processParseCache } from './processParseCache';

/** A track's chart, rendered and parsed: its objects, or why the commit is broken. */
export interface ChartOutcome {
  /** Absent when the spec was refused before anything was rendered. */
  helm?: HelmSourceReport;
  manifests: Manifest[];
  errors: string[];
}

/**
 * A track with `spec.helm`: its chart rendered by the Helm SDK (lib/helm) with the cluster's
 * capabilities, its objects then parsed as files are. A spec the track may not render (another
 * namespace) or a chart that does not render breaks the commit: nothing applied, nothing pruned.
 */
export async function helmSource(
  track: TrackObject,
  source: KustomizeSource,
  capabilities: HelmCapabilities,
  limits: SourceLimits | undefined,
  /** The deployment's allow-list of remote hosts (LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS). */
  remoteHosts?: readonly string[],
): Promise<ChartOutcome> {
  const resolved = resolveHelmRelease(
    {
      kind: track.kind,
      name: track.metadata.name,
      namespace: track.metadata.namespace,
      subPath: track.spec.subPath,
      defaultNamespace: track.spec.defaultNamespace,
    },
    track.spec.helm ?? {},
  );
  if (!resolved.ok) return { manifests: [], errors: [resolved.reason] };
  const render = await renderHelmChart({
    source,
    release: resolved.release,
    capabilities,
    // `.Release.IsUpgrade` once the track has applied a commit (of this chart, as far as it knows).
    isUpgrade: track.status?.lastAppliedCommit !== undefined,
    limits,
    // The rule of remote kustomize bases: only with allowRemote, and a GitTrack only to listed hosts.
    remote: remoteAccess(track.kind, { allowRemote: track.spec.helm?.allowRemote === true }, remoteHosts),
  });
  const helm = {
    chart: render.chart,
    release: render.release,
    namespace: render.namespace,
    hooks: render.hooks,
  };
  if (render.errors.length > 0) return { helm, manifests: [], errors: render.errors.map((e) => e.message) };
  const parsed = parseManifests(render.files, { cache: processParseCache() });
  return { helm, manifests: parsed.manifests, errors: parsed.errors.map((e) => e.message) };
}
