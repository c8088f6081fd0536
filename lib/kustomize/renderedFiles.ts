import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { ManifestFile } from '../manifests';
import type { RenderedOrigin, RenderedResource } from './runKustomizeRender';

/**
 * The rendered objects as manifest files, one per source file in the order kustomize printed them:
 * each object under the repository path it came from (its origin, relative to `subPath`), a
 * generated one under the kustomization that configured it, a remote one under `repo//path`. The
 * parser then reads them exactly as it reads files from git.
 */
export function renderedFiles(resources: ReadonlyArray<RenderedResource>, subPath: string): ManifestFile[] {
  const byPath = new Map<string, string[]>();
  for (const r of resources) {
    const path = sourcePath(r.origin, subPath);
    const documents = byPath.get(path) ?? [];
    documents.push(r.yaml);
    byPath.set(path, documents);
  }
  return [...byPath].map(([path, documents]) => {
    const content = documents.map((d) => (d.endsWith('\n') ? d : `${d}\n`)).join('---\n');
    return { path, content, format: 'yaml', oid: createHash('sha1').update(content).digest('hex') };
  });
}

/** Repository-relative path of an origin; `subPath/kustomization` when kustomize gave none. */
export function sourcePath(origin: RenderedOrigin, subPath: string): string {
  const relative = origin.path || origin.configuredIn;
  if (origin.repo) return `${origin.repo}//${relative ?? ''}${origin.ref ? `?ref=${origin.ref}` : ''}`;
  const joined = posix.normalize(posix.join(subPath || '.', relative ?? 'kustomization'));
  return joined.startsWith('./') ? joined.slice(2) : joined;
}
