import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureControlPlaneBinaries } from '../../../lib/controlplane/binaries';
import { type KubeObject, manifestFileType } from '../../../lib/manifests';
import { kubeconfig } from '../../support/cluster';
import { corpusRoot } from '../../support/corpus';
import {
  type Decoded,
  kubectlCreate,
  kubectlDecode,
  kubectlLocal,
  lightkeeperDecode,
} from '../../support/kubectlOracle';
import { trickyYaml } from './trickyYaml';

// The project's own kubectl is the oracle of how a manifest reads (YAML 1.1 through go-yaml v2 and
// sigs.k8s.io/yaml, as Flux and Argo CD read it too): for each file, the JSON lightkeeper would send
// must equal the JSON kubectl would send, integers compared exactly. Nothing is written to the cluster.

let kubectl: string;
let dir: string;

beforeAll(async () => {
  kubectl = join(await ensureControlPlaneBinaries(), 'kubectl');
  dir = mkdtempSync(join(tmpdir(), 'kubectl-oracle-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const describeOutcome = (d: Decoded) => (d.ok ? `${d.objects.length} object(s)` : `refused: ${d.message}`);

describe('kubectl oracle: tricky YAML', () => {
  it.each(trickyYaml)('$name', async ({ name, text, file = `${name}.yaml`, outcome = 'same' }) => {
    const path = join(dir, file);
    writeFileSync(path, text);
    const theirs = await kubectlDecode(kubectl, kubeconfig(), path);
    const ours = lightkeeperDecode(file, text);

    if (outcome === 'same') {
      expect(theirs, describeOutcome(theirs)).toMatchObject({ ok: true });
      expect(ours, describeOutcome(ours)).toMatchObject({ ok: true });
      expect(ours).toEqual(theirs);
      return;
    }
    // Refused by lightkeeper, with the line, whether kubectl refuses it too or (on purpose) not.
    expect(ours).toMatchObject({ ok: false, line: expect.any(Number) });
    expect(ours.ok || ours.message).toMatch(new RegExp(`^${file.replace('.', '\\.')}:\\d+`));
    expect(theirs.ok, describeOutcome(theirs)).toBe(outcome !== 'refused');
  });

  it('has kubectl read a file the same through annotate --local as through create --dry-run=client', async () => {
    for (const { name, text } of trickyYaml.filter((c) => !c.file && !c.outcome)) {
      const path = join(dir, `${name}.yaml`);
      writeFileSync(path, text);
      const created = await kubectlCreate(kubectl, kubeconfig(), path);
      expect(created.ok, name).toBe(true);
      expect(await kubectlLocal(kubectl, path), name).toEqual(created);
    }
  });

  it('reads file modes as octal: 0400 is 256 and 0755 is 493 (YAML 1.2 sends 400, i.e. mode 0620)', () => {
    const secretVolume = trickyYaml.find((c) => c.name === 'secret-volume-mode')!;
    const ours = lightkeeperDecode('v.yaml', secretVolume.text);
    expect(ours).toMatchObject({
      ok: true,
      objects: [{ spec: { volumes: [{ secret: { defaultMode: 256n, items: [{ mode: 493n }] } }] } }],
    });
  });
});

/**
 * `kubectl create` writes its context's namespace into a namespaced object that has none; lightkeeper
 * leaves it unset at parse time and later gives it the track's namespace (or `defaultNamespace`).
 * That one field is the track's decision, not the file's, so it is not compared.
 */
function withoutContextNamespace(theirs: Decoded, ours: Decoded): Decoded {
  if (!theirs.ok || !ours.ok) return theirs;
  const objects = theirs.objects.map((object, i) => {
    const metadata = (object as KubeObject).metadata;
    const unset = (ours.objects[i] as KubeObject | undefined)?.metadata.namespace === undefined;
    if (!unset || metadata.namespace !== 'default') return object;
    const { namespace: _, ...rest } = metadata;
    return { ...(object as KubeObject), metadata: rest };
  });
  return { ok: true, objects };
}

/**
 * Every manifest file of the shared corpus, by path relative to the corpus root. A Helm chart's
 * files (under a folder with a `Chart.yaml`) are no manifests: Helm renders them first.
 */
const corpusFiles = (() => {
  const root = corpusRoot();
  const entries = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const charts = entries.filter((e) => e.name === 'Chart.yaml').map((e) => `${e.parentPath}${sep}`);
  return entries
    .filter((entry) => manifestFileType(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !charts.some((chart) => path.startsWith(chart)))
    .map((path) => relative(root, path))
    .sort();
})();

describe('kubectl oracle: the shared corpus', () => {
  it('covers every manifest file of the corpus', () => {
    expect(corpusFiles.length).toBeGreaterThanOrEqual(97);
  });

  it.each(corpusFiles)('%s', async (file) => {
    const path = join(corpusRoot(), file);
    const theirs = await kubectlDecode(kubectl, kubeconfig(), path);
    const ours = lightkeeperDecode(file, readFileSync(path));
    expect(theirs, describeOutcome(theirs)).toMatchObject({ ok: true });
    expect(ours).toEqual(withoutContextNamespace(theirs, ours));
  });
});
