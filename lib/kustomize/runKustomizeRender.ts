import type { RenderLimits } from '../settings/sourceLimits';
import { type RemoteAccess, remoteAccessFlags } from './remoteAccess';
import { runEngine } from './runEngine';

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

/**
 * A track's SOPS keys as the engine reads them on stdin (lib/track/readDecryptionKeys.ts): each
 * `.agekey` entry's name (what an error names) and value, and how it may call AWS KMS.
 */
export interface EngineKeys {
  age: Array<{ name: string; value: string }>;
  kms?: EngineKmsKeys | undefined;
}

/**
 * AWS KMS for the engine (infra/kustomize/decryptkms.go): the key Secret's `sops.aws-kms` entry (the
 * tenant's own credentials, Flux's YAML), else the function's credentials, which the engine uses
 * for a GitTrack only on files whose KMS keys name `namespace` in their encryption context.
 */
export interface EngineKmsKeys {
  secret?: { name: string; value: string } | undefined;
  function?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined } | undefined;
  /** Set for a GitTrack: the namespace the function's role is restricted to. */
  namespace?: string | undefined;
  endpoint?: string | undefined;
}

export type RenderOutcome =
  | { ok: true; resources: RenderedResource[]; decrypted: boolean }
  | { ok: false; message: string };

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
  /** The track's keys: SOPS files are decrypted as kustomize reads them (`-decrypt`, the full engine only). */
  decryption?: EngineKeys | undefined;
}

/**
 * Runs kustomize-render once (runEngine: killed, with any git it started, past a limit). Results as
 * data: kustomize's message on failure.
 */
export async function runKustomizeRender(options: RunRenderOptions): Promise<RenderOutcome> {
  const { binary, root, dir, remote, limits } = options;
  // git (for a remote base) sees no user or system configuration, never prompts, speaks only http(s).
  const outcome = await runEngine({
    binary,
    args: [...remoteAccessFlags(remote), ...(options.decryption ? ['-decrypt'] : []), root, dir],
    cwd: root,
    limits,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.tmpDir,
      TMPDIR: options.tmpDir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ALLOW_PROTOCOL: 'http:https',
    },
    // The keys on a pipe, never an argument or the environment.
    ...(options.decryption ? { stdin: JSON.stringify(options.decryption) } : {}),
  });
  if (!outcome.ok) return outcome;
  try {
    const parsed = JSON.parse(outcome.stdout.toString('utf8')) as {
      resources: RenderedResource[];
      decrypted?: boolean;
    };
    return { ok: true, resources: parsed.resources, decrypted: parsed.decrypted === true };
  } catch (e) {
    return { ok: false, message: `unreadable render output: ${(e as Error).message}` };
  }
}
