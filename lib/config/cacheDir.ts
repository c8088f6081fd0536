import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where lightkeeper keeps things between runs, outside any work tree. */
export function cacheDir(): string {
  return (
    process.env.LIGHTKEEPER_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'lightkeeper')
  );
}
