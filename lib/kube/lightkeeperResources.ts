export const lightkeeperApiVersion = 'lightkeeper.dev/v1alpha1';

/** The four kinds of lightkeeper.dev, as the API server serves them (see crds/). */
export const lightkeeperResources = {
  GitTrack: { apiVersion: lightkeeperApiVersion, kind: 'GitTrack', plural: 'gittracks', namespaced: true },
  ClusterGitTrack: {
    apiVersion: lightkeeperApiVersion,
    kind: 'ClusterGitTrack',
    plural: 'clustergittracks',
    namespaced: false,
  },
  GitTrackObject: {
    apiVersion: lightkeeperApiVersion,
    kind: 'GitTrackObject',
    plural: 'gittrackobjects',
    namespaced: true,
  },
  ClusterGitTrackObject: {
    apiVersion: lightkeeperApiVersion,
    kind: 'ClusterGitTrackObject',
    plural: 'clustergittrackobjects',
    namespaced: false,
  },
} as const;

export type LightkeeperKind = keyof typeof lightkeeperResources;
