import fs from 'node:fs';
import { writeRef } from 'isomorphic-git';

/**
 * The clone's own ref to the commit its last fetch brought. Every fetch names it as the ref whose
 * tip it already has, so the server sends only the objects that commit does not hold: a push of one
 * changed file transfers that file and the trees above it, not the whole tree again.
 */
export const FETCHED_REF = 'refs/lightkeeper/fetched';

/** Records `commit` as what the clone at `dir` last fetched. */
export async function recordFetched(dir: string, commit: string): Promise<void> {
  await writeRef({ fs, dir, ref: FETCHED_REF, value: commit, force: true });
}
