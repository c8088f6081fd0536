import { runEngine } from '../kustomize/runEngine';
import type { EngineKeys } from '../kustomize/runKustomizeRender';
import type { RenderLimits } from '../settings/sourceLimits';
import type { DecryptAnswer } from './decryptedManifests';
import type { SopsDocument } from './sopsDocuments';

/** A track's keys, as its key Secret holds them: each entry's name (errors name it) and value. */
export type DecryptionKeys = EngineKeys;

export type DecryptOutcome = { ok: true; answers: DecryptAnswer[] } | { ok: false; message: string };

export interface RunDecryptOptions {
  /** helm-render, built with the decryptor (infra/kustomize/decrypt.go). */
  binary: string;
  keys: DecryptionKeys;
  documents: readonly SopsDocument[];
  limits: RenderLimits;
  /** An empty scratch directory: the child's working directory, HOME and TMPDIR (it writes nothing). */
  tmpDir: string;
}

/**
 * Decrypts a batch of SOPS documents in one run of the engine (`helm-render decrypt`). The keys and
 * the documents go on its stdin and the plaintext comes back on its stdout: never a file, an
 * argument or an environment variable (a warm container serves every tenant; /proc shows a
 * process's arguments and environment). One answer per document, in order.
 */
export async function runDecrypt(options: RunDecryptOptions): Promise<DecryptOutcome> {
  const request = {
    keys: options.keys,
    documents: options.documents.map((d) => ({
      path: d.id,
      format: d.format,
      data: d.data.toString('base64'),
    })),
  };
  const outcome = await runEngine({
    binary: options.binary,
    args: ['decrypt'],
    cwd: options.tmpDir,
    limits: options.limits,
    env: { PATH: '', HOME: options.tmpDir, TMPDIR: options.tmpDir },
    stdin: JSON.stringify(request),
  });
  if (!outcome.ok) return { ok: false, message: `the decryptor failed: ${outcome.message}` };
  let parsed: { documents?: Array<{ path: string; data?: string; error?: string }> };
  try {
    parsed = JSON.parse(outcome.stdout.toString('utf8'));
  } catch {
    return { ok: false, message: 'the decryptor answered no JSON' };
  }
  const byId = new Map((parsed.documents ?? []).map((d) => [d.path, d]));
  const answers = options.documents.map((d): DecryptAnswer => {
    const answer = byId.get(d.id);
    if (answer?.error !== undefined) return { error: answer.error };
    if (typeof answer?.data !== 'string') return { error: 'the decryptor gave no answer' };
    return { data: Buffer.from(answer.data, 'base64') };
  });
  return { ok: true, answers };
}
