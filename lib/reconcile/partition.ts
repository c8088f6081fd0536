import type { DeploymentConfig } from '../config/deploymentModes';
import { isLightkeeperError } from '../errors';
import type { Discovery } from '../kube/discovery';
import { digestOf, findDuplicates, formatRef, identityKey, isJsonObject, type Manifest } from '../manifests';
import { updateStrategyOf } from '../manifests/metadataKeys';
import { decideOwnership, type TrackOwner } from '../ownership/ownershipTable';
import type { PlannedObject } from '../plan/plannedObject';
import { stageOf } from '../plan/stages';
import type { IgnoredManifest } from './types';

export interface PartitionFailure {
  subject: string;
  path: string;
  message: string;
}

export interface Partition {
  planned: PlannedObject[];
  ignored: IgnoredManifest[];
  failed: PartitionFailure[];
}

interface ResourceInfo {
  plural: string;
  namespaced: boolean;
}

/** Kinds defined by CRDs in the same commit, so their custom resources can be placed before they are served. */
function commitDefinitions(manifests: readonly Manifest[]): Map<string, ResourceInfo> {
  const kinds = new Map<string, ResourceInfo>();
  for (const m of manifests) {
    if (m.ref.group !== 'apiextensions.k8s.io' || m.ref.kind !== 'CustomResourceDefinition') continue;
    const spec = m.object.spec;
    if (!isJsonObject(spec) || !isJsonObject(spec.names) || !Array.isArray(spec.versions)) continue;
    const { group } = spec;
    const { kind, plural } = spec.names;
    if (typeof group !== 'string' || typeof kind !== 'string' || typeof plural !== 'string') continue;
    for (const v of spec.versions) {
      if (isJsonObject(v) && typeof v.name === 'string') {
        kinds.set(`${group}/${v.name}/${kind}`, { plural, namespaced: spec.scope === 'Namespaced' });
      }
    }
  }
  return kinds;
}

/**
 * Splits a commit's manifests by scope (the API server's discovery, plus CRDs in the same commit),
 * defaults namespaces, and runs each through the ownership table.
 */
export function partition(
  manifests: readonly Manifest[],
  track: TrackOwner,
  config: DeploymentConfig,
  discovery: Discovery,
): Partition {
  const fromCommit = commitDefinitions(manifests);
  const result: Partition = { planned: [], ignored: [], failed: [] };
  const placed: Array<{ manifest: Manifest; plan: Omit<PlannedObject, 'manifest' | 'key'> }> = [];

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
          digest: memoizedDigest(manifest.object),
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
    if (kept.has(manifest)) result.planned.push({ ...plan, manifest, key: identityKey(manifest.ref) });
  }
  return result;
}

// Parsed manifests are shared between reconciles (processParseCache) and never mutated.
const digests = new WeakMap<object, string>();
function memoizedDigest(object: Manifest['object']): string {
  let digest = digests.get(object);
  if (digest === undefined) {
    digest = digestOf(object);
    digests.set(object, digest);
  }
  return digest;
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
