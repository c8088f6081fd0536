import { describe, expect, it } from 'vitest';
import { withoutKustomizationFiles } from '../../../lib/kustomize/kustomizationFile';
import { loadSourceLimits } from '../../../lib/settings/sourceLimits';

const renderLimitsFromEnv = (env: Record<string, string>) => loadSourceLimits(env).render;

import { renderedFiles, sourcePath } from '../../../lib/kustomize/renderedFiles';
import { parseManifests } from '../../../lib/manifests';

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

describe('sourcePath', () => {
  it('resolves an origin against the rendered subPath to a repository path', () => {
    expect(sourcePath({ path: '../../base/deployment.yaml' }, 'overlays/prod')).toBe('base/deployment.yaml');
    expect(sourcePath({ path: 'patch.yaml' }, 'overlays/prod')).toBe('overlays/prod/patch.yaml');
    expect(sourcePath({ path: 'cm.yaml' }, '')).toBe('cm.yaml');
  });
  it('names a generated object by the kustomization that configured it', () => {
    expect(sourcePath({ configuredIn: '../../base/kustomization.yaml' }, 'overlays/prod')).toBe(
      'base/kustomization.yaml',
    );
  });
  it('names a remote object by its repository, path and ref', () => {
    expect(sourcePath({ repo: 'https://example.com/r.git', path: 'base/cm.yaml', ref: 'v1' }, 'o')).toBe(
      'https://example.com/r.git//base/cm.yaml?ref=v1',
    );
  });
});

describe('renderedFiles', () => {
  it('groups objects by source file in render order and parses them as YAML whatever the name', () => {
    const files = renderedFiles(
      [
        { origin: { path: 'a.json' }, yaml: cm('one') },
        { origin: { configuredIn: 'Kustomization' }, yaml: cm('generated') },
        { origin: { path: 'a.json' }, yaml: cm('two') },
      ],
      'app',
    );
    expect(files.map((f) => f.path)).toEqual(['app/a.json', 'app/Kustomization']);
    const parsed = parseManifests(files);
    expect(parsed.errors).toEqual([]);
    expect(parsed.manifests.map((m) => [m.source.path, m.object.metadata.name])).toEqual([
      ['app/a.json', 'one'],
      ['app/a.json', 'two'],
      ['app/Kustomization', 'generated'],
    ]);
  });
});

describe('withoutKustomizationFiles', () => {
  it('leaves out kustomization files only', () => {
    const paths = [
      'a/kustomization.yaml',
      'a/kustomization.yml',
      'Kustomization',
      'a/cm.yaml',
      'a/my-kustomization.yaml',
    ];
    expect(withoutKustomizationFiles(paths.map((path) => ({ path }))).map((f) => f.path)).toEqual([
      'a/cm.yaml',
      'a/my-kustomization.yaml',
    ]);
  });
});

describe('loadSourceLimits: the render limits', () => {
  it('reads positive whole numbers, else the defaults, and refuses anything else', () => {
    expect(renderLimitsFromEnv({})).toEqual({
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024 * 1024,
      maxMemoryBytes: 512 * 1024 * 1024,
    });
    expect(
      renderLimitsFromEnv({
        LIGHTKEEPER_KUSTOMIZE_TIMEOUT_MS: '500',
        LIGHTKEEPER_KUSTOMIZE_MAX_MEMORY_BYTES: '1048576',
      }),
    ).toEqual({ timeoutMs: 500, maxOutputBytes: 64 * 1024 * 1024, maxMemoryBytes: 1024 * 1024 });
    // A typo is an error at start, not silently the default.
    expect(() => renderLimitsFromEnv({ LIGHTKEEPER_KUSTOMIZE_MAX_OUTPUT_BYTES: 'x' })).toThrow(
      'LIGHTKEEPER_KUSTOMIZE_MAX_OUTPUT_BYTES=x is not accepted: expected a whole number of at least 1 (bytes)',
    );
  });
});
