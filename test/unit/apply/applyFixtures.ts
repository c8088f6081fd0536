import { parseManifests } from '../../../lib/manifests';
import type { TrackOwner } from '../../../lib/ownership/ownershipTable';
import { planManifests } from '../../../lib/plan/planManifests';
import type { PlannedObject } from '../../../lib/plan/plannedObject';
import type { DeploymentConfig } from '../../../lib/settings/deploymentModes';

/** A GitTrack and the planned objects of `yaml` for it, planned as a reconcile plans them. */
export const track: TrackOwner = {
  kind: 'GitTrack',
  apiVersion: 'lightkeeper.dev/v1alpha1',
  name: 'shop',
  uid: 'track-uid',
  namespace: 'team-a',
};
const config: DeploymentConfig = { gitTrackMode: 'Enabled', clusterGitTrackMode: 'IncludeNamespaced' };
const configMaps = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

export function plannedConfigMap(annotations = ''): PlannedObject {
  const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n${annotations}data:\n  a: "1"\n`;
  const { manifests } = parseManifests([{ path: 'c.yaml', content: yaml }]);
  const plan = planManifests(manifests, {
    track,
    config,
    discovery: { resourceFor: (_, kind) => (kind === 'ConfigMap' ? configMaps : undefined) },
    ignoreRules: [],
    digestKey: Buffer.alloc(32, 1),
  });
  const [p] = plan.planned;
  if (!p) throw new Error(`not planned: ${JSON.stringify(plan.failed)}`);
  return p;
}
