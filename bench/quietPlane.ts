// Each measurement starts on a quiet control plane. An engine's first apply leaves the controllers
// work that goes on for a minute or more (310 Deployments: ReplicaSets, then Pods, at the controller
// manager's 20 requests per second); the fixed 3 s pause this replaces let that work run during the
// next engine's measurement, charging one engine for another's objects.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ControlPlane } from '../lib/controlplane/controlPlane';
import { pidsOf } from './benchEnv';
import { cpuBetween, sampleCpu } from './cpuTime';

const windowMs = 1000;
/**
 * CPU the API server and controller manager may spend per window and still count as idle. 100:
 * with API Priority and Fairness on and tens of thousands of objects, an idle API server spends
 * 60–70 ms a second (60 made every wait run its full 240 s); a rollout costs several hundred.
 */
const idleCpuMs = 100;
const quietWindows = 2;
const maxWaitMs = 240_000;

/** Waits until the API server and controller manager have been idle for two windows in a row. */
export async function waitForQuietPlane(
  plane: ControlPlane,
  log: (line: string) => void,
): Promise<{ waitedMs: number; quiet: boolean }> {
  const started = Date.now();
  let quietInRow = 0;
  let before = sampleCpu(pidsOf(plane));
  while (Date.now() - started < maxWaitMs) {
    await sleep(windowMs);
    const after = sampleCpu(pidsOf(plane));
    const used = cpuBetween(before, after);
    before = after;
    const busy = (used.apiserver ?? 0) + (used['controller-manager'] ?? 0);
    quietInRow = busy <= idleCpuMs ? quietInRow + 1 : 0;
    if (quietInRow >= quietWindows) return { waitedMs: Date.now() - started, quiet: true };
  }
  log(`the control plane was still busy after ${maxWaitMs / 1000} s; measuring anyway`);
  return { waitedMs: Date.now() - started, quiet: false };
}
