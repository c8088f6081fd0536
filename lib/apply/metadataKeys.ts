import { ManifestError } from '../errors';
import type { Manifest } from '../manifests';
import { pruneAnnotation, updateStrategyAnnotation } from '../track/metadataKeys';

export type UpdateStrategy = 'Update' | 'Never' | 'Recreate';
const strategies: readonly UpdateStrategy[] = ['Update', 'Never', 'Recreate'];

const annotations = (object: unknown): Record<string, unknown> =>
  ((object as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations ??
    {}) as Record<string, unknown>;

export function updateStrategyOf(manifest: Manifest): UpdateStrategy {
  const value = annotations(manifest.object)[updateStrategyAnnotation];
  if (value === undefined) return 'Update';
  if (strategies.includes(value as UpdateStrategy)) return value as UpdateStrategy;
  throw new ManifestError(
    `${updateStrategyAnnotation} must be one of ${strategies.join(', ')}, not ${String(value)}`,
    {
      path: manifest.source.path,
      line: manifest.source.line,
    },
  );
}

export const pruneDisabled = (live: unknown) => annotations(live)[pruneAnnotation] === 'disabled';
