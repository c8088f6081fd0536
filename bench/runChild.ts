import { spawn } from 'node:child_process';
import { type ChildResult, continueLine, firstAppliedMarker } from './childProtocol';

export interface ChildCommand {
  /** Node's arguments up to the script: the bundle, or `--import tsx reconcileChild.ts`. */
  script: string[];
  /** Write a CPU profile of each reconcile into this directory. */
  profileDir?: string | undefined;
  /** After the no-op, commit these files into the track's repository (its working tree `dir`) and reconcile again. */
  change?: { dir: string; files: Record<string, string> } | undefined;
  /** No-ops of the first apply's commit, back to back; the child reports the median. */
  noops?: number | undefined;
}

/**
 * Runs the reconcile child for one ClusterGitTrack in a fresh Node process and returns what it
 * measured; `onFirstApplied` is called as soon as the first apply is done, and the child waits for
 * it before the no-op.
 */
export async function runReconcileChild(
  command: ChildCommand,
  kubeconfig: string,
  trackName: string,
  concurrency: number,
  onFirstApplied: () => void | Promise<void>,
): Promise<ChildResult> {
  const args = [...command.script, kubeconfig, trackName, String(concurrency)];
  const env = {
    ...process.env,
    LK_BENCH_PROFILE_DIR: command.profileDir ?? '',
    LK_BENCH_CHANGE: command.change ? JSON.stringify(command.change) : '',
    LK_BENCH_PAUSE: '1',
    LK_BENCH_NOOPS: String(command.noops ?? 1),
  };
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let announced = false;
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes(firstAppliedMarker) && !announced) {
          announced = true;
          void Promise.resolve(onFirstApplied()).then(
            () => child.stdin.end(`${continueLine}\n`),
            (e: unknown) => {
              child.kill();
              reject(e);
            },
          );
        }
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    },
  );
  const line = stdout.trim().split('\n').at(-1);
  if (code !== 0 || !line) throw new Error(`reconcile child exited with ${code}:\n${stderr.slice(-4000)}`);
  return JSON.parse(line) as ChildResult;
}
