import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HelmCapabilities, readHelmCapabilities } from '../../../lib/helm/helmCapabilities';
import { renderHelmChart } from '../../../lib/helm/renderHelmChart';
import { Discovery } from '../../../lib/kube/discovery';
import type { KubeClient } from '../../../lib/kube/kubeClient';
import { DEFAULT_RENDER_LIMITS, defaultSourceLimits } from '../../../lib/settings/sourceLimits';
import { kubeClient } from '../../support/cluster';

// A chart's render is capped in memory (LIGHTKEEPER_KUSTOMIZE_MAX_MEMORY_BYTES): a template that
// builds a huge string stops the engine with the reason, a broken commit, before it can take the
// Lambda down with the reconcile in it; an ordinary chart renders well under the cap.

const scratch = mkdtempSync(join(tmpdir(), 'lk-helm-memory-'));
const MiB = 1024 * 1024;
let client: KubeClient;
let capabilities: HelmCapabilities;

beforeAll(async () => {
  client = await kubeClient();
  capabilities = await readHelmCapabilities(client, await new Discovery(client).refresh());
});
afterAll(async () => {
  await client?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A chart whose one ConfigMap says the length of `repeat COUNT "x"`: COUNT bytes held, a few printed. */
function repeatingChart(name: string, count: number): string {
  const root = join(scratch, name);
  mkdirSync(join(root, 'big', 'templates'), { recursive: true });
  writeFileSync(join(root, 'big', 'Chart.yaml'), 'apiVersion: v2\nname: big\nversion: 0.1.0\n');
  writeFileSync(
    join(root, 'big', 'templates', 'cm.yaml'),
    `{{- $x := repeat ${count} "x" }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  length: {{ len $x | quote }}\n`,
  );
  return root;
}

const render = (root: string, maxMemoryBytes: number) =>
  renderHelmChart({
    source: { kind: 'local', dir: root },
    release: {
      chart: 'big',
      releaseName: 'big',
      namespace: 'apps',
      valuesFiles: [],
      values: {},
      valuesFrom: [],
    },
    capabilities,
    isUpgrade: false,
    limits: { ...defaultSourceLimits, render: { ...DEFAULT_RENDER_LIMITS, maxMemoryBytes } },
  });

describe("a chart's render is capped in memory", () => {
  it('stops a template that holds more than the cap, naming the cap, and renders nothing', async () => {
    const started = Date.now();
    const huge = await render(repeatingChart('huge', 400 * MiB), 64 * MiB);
    expect(huge.files).toEqual([]);
    expect(huge.errors.map((e) => e.message).join()).toMatch(
      /^big\/Chart\.yaml: helm render failed: the render used more than 67108864 bytes of memory and was stopped/,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('renders the same chart at a small size under the same cap', async () => {
    const small = await render(repeatingChart('small', 1000), 64 * MiB);
    expect(small.errors).toEqual([]);
    expect(small.files.map((f) => f.content).join()).toContain('length: "1000"');
  });
});
