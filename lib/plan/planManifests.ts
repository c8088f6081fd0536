import { isLightkeeperError, ManifestError } from '../errors';
import type { IgnoreRule } from '../ignore/ignoreRules';
import type { Discovery } from '../kube/discovery';
import { findDuplicates, formatRef, identityKey, type Manifest } from '../manifests';
import { updateStrategyOf } from '../manifests/metadataKeys';
import { decideOwnership, type TrackOwner } from '../ownership/ownershipTable';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { commitDefinitions } from './commitDefinitions';
import { ignoredPointers } from './ignoredPointers';
import { plannedDigest } from './plannedDigest';
import type { PlannedObject } from './plannedObject';
import { stageOf } from './stages';

/** A manifest the ownership table left to others, and why. */
export interface IgnoredManifest {
  path: string;
  object?: string;
  reason: string;
}

/** A manifest that cannot be planned (kind not served, bad annotation, duplicate): that object fails. */
export interface PlanFailure {
  subject: string;
  path: string;
  message: string;
}

/** What a commit asks of the cluster, for apply to consume: in manifest order. */
export interface Plan {
  planned: PlannedObject[];
  ignored: IgnoredManifest[];
  failed: PlanFailure[];
}

export interface PlanOptions {
  track: TrackOwner;
  config: DeploymentConfig;
  /** The API server's resource types; kinds defined by CRDs in the same commit are added. */
  discovery: Pick<Discovery, 'resourceFor'>;
  /** The track's `spec.ignore` (lib/ignore/ignoreRules.ts readIgnoreRules). */
  ignoreRules: readonly IgnoreRule[];
  /** The deployment's digest key (lib/apply/digestKey.ts); undefined: digests unkeyed (a dry run). */
  digestKey: Buffer | undefined;
}

type Placed = Omit<PlannedObject, 'manifest' | 'key' | 'digest' | 'ignore'>;

/**
 * Plans a commit's manifests: each is placed by scope (discovery, plus CRDs in the same commit),
 * its namespace defaulted, and run through the ownership table; duplicates after defaulting fail;
 * then each kept object gets its ignored fields and its digest, computed once.
 */
export function planManifests(manifests: readonly Manifest[], options: PlanOptions): Plan {
  const { track, config, discovery } = options;
  const fromCommit = commitDefinitions(manifests);
  const result: Plan = { planned: [], ignored: [], failed: [] };
  const placed: Array<{ manifest: Manifest; plan: Placed }> = [];

  for (const original of manifests) {
    const { ref, source } = original;
    const served = discovery.resourceFor(ref.apiVersion, ref.kind);
    const resource = served ?? fromCommit.get(`${ref.group}/${ref.version}/${ref.kind}`);
    if (!resource) {
      result.failed.push({
        subject: formatRef(ref),
        path: source.path,
        message: `${source.path}:${source.line}: ${formatRef(ref)}: the API server does not serve ${ref.kind} in ${ref.apiVersion}, and no CustomResourceDefinition in this commit defines it`,
      });
      continue;
    }
    const decision = decideOwnership(track, config, { ref, namespaced: resource.namespaced });
    if (decision.verdict === 'ignore') {
      result.ignored.push({ path: source.path, object: formatRef(ref), reason: decision.reason });
      continue;
    }
    const manifest = withNamespace(original, decision.namespace);
    try {
      placed.push({
        manifest,
        plan: {
          subject: formatRef(manifest.ref),
          resource: { apiVersion: ref.apiVersion, plural: resource.plural, namespaced: resource.namespaced },
          decision,
          updateStrategy: updateStrategyOf(manifest),
          stage: stageOf(ref),
        },
      });
    } catch (e) {
      if (!isLightkeeperError(e)) throw e;
      result.failed.push({ subject: formatRef(manifest.ref), path: source.path, message: e.message });
    }
  }

  // Namespace defaulting can make two manifests the same object.
  const { unique, errors } = findDuplicates(placed.map((p) => p.manifest));
  const kept = new Set(unique);
  for (const e of errors)
    result.failed.push({ subject: e.object ?? e.path, path: e.path, message: e.message });
  for (const { manifest, plan } of placed) {
    if (!kept.has(manifest)) continue;
    let ignore: string[][];
    try {
      ignore = ignoredPointers(manifest, plan.subject, options.ignoreRules);
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
      result.failed.push({ subject: plan.subject, path: manifest.source.path, message: e.message });
      continue;
    }
    result.planned.push({
      ...plan,
      manifest,
      key: identityKey(manifest.ref),
      digest: plannedDigest(manifest.object, ignore, options.digestKey),
      ...(ignore.length > 0 ? { ignore } : {}),
    });
  }
  return result;
}

function withNamespace(manifest: Manifest, namespace: string | undefined): Manifest {
  if (manifest.ref.namespace === namespace) return manifest;
  const metadata = { ...manifest.object.metadata };
  if (namespace === undefined) delete metadata.namespace;
  else metadata.namespace = namespace;
  const ref = { ...manifest.ref };
  if (namespace === undefined) delete ref.namespace;
  else ref.namespace = namespace;
  return { ...manifest, object: { ...manifest.object, metadata }, ref };
}
