import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors';

import { kustomizeBinSetting } from '../settings/sourceLimits';

/** Where the Lambda layer puts the engine; serverless.yml sets this variable to it. */
export const KUSTOMIZE_BIN_ENV = kustomizeBinSetting.name;

const buildScript = fileURLToPath(new URL('../../infra/build-kustomize.sh', import.meta.url));
let building: Promise<string> | undefined;

/**
 * The kustomize-render binary: `given` (SourceLimits.kustomizeBin, from LIGHTKEEPER_KUSTOMIZE_BIN)
 * when that file exists (the Lambda layer, or a binary built elsewhere), else the one infra/build-kustomize.sh builds and caches (progress on
 * stderr; instant once cached). Built at most once per process.
 */
export function kustomizeBinary(given?: string): Promise<string> {
  if (given && existsSync(given)) return Promise.resolve(given);
  if (!existsSync(buildScript)) {
    return Promise.reject(
      new ConfigError(`the kustomize engine is missing: ${KUSTOMIZE_BIN_ENV}=${given ?? ''} does not exist`, {
        subject: KUSTOMIZE_BIN_ENV,
        hint: 'build it with `npm run build:kustomize` and point LIGHTKEEPER_KUSTOMIZE_BIN at the printed path',
      }),
    );
  }
  building ??= build().catch((e) => {
    building = undefined;
    throw e;
  });
  return building;
}

function build(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('nice', ['bash', buildScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', (cause) => reject(new ConfigError('could not run the kustomize build', { cause })));
    child.on('close', (code) => {
      const path = out.trim().split('\n').pop() ?? '';
      if (code === 0 && path) resolve(path);
      else reject(new ConfigError(`kustomize build failed (exit ${code}); see the output above`));
    });
  });
}
