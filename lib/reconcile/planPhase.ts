import { readIgnoreRules } from '../ignore/ignoreRules';
import type { Manifest } from '../manifests';
import { trackOwner } from '../ownership/trackOwner';
import { planManifests } from '../plan/planManifests';
import type { DeploymentConfig } from '../settings/deploymentModes';
import type { TrackObject } from '../track/trackObject';
import type { ClusterState } from './clusterState';
import type { PlanOutcome } from './outcomes';

/**
 * The commit's objects for this track (lib/plan: scope, ownership, ignore rules, keyed digests),
 * with what was refused as `failed` changes. Throws a ConfigError for an invalid spec.ignore.
 */
export function planCommit(
  manifests: readonly Manifest[],
  track: TrackObject,
  config: DeploymentConfig,
  cluster: Pick<ClusterState, 'discovery' | 'digestKey'>,
): PlanOutcome {
  const plan = planManifests(manifests, {
    track: trackOwner(track),
    config,
    discovery: cluster.discovery,
    ignoreRules: readIgnoreRules(track),
    digestKey: cluster.digestKey,
  });
  return {
    planned: plan.planned,
    failed: plan.failed.map((f) => ({ subject: f.subject, action: 'failed', message: f.message })),
    ignored: plan.ignored,
  };
}
