import type { HelmCapabilities } from '../helm/helmCapabilities';
import { resolveHelmRelease } from '../helm/helmSpec';
import { renderHelmChart } from '../helm/renderHelmChart';
import type { KustomizeSource } from '../kustomize/findKustomization';
import { type Manifest, parseManifests } from '../manifests';
import type { SourceLimits } from '../settings/sourceLimits';
import { ciphertextLeft } from '../sops/ciphertextLeft';
import { marked } from '../sops/decryptedManifests';
import type { DecryptionKeys } from '../sops/runDecrypt';
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
 * With `decryption` (the track's keys), values files that are SOPS documents are decrypted in memory.
 */
export async function helmSource(
  track: TrackObject,
  source: KustomizeSource,
  capabilities: HelmCapabilities,
  limits: SourceLimits | undefined,
  decryption?: DecryptionKeys,
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
    decryption,
  });
  const helm = {
    chart: render.chart,
    release: render.release,
    namespace: render.namespace,
    hooks: render.hooks,
  };
  if (render.errors.length > 0) return { helm, manifests: [], errors: render.errors.map((e) => e.message) };
  const parsed = parseManifests(render.files, { cache: processParseCache() });
  // Rendered from decrypted values, any object may hold one: each is masked and redacted as decrypted.
  const manifests = render.decrypted ? parsed.manifests.map(marked) : parsed.manifests;
  const left = ciphertextLeft(manifests);
  if (left.length > 0) return { helm, manifests: [], errors: left.map((e) => e.message) };
  return { helm, manifests, errors: parsed.errors.map((e) => e.message) };
}
