import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Starts a long-running binary in its own process group, detached from the caller,
 * so that the CLI can exit and tests in other processes can stop or restart it.
 */
export function startDetached(binary: string, args: string[], logFile: string): number {
  const out = openSync(logFile, 'a');
  try {
    const child = spawn(binary, args, { detached: true, stdio: ['ignore', out, out] });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${binary}`);
    return child.pid;
  } finally {
    closeSync(out);
  }
}

export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM the process group, then SIGKILL whatever is left after `graceMs`. */
export async function stopProcess(pid: number | undefined, graceMs = 10_000): Promise<void> {
  if (!pid || !isAlive(pid)) return;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {}
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid)) signal('SIGKILL');
  while (isAlive(pid)) await sleep(20);
}

export function logTail(logFile: string, lines = 20): string {
  try {
    return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
