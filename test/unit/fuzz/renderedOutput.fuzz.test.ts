import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../../lib/errors';
import { renderedFiles } from '../../../lib/kustomize/renderedFiles';
import type { RenderedResource } from '../../../lib/kustomize/runKustomizeRender';
import { parseManifests } from '../../../lib/manifests';
import { FUZZ_TEST_MS, fc, fuzzParameters, outcomeOf } from '../../support/fuzz';

// kustomize's output carries the tenant's text: origins name any path the kustomization gave, and
// every object's YAML came from the repository. It becomes files for the parser, which must end each
// in objects or errors naming a file, however the origins and the YAML read.

const pathLike = fc.oneof(
  fc.constantFrom('', '.', '..', '../../etc/passwd', '/etc/passwd', 'a//b', 'base/../../x', '\\..\\x'),
  fc.array(fc.constantFrom('a', '..', '.', '', 'b.yaml', '/'), { maxLength: 6 }).map((s) => s.join('/')),
  fc.string({ maxLength: 20 }),
);
const origin = fc.record(
  {
    path: pathLike,
    configuredIn: pathLike,
    repo: fc.constantFrom('https://example.com/r', ''),
    ref: fc.string({ maxLength: 8 }),
  },
  { requiredKeys: [] },
);
const yaml = fc.oneof(
  fc.constant('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n'),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .integer({ min: 1, max: 30 })
    .map(
      (depth) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: depth }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}]`).join('\n')}\ndata: {x: *a${depth}}\n`,
    ),
);

describe('fuzz: kustomize output', { timeout: FUZZ_TEST_MS }, () => {
  it('ends any origins and YAML in objects or errors naming one of the files', async () => {
    const resources = fc.array(fc.record({ origin, yaml }), { maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(resources, fc.constantFrom('', 'overlays/prod'), async (list, subPath) => {
        const outcome = await outcomeOf(() => {
          const files = renderedFiles(list as RenderedResource[], subPath);
          return { files, parsed: parseManifests(files) };
        }, 1_000);
        expect(outcome.ok, outcome.ok ? '' : outcome.error.stack).toBe(true);
        if (!outcome.ok) return;
        const paths = outcome.value.files.map((f) => f.path);
        for (const error of outcome.value.parsed.errors) {
          expect(error).toBeInstanceOf(ManifestError);
          expect(paths).toContain(error.path);
        }
      }),
      fuzzParameters(500),
    );
  });
});
