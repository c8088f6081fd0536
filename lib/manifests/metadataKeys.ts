// Every `lightkeeper.dev/*` label and annotation key, in one place, and how a manifest's are read.

import { ManifestError } from '../errors';
import type { Manifest } from './Manifest';

/** Label on every tracking object and child: the UID of the track that manages it. */
export const trackUidLabel = 'lightkeeper.dev/track-uid';
/** Label on every tracking object: the name of its track (kubectl shows which track, not only a UID). */
export const trackNameLabel = 'lightkeeper.dev/track-name';
/**
 * Track annotation (Flux's reconcile.fluxcd.io/requestedAt): a new value asks for a reconcile, which
 * the every-minute check starts; the run records it in status.lastHandledRequestedAt.
 */
export const requestedAtAnnotation = 'lightkeeper.dev/requestedAt';
/** Manifest annotation: Update (default) | Never | Recreate. */
export const updateStrategyAnnotation = 'lightkeeper.dev/update-strategy';
/**
 * Manifest annotation: `disabled` orphans the child instead of deleting it when pruned, and applies
 * it without an owner reference, so deleting its track or tracking object leaves it too.
 */
export const pruneAnnotation = 'lightkeeper.dev/prune';
/**
 * Manifest annotation: comma-separated JSON pointers this object's apply leaves out, as a
 * `spec.ignore` rule naming only this object would. Kept on the child like lightkeeper's other
 * annotations, so `kubectl get -o yaml` shows why a field is not ours.
 */
export const ignoreFieldsAnnotation = 'lightkeeper.dev/ignore-fields';
/** On every object the migration creates: the Faros object it stands for, and that object's UID (lib/migrate). */
export const migratedFromAnnotation = 'lightkeeper.dev/migrated-from';
export const migratedFromUidAnnotation = 'lightkeeper.dev/migrated-from-uid';
/**
 * On every object lightkeeper decrypted (`sops`, lib/sops): diff, tree and audit mask its values like
 * a Secret's, whatever its kind, and the API server's errors about it are not repeated.
 */
export const decryptedAnnotation = 'lightkeeper.dev/decrypted';
/** Label on every object one `lightkeeper start` creates: that run's id (lib/localstack). */
export const startRunLabel = 'lightkeeper.dev/start-run';

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
