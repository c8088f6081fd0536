// Packs are verified before they are stored (indexPack.ts): an object that later reads back wrong,
// a pack that no longer reads, or an object missing from a commit the clone holds means the clone's
// own files were damaged. Each fetch names the clone's last commit as one it has (fetchedRef.ts), so
// newer commits lean on older packs: a damaged clone is discarded, and the next fetch starts anew.
import { GitFetchError, isLightkeeperError } from '../errors';
import { discardCloneDir } from './cloneDir';
import { serialized } from './serialized';

class DamagedClone extends Error {}

/** The GitFetchError for damage found in the clone at `dir`. */
export function damagedCloneError(message: string, dir: string, cause?: unknown): GitFetchError {
  return new GitFetchError(message, { subject: dir, cause: new DamagedClone(message, { cause }) });
}

/** Discards the clone at `dir` when `error` is damage found in it (after its fetches in flight); whether it did. */
export async function discardIfDamaged(dir: string, error: unknown): Promise<boolean> {
  if (!isLightkeeperError(error) || !(error.cause instanceof DamagedClone)) return false;
  await serialized(dir, () => discardCloneDir(dir));
  return true;
}
