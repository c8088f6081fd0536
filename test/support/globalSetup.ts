import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ControlPlane } from '../../lib/controlplane/controlPlane';
import { installLightkeeperCrds } from '../../lib/kube/crds';
import { kubeClientFromFile } from '../../lib/kube/loadKubeConfig';
import { KUSTOMIZE_BIN_ENV, kustomizeBinary } from '../../lib/kustomize/kustomizeBinary';
import { layerEngineBinary } from './cachedBuild';
import { helmOracleBinary } from './helmOracle';
import { sopsOracleBinary } from './sopsOracle';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfig: string;
    /** State dir of the local control plane; empty when the tests run against KUBECONFIG's cluster. */
    controlPlaneDir: string;
  }
}

/**
 * One control plane for every integration and e2e test (each test makes its own namespaces):
 * the cluster named by KUBECONFIG when set, else a local one built and started here.
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  // Everything the suite and the processes it starts put in the OS temp dir (clone caches,
  // serverless-offline's functions, git servers) goes here, and goes away with it.
  const runTmp = mkdtempSync(join(tmpdir(), 'lightkeeper-test-'));
  process.env.TMPDIR = runTmp;
  let plane: ControlPlane | undefined;
  let kubeconfig: string;
  try {
    // The render engines (this machine's, and the Lambda layer's that `npm run package` copies), the
    // helm and sops oracles, built once here (when not cached) before any test runs, rather than by
    // test workers beside running tests, where a cold build outran their timeouts; workers and the
    // processes they start find the engine through the environment, the rest in the cache.
    const [engine] = await Promise.all([
      kustomizeBinary(),
      helmOracleBinary(),
      sopsOracleBinary(),
      layerEngineBinary(),
    ]);
    process.env[KUSTOMIZE_BIN_ENV] = engine;
    plane = process.env.KUBECONFIG
      ? undefined
      : await ControlPlane.start({ log: (l) => console.error(`[control-plane] ${l}`) });
    kubeconfig = plane?.kubeconfig ?? (process.env.KUBECONFIG as string);
    const client = await kubeClientFromFile(kubeconfig);
    await installLightkeeperCrds(client).finally(() => client.close());
  } catch (e) {
    await plane?.stop();
    rmSync(runTmp, { recursive: true, force: true });
    throw e;
  }
  console.error(`[control-plane] ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  project.provide('kubeconfig', kubeconfig);
  project.provide('controlPlaneDir', plane?.dir ?? '');
  return async () => {
    await plane?.stop();
    rmSync(runTmp, { recursive: true, force: true });
  };
}
