import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors';
import { kustomizeBinary } from '../kustomize/kustomizeBinary';

/**
 * helm-render: the render engine built with Helm (infra/build-kustomize.sh), beside kustomize-render
 * wherever that one is (the Lambda layer's /opt/bin, `kustomizeBin` from LIGHTKEEPER_KUSTOMIZE_BIN,
 * or the build cache).
 */
export async function helmBinary(kustomizeBin?: string): Promise<string> {
  const kustomize = await kustomizeBinary(kustomizeBin);
  const binary = join(dirname(kustomize), 'helm-render');
  if (!existsSync(binary))
    throw new ConfigError(`the Helm engine is missing: no helm-render beside ${kustomize}`, {
      subject: binary,
      hint: 'build both engines with `npm run build:kustomize`',
    });
  return binary;
}
