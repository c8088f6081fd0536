import { createHash } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import type { ManifestFile } from '../manifests';
import { updateStrategyAnnotation } from '../manifests/metadataKeys';
import type { CrdPolicy } from './helmPolicies';
import type { ChartHook, ChartRender } from './runHelmRender';

/** A hook the render left out, as a track's status names it. */
export interface SkippedHook {
  /** `Kind/name` (the hook's namespace is the release's). */
  subject: string;
  path: string;
  events: string[];
}

/**
 * The chart's objects as manifest files, one per template (`podinfo/templates/deployment.yaml`) in
 * the order Helm installs them, after its `crds/` files (which Helm installs first; the plan's
 * definitions stage applies them before the rest). Hooks are not among them. `crds`: Skip leaves
 * the chart's crds/ out; Create applies them `lightkeeper.dev/update-strategy: Never` (created when
 * missing, never updated); CreateReplace (default) as they are.
 */
export function chartManifestFiles(render: ChartRender, crds: CrdPolicy = 'CreateReplace'): ManifestFile[] {
  const byPath = new Map<string, string[]>();
  if (crds !== 'Skip')
    for (const crd of render.crds) {
      const text = crds === 'Create' ? createOnly(crd.yaml) : crd.yaml;
      byPath.set(crd.path, [...(byPath.get(crd.path) ?? []), text]);
    }
  for (const r of render.resources) byPath.set(r.origin.path, [...(byPath.get(r.origin.path) ?? []), r.yaml]);
  return [...byPath].map(([path, documents]) => {
    const content = documents.map((d) => (d.endsWith('\n') ? d : `${d}\n`)).join('---\n');
    return { path, content, format: 'yaml', oid: createHash('sha1').update(content).digest('hex') };
  });
}

/** The hooks, in the order Helm lists them. */
export const skippedHooks = (hooks: ReadonlyArray<ChartHook>): SkippedHook[] =>
  hooks.map((h) => ({ subject: `${h.kind}/${h.name}`, path: h.path, events: h.events }));

/** Each definition of a crds/ file marked `update-strategy: Never`: created when missing, never updated. */
function createOnly(text: string): string {
  return parseAllDocuments(text)
    .filter((d) => d.contents !== null)
    .map((d) => {
      d.setIn(['metadata', 'annotations', updateStrategyAnnotation], 'Never');
      return d.toString();
    })
    .join('---\n');
}
