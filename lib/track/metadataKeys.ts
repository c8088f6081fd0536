// Every `lightkeeper.dev/*` label and annotation key, in one place.

/** Label on every tracking object and child: the UID of the track that manages it. */
export const trackUidLabel = 'lightkeeper.dev/track-uid';
/** Manifest annotation: Update (default) | Never | Recreate (lib/apply/metadataKeys.ts reads it). */
export const updateStrategyAnnotation = 'lightkeeper.dev/update-strategy';
/**
 * Manifest annotation: `disabled` orphans the child instead of deleting it when pruned, and applies
 * it without an owner reference, so deleting its track or tracking object leaves it too.
 */
export const pruneAnnotation = 'lightkeeper.dev/prune';
/** Manifest annotation: JSON pointers of fields the track leaves to others (lib/ignore). */
export const ignoreFieldsAnnotation = 'lightkeeper.dev/ignore-fields';
/** On a track and its credentials Secret taken over from Faros: the Faros object it came from (lib/migrate). */
export const migratedFromAnnotation = 'lightkeeper.dev/migrated-from';
/** The UID of that Faros object. */
export const migratedFromUidAnnotation = 'lightkeeper.dev/migrated-from-uid';
/** Label on every object `lightkeeper start` created: the run that created it (lib/localstack). */
export const startRunLabel = 'lightkeeper.dev/start-run';
