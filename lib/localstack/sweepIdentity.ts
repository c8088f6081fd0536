import { fileURLToPath } from 'node:url';
import type { KubeClient } from '../kube/kubeClient';
import { provisionTrackReader, type TrackReader, type TrackReaderIdentity } from './trackReaderIdentity';

/** The sweep function's identity: may only get, list and watch GitTracks and ClusterGitTracks. */
export const sweepReader: TrackReader = {
  rbacFile: fileURLToPath(new URL('../../infra/rbac/sweep.yaml', import.meta.url)),
  serviceAccount: { namespace: 'lightkeeper-system', name: 'lightkeeper-sweep' },
};

/** The sweep's identity for the local stack and the tests, as infra/rbac/sweep.yaml says to make it. */
export const provisionSweepIdentity = (
  client: KubeClient,
  adminKubeconfig: string,
  dir: string,
  expirationSeconds?: number,
): Promise<TrackReaderIdentity> =>
  provisionTrackReader(client, sweepReader, adminKubeconfig, dir, expirationSeconds);
