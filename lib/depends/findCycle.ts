import { type TrackRef, trackLabel } from '../track/trackRef';

/**
 * The shortest cycle of dependencies through `start` (`[start, …, start]`), or undefined.
 * `edges` gives a track's dependencies as far as they are known (undefined: not loaded, missing
 * or refused, so no edges). Cycles elsewhere in the graph are the business of the tracks on them.
 */
export function findCycle(
  start: TrackRef,
  edges: (ref: TrackRef) => readonly TrackRef[] | undefined,
): TrackRef[] | undefined {
  const startKey = trackLabel(start);
  const parent = new Map<string, TrackRef | undefined>([[startKey, undefined]]);
  const queue: TrackRef[] = [start];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const next of edges(at) ?? []) {
      const key = trackLabel(next);
      if (key === startKey) return pathTo(at, parent, start);
      if (parent.has(key)) continue;
      parent.set(key, at);
      queue.push(next);
    }
  }
  return undefined;
}

function pathTo(last: TrackRef, parent: Map<string, TrackRef | undefined>, start: TrackRef): TrackRef[] {
  const path: TrackRef[] = [start];
  for (let at: TrackRef | undefined = last; at !== undefined; at = parent.get(trackLabel(at))) path.push(at);
  return path.reverse();
}

/** `GitTrack/ns/a → GitTrack/ns/b → GitTrack/ns/a`. */
export const formatCycle = (cycle: readonly TrackRef[]) => cycle.map(trackLabel).join(' → ');
