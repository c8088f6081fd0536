import { keyedDigest } from '../apply/digestKey';
import type { PlannedObject } from '../apply/plannedObject';
import type { DeploymentConfig } from '../config/deploymentModes';
import { readIgnoreRules } from '../ignore/ignoreRules';
import { withIgnoreRules } from '../ignore/withIgnoreRules';
import type { Manifest } from '../manifests';
import { trackOwner } from '../ownership/trackOwner';
import type { TrackObject } from '../track/trackObject';
import type { ClusterState } from './clusterState';
import type { PlanOutcome } from './outcomes';
import { partition } from './partition';

/**
 * The commit's objects for this track: in scope (discovery and the ownership table), less what the
 * ignore rules leave out, with keyed digests. Throws a ConfigError for an invalid spec.ignore.
 */
export function planCommit(
  manifests: readonly Manifest[],
  track: TrackObject,
  config: DeploymentConfig,
  cluster: ClusterState,
): PlanOutcome {
  const plan = withKeyedDigests(
    withIgnoreRules(
      partition(manifests, trackOwner(track), config, cluster.discovery),
      readIgnoreRules(track),
    ),
    cluster.digestKey,
  );
  return {
    planned: plan.planned,
    failed: plan.failed.map((f) => ({ subject: f.subject, action: 'failed', message: f.message })),
    ignored: plan.ignored,
  };
}

/** Every digest a tracking object will show, keyed: readers of tracking objects learn nothing of a manifest. */
function withKeyedDigests<T extends { planned: PlannedObject[] }>(plan: T, key: Buffer): T {
  return { ...plan, planned: plan.planned.map((p) => ({ ...p, digest: keyedDigest(key, p.digest) })) };
}
