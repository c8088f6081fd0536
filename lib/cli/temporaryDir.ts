import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `use` with a fresh directory in the OS temp dir and removes it afterwards, whatever happens,
 * also when a signal handler ends the process with `process.exit` meanwhile (`finally` does not run
 * then; the 'exit' event does). The CLI's git clones live in one: a CLI run fetches once, and a
 * clone cache shared between processes would need locking that the in-process serialization of
 * fetches does not give.
 */
export async function withTemporaryDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  try {
    return await use(dir);
  } finally {
    process.removeListener('exit', remove);
    remove();
  }
}
