import { spawn } from 'node:child_process';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from '../settings/sourceLimits';

export type EngineOutcome = { ok: true; stdout: Buffer } | { ok: false; message: string };

export interface RunEngineOptions {
  binary: string;
  args: string[];
  /** The working directory of the child (the repository checkout). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  limits: RenderLimits;
  /** Written to the child's stdin, which is then closed; none: stdin is /dev/null. */
  stdin?: string;
}

/**
 * Runs the render engine (infra/kustomize) once as a child process in a process group of its own,
 * killed with the group when it outlives `limits.timeoutMs` or prints more than
 * `limits.maxOutputBytes`; the engine stops itself past `limits.maxMemoryBytes` (told in its
 * environment: infra/kustomize/memcap.go). Results as data: stdout on success, else stderr (or why it was killed).
 */
export function runEngine(options: RunEngineOptions): Promise<EngineOutcome> {
  const { binary, limits } = options;
  return new Promise((resolve) => {
    const child = spawn(binary, options.args, {
      cwd: options.cwd,
      detached: true,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: {
        ...options.env,
        LIGHTKEEPER_KUSTOMIZE_MAX_MEMORY_BYTES: String(
          limits.maxMemoryBytes ?? DEFAULT_RENDER_LIMITS.maxMemoryBytes,
        ),
      },
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let killedFor: string | undefined;
    const kill = (why: string) => {
      killedFor ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(
      () => kill(`the render took longer than ${limits.timeoutMs / 1000} s and was stopped`),
      limits.timeoutMs,
    );
    if (options.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => {}); // a child that exits early closes the pipe: its exit says why
      child.stdin.end(options.stdin);
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limits.maxOutputBytes)
        kill(`the render printed more than ${limits.maxOutputBytes} bytes and was stopped`);
      else out.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (err.length < 64 * 1024) err += chunk.toString();
    });
    child.on('error', (cause) => {
      clearTimeout(timer);
      resolve({ ok: false, message: `could not run ${binary}: ${cause.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (killedFor) return resolve({ ok: false, message: killedFor });
      // Killed from outside (the OOM killer, an operator): its stderr may be cut short.
      if (signal) return resolve({ ok: false, message: `the engine was killed (${signal})` });
      if (code !== 0) return resolve({ ok: false, message: engineMessage(err) || `exit status ${code}` });
      resolve({ ok: true, stdout: Buffer.concat(out) });
    });
  });
}

/** stderr without kustomize's deprecation warnings (`# Warning: …`). */
const engineMessage = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('# Warning:'))
    .join('\n')
    .trim();
