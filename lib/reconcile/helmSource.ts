import type { HelmCapabilities } from '../helm/helmCapabilities';
import { resolveHelmPolicies } from '../helm/helmPolicies';
import { resolveHelmRelease } from '../helm/helmSpec';
import { renderHelmChart } from '../helm/renderHelmChart';
import type { KustomizeSource } from '../kustomize/findKustomization';
import { type Manifest, parseManifests } from '../manifests';
import type { SourceLimits } from '../settings/sourceLimits';
import type { TrackObject } from '../track/trackObject';
import { helmHooks } from './helmHooks';
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
  const policies = resolveHelmPolicies(track.spec.helm ?? {});
  if (!policies.ok) return { manifests: [], errors: [policies.reason] };
  // `.Release.IsUpgrade` once the track has applied a commit (of this chart, as far as it knows).
  const isUpgrade = track.status?.lastAppliedCommit !== undefined;
  const render = await renderHelmChart({
    source,
    release: resolved.release,
    capabilities,
    isUpgrade,
    crds: policies.crds,
    limits,
  });
  const hooks = helmHooks(
    render.chartHooks,
    policies,
    resolved.release,
    source.kind === 'commit' ? source.commit : source.dir,
    isUpgrade,
    track.status?.helmHooksRevision,
  );
  const helm: HelmSourceReport = {
    chart: render.chart,
    release: render.release,
    namespace: render.namespace,
    hooks: hooks.notRun,
    ...(hooks.run ? { run: hooks.run } : {}),
  };
  if (render.errors.length > 0) return { helm, manifests: [], errors: render.errors.map((e) => e.message) };
  const parsed = parseManifests(render.files, { cache: processParseCache() });
  const errors = [...parsed.errors.map((e) => e.message), ...hooks.errors];
  return { helm, manifests: parsed.manifests, errors };
}
