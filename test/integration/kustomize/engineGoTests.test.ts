import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The render engine's own Go tests (infra/kustomize/*_test.go: the remote policy, the post-render,
// the nondeterminism check, the decryptor), run with the flags infra/build-kustomize.sh builds with,
// so the packages globalSetup compiled are reused and only the tests are compiled here.

const moduleDir = join(import.meta.dirname, '..', '..', '..', 'infra', 'kustomize');

describe('the render engine', () => {
  it.each([[''], ['helm,sops']])(
    'passes its Go tests (tags: %s)',
    async (tags) => {
      const args = ['test', '-trimpath', '-count=1', ...(tags ? ['-tags', tags] : []), './...'];
      const { stdout } = await promisify(execFile)('go', args, {
        cwd: moduleDir,
        env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((e: Error & { stdout?: string; stderr?: string }) => {
        throw new Error(`go ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
      });
      expect(stdout).toMatch(/^ok\s/m);
    },
    600_000,
  );
});
