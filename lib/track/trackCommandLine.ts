import type { TrackRef } from './trackRef';

/** `gittrack/NAME -n NS` or `clustergittrack/NAME`, as the CLI's commands take a track. */
export const trackArgOf = (ref: TrackRef) =>
  `${ref.kind.toLowerCase()}/${ref.name}${ref.namespace ? ` -n ${ref.namespace}` : ''}`;

/** The command that reconciles a track now, from this machine. */
export const reconcileHint = (ref: TrackRef) => `lightkeeper reconcile ${trackArgOf(ref)}`;
