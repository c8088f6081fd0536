// Run as a child process (node --import tsx): fetches `url` at main into `cacheRoot` and reads its
// manifest files as the engine does, then prints one JSON line with the outcome, the time it took
// and the process's peak RSS. The read-limit tests measure memory here, apart from the test worker.
import { isGitLimitError } from '../../lib/errors';
import { fetchCommit, readManifestFiles } from '../../lib/git';

const [url, cacheRoot] = process.argv.slice(2) as [string, string];
const started = Date.now();
const outcome: Record<string, unknown> = {};
try {
  const fetched = await fetchCommit({ url, reference: 'main', cacheRoot });
  const files = await readManifestFiles({
    dir: fetched.dir,
    commit: fetched.commit,
    indexed: fetched.indexed,
  });
  outcome.files = files.length;
  outcome.bytes = files.reduce((sum, f) => sum + f.content.length, 0);
} catch (error) {
  outcome.error = error instanceof Error ? error.message : String(error);
  if (isGitLimitError(error)) outcome.limit = error.limit;
}
outcome.ms = Date.now() - started;
outcome.peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(outcome));
