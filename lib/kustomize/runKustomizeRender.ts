import { spawn } from 'node:child_process';
import type { RenderLimits } from '../settings/sourceLimits';
import { type RemoteAccess, remoteAccessFlags } from './remoteAccess';

/** Where kustomize says an object came from, relative to the rendered directory. */
export interface RenderedOrigin {
  path?: string;
  repo?: string;
  ref?: string;
  configuredIn?: string;
}

export interface RenderedResource {
  origin: RenderedOrigin;
  /** The object as kustomize prints it, its origin and transformer annotations removed. */
  yaml: string;
}

export type RenderOutcome = { ok: true; resources: RenderedResource[] } | { ok: false; message: string };

export interface RunRenderOptions {
  binary: string;
  /** The repository checkout: nothing outside it may be read. */
  root: string;
  /** The kustomization directory inside `root`. */
  dir: string;
  /** What the render may reach on the network (none unless the track and the deployment allow it). */
  remote: RemoteAccess;
  limits: RenderLimits;
  /** Remote bases are cloned here (TMPDIR of the child) when allowed. */
  tmpDir: string;
}

/**
 * Runs kustomize-render once as a child process, killed when it outlives `limits.timeoutMs` or
 * prints more than `limits.maxOutputBytes`. Results as data: kustomize's message on failure.
 */
export function runKustomizeRender(options: RunRenderOptions): Promise<RenderOutcome> {
  const { binary, root, dir, remote, limits } = options;
  const args = [...remoteAccessFlags(remote), root, dir];
  return new Promise((resolve) => {
    // Its own process group, so that a kill also stops the git it may run for a remote base. git sees
    // no user or system configuration, never prompts, and speaks only http(s).
    const child = spawn(binary, args, {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: options.tmpDir,
        TMPDIR: options.tmpDir,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_TERMINAL_PROMPT: '0',
        GIT_ALLOW_PROTOCOL: 'http:https',
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
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limits.maxOutputBytes)
        kill(`the render printed more than ${limits.maxOutputBytes} bytes and was stopped`);
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 64 * 1024) err += chunk.toString();
    });
    child.on('error', (cause) => {
      clearTimeout(timer);
      resolve({ ok: false, message: `could not run ${binary}: ${cause.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (killedFor) return resolve({ ok: false, message: killedFor });
      if (code !== 0) return resolve({ ok: false, message: kustomizeMessage(err) || `exit status ${code}` });
      try {
        const parsed = JSON.parse(Buffer.concat(out).toString('utf8')) as { resources: RenderedResource[] };
        resolve({ ok: true, resources: parsed.resources });
      } catch (e) {
        resolve({ ok: false, message: `unreadable render output: ${(e as Error).message}` });
      }
    });
  });
}

/** stderr without kustomize's deprecation warnings (`# Warning: …`). */
const kustomizeMessage = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('# Warning:'))
    .join('\n')
    .trim();
