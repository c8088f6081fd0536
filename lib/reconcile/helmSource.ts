import type { HelmCapabilities } from '../helm/helmCapabilities';
import { resolveHelmPolicies } from '../helm/helmPolicies';
import { resolveHelmRelease } from '../helm/helmSpec';
import { readValuesFrom, valuesDigest } from '../helm/readValuesFrom';
import { renderHelmChart } from '../helm/renderHelmChart';
import type { VaryingObject } from '../helm/runHelmRender';
import type { Discovery } from '../kube/discovery';
import type { KubeClient } from '../kube/kubeClient';
import type { KustomizeSource } from '../kustomize/findKustomization';
import { remoteAccess } from '../kustomize/remoteAccess';
import { type Manifest, parseManifests } from '../manifests';
import type { SourceLimits } from '../settings/sourceLimits';
import { ciphertextLeft } from '../sops/ciphertextLeft';
import { marked } from '../sops/decryptedManifests';
import type { DecryptionKeys } from '../sops/runDecrypt';
import type { TrackObject } from '../track/trackObject';
import { type HookRun, helmHooks } from './helmHooks';
import { keepAppliedValues } from './keepAppliedValues';
import type { HelmSourceReport, VaryingReport } from './outcomes';
import { processParseCache } from './processParseCache';

/** A track's chart, rendered and parsed: its objects, or why the commit is broken. */
export interface ChartOutcome {
  /** Absent when the spec was refused before anything was rendered. */
  helm?: HelmSourceReport;
  manifests: Manifest[];
  errors: string[];
  /** The API server failed a read the render needed (valuesFrom): not the commit's fault. */
  failed?: string;
}

/** The cluster as the chart's render reads it. */
export interface ChartCluster {
  /** Acts as the track (lib/identity): reads spec.helm.valuesFrom and the live objects. */
  client: KubeClient;
  /** To read an object whose render varies live; without it none is read. */
  discovery?: Pick<Discovery, 'resourceFor'> | undefined;
}

/** What the deployment and the track add to a render. */
export interface ChartOptions {
  /** The deployment's allow-list of remote hosts (LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS). */
  remoteHosts?: readonly string[] | undefined;
  /** The track's keys (spec.decryption): values files that are SOPS documents are decrypted in memory. */
  decryption?: DecryptionKeys | undefined;
}

/**
 * A track with `spec.helm`: its chart rendered by the Helm SDK (lib/helm) with the cluster's
 * capabilities and its valuesFrom read as the track, its objects then parsed as files are. A spec
 * the track may not render (another namespace), a values source missing or refused, or a chart that
 * does not render breaks the commit: nothing applied, nothing pruned. The chart is rendered twice;
 * on a run of the commit the track applied, fields the renders disagree on keep their live values.
 * With `decryption` (the track's keys), values files that are SOPS documents are decrypted in memory.
 */
export async function helmSource(
  track: TrackObject,
  source: KustomizeSource,
  capabilities: HelmCapabilities,
  limits: SourceLimits | undefined,
  cluster: ChartCluster,
  options: ChartOptions = {},
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
  const { release } = resolved;
  const policies = resolveHelmPolicies(track.spec.helm ?? {});
  if (!policies.ok) return { manifests: [], errors: [policies.reason] };
  const values = await readValuesFrom(cluster.client, release.valuesFrom);
  if (values.state === 'failed') return { manifests: [], errors: [], failed: values.error };
  if (values.state === 'broken') return { manifests: [], errors: [values.error] };
  // `.Release.IsUpgrade` once the track has applied a commit (of this chart, as far as it knows).
  const isUpgrade = track.status?.lastAppliedCommit !== undefined;
  const render = await renderHelmChart({
    source,
    release,
    capabilities,
    isUpgrade,
    crds: policies.crds,
    valuesFrom: values.contents,
    limits,
    // The rule of remote kustomize bases: only with allowRemote, and a GitTrack only to listed hosts.
    remote: remoteAccess(
      track.kind,
      { allowRemote: track.spec.helm?.allowRemote === true },
      options.remoteHosts,
    ),
    decryption: options.decryption,
  });
  const hooks = helmHooks(render.chartHooks, policies, release, {
    where: source.kind === 'commit' ? source.commit : source.dir,
    // A release is its values too: a changed ConfigMap or Secret under valuesFrom runs the hooks again.
    values: valuesDigest(values.contents),
    isUpgrade,
    ranRevision: track.status?.helmHooksRevision,
  });
  const helm: HelmSourceReport = {
    chart: render.chart,
    release: render.release,
    namespace: render.namespace,
    hooks: hooks.notRun,
    ...(hooks.run ? { run: render.decrypted ? markedHooks(hooks.run) : hooks.run } : {}),
    nondeterministic: render.nondeterministic.map(varyingReport),
  };
  if (render.errors.length > 0) return { helm, manifests: [], errors: render.errors.map((e) => e.message) };
  const parsed = parseManifests(render.files, { cache: processParseCache() });
  // Rendered from decrypted values, any object may hold one: each is masked and redacted as decrypted.
  const manifests = render.decrypted ? parsed.manifests.map(marked) : parsed.manifests;
  const left = ciphertextLeft(manifests);
  if (left.length > 0) return { helm, manifests: [], errors: left.map((e) => e.message) };
  const errors = [...parsed.errors.map((e) => e.message), ...hooks.errors];
  const { discovery } = cluster;
  if (render.nondeterministic.length === 0 || !discovery || !appliedBefore(track, source))
    return { helm, manifests, errors };
  const reader = { client: cluster.client, discovery, namespace: release.namespace };
  return {
    helm,
    manifests: await keepAppliedValues(manifests, render.nondeterministic, reader),
    errors,
  };
}

/** Hooks rendered from decrypted values are masked and redacted as the chart's objects are. */
const markedHooks = (run: HookRun): HookRun => {
  const stage = (s: HookRun['pre']) => ({
    ...s,
    hooks: s.hooks.map((h) => ({ ...h, manifest: marked(h.manifest) })),
  });
  return { ...run, pre: stage(run.pre), post: stage(run.post) };
};

/** The commit is the one the track applied (or began to): a sweep, not a new commit. */
const appliedBefore = (track: TrackObject, source: KustomizeSource) =>
  source.kind === 'commit' &&
  (source.commit === track.status?.lastAppliedCommit ||
    source.commit === track.status?.partiallyAppliedCommit);

function varyingReport(v: VaryingObject): VaryingReport {
  if (v.kind === undefined || v.name === undefined) return { subject: v.path, fields: v.fields };
  return { subject: `${v.kind}/${v.namespace ? `${v.namespace}/` : ''}${v.name}`, fields: v.fields };
}
