import type { TrackRef } from '../track/trackRef';

/** The command that unpins `ref`, as the CLI accepts it: named in Events, summaries and messages. */
export const unpinHint = (ref: TrackRef) =>
  `lightkeeper unpin ${ref.kind.toLowerCase()}/${ref.name}${ref.namespace ? ` -n ${ref.namespace}` : ''}`;
