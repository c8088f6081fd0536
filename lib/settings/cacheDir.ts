import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where lightkeeper keeps things between runs, outside any work tree. */
export function cacheDir(): string {
  return (
    process.env.LIGHTKEEPER_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'lightkeeper')
  );
}

/**
 * The one state directory of the local control plane, shared by `lightkeeper cluster …` and
 * `lightkeeper start` (npm start), so each sees the one the other started.
 */
export function localControlPlaneDir(): string {
  return join(cacheDir(), 'cluster');
}
