import { afterAll, beforeAll } from 'vitest';
import type { KubeClient } from '../../lib/kube/kubeClient';
import { type GitServer, startGitServer } from '../../lib/localstack/gitServer';
import { kubeClient } from './cluster';
import { engine } from './engine';

export interface EngineHarness {
  client: KubeClient;
  server: GitServer;
  e: ReturnType<typeof engine>;
}

/**
 * For one test file: a client of the shared control plane, a real git server, and an engine with
 * its own clone cache, handed to `receive` before the tests run and closed after them.
 */
export function useEngineHarness(receive: (harness: EngineHarness) => void): void {
  let harness: EngineHarness | undefined;
  beforeAll(async () => {
    const client = await kubeClient();
    harness = { client, server: await startGitServer(), e: engine(client) };
    receive(harness);
  });
  afterAll(async () => {
    if (!harness) return;
    harness.e.dispose();
    await harness.client.close();
    await harness.server.close();
  });
}
