// `helm template` (helm.sh/helm/v4's own CLI, built by infra/build-helm-oracle.sh) as the oracle of
// what a chart renders to: its output split into objects, each under the template it came from.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { HelmCapabilities } from '../../lib/helm/helmCapabilities';
import { type JsonValue, jsonText, parseManifests } from '../../lib/manifests';
import { cachedBuild } from './cachedBuild';
import { exactJson } from './kubectlOracle';

const run = promisify(execFile);
let building: Promise<string> | undefined;

/** The oracle's binary, built (niced) and cached outside the tree when missing. */
export function helmOracleBinary(): Promise<string> {
  building ??= cachedBuild('build-helm-oracle.sh');
  return building;
}

/** One object of a render: its `kind/namespace/name`, the template it came from, its JSON. */
export interface RenderedObject {
  key: string;
  source: string;
  object: JsonValue;
  hook: boolean;
}

export interface TemplateArgs {
  release: string;
  chartDir: string;
  namespace: string;
  valuesFiles: string[];
  capabilities: HelmCapabilities;
  isUpgrade?: boolean;
  /** `--include-crds`: the chart's crds/ printed first. */
  includeCrds?: boolean;
}

/** `helm template RELEASE CHART -n NS -f … --kube-version V --api-versions …`, hooks and tests included. */
export async function helmTemplate(args: TemplateArgs): Promise<RenderedObject[]> {
  const helm = await helmOracleBinary();
  const { stdout } = await run(
    helm,
    [
      'template',
      args.release,
      args.chartDir,
      '--namespace',
      args.namespace,
      ...args.valuesFiles.flatMap((f) => ['--values', f]),
      '--kube-version',
      args.capabilities.kubeVersion,
      ...args.capabilities.apiVersions.flatMap((v) => ['--api-versions', v]),
      ...(args.isUpgrade ? ['--is-upgrade'] : []),
      ...(args.includeCrds ? ['--include-crds'] : []),
    ],
    { maxBuffer: 64 * 1024 * 1024, env: { PATH: '', HOME: '/nonexistent', HELM_CACHE_HOME: '/nonexistent' } },
  );
  return splitSources(stdout);
}

/** A stream of `---\n# Source: path\n…` documents as objects (parsed as lightkeeper parses files). */
export function splitSources(stream: string): RenderedObject[] {
  const out: RenderedObject[] = [];
  for (const doc of stream.split(/^---\s*$/m)) {
    const source = /^# Source: (.+)$/m.exec(doc)?.[1];
    if (source === undefined || doc.trim() === '') continue;
    out.push(...objectsOf(source, doc));
  }
  return out;
}

/** The objects of a file, keyed and with their template path, as lightkeeper's parser reads them. */
export function objectsOf(source: string, content: string | Uint8Array): RenderedObject[] {
  const { manifests, errors } = parseManifests([{ path: source, content }]);
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('\n'));
  return manifests.map((m) => {
    const annotations = (m.object.metadata.annotations ?? {}) as Record<string, unknown>;
    return {
      key: `${m.object.kind}/${m.object.metadata.namespace ?? ''}/${m.object.metadata.name}`,
      source,
      object: exactJson(jsonText(m.object))[0] as JsonValue,
      hook: 'helm.sh/hook' in annotations,
    };
  });
}
