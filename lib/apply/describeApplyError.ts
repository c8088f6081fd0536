import { ApplyError, ImmutableFieldError, isLightkeeperError, isNotFound } from '../errors';
import { isImmutableFieldError, isOtherControllerError } from '../kube/apiErrors';
import { updateStrategyAnnotation } from '../manifests/metadataKeys';
import type { PlannedObject } from '../plan/plannedObject';
import { isDecryptedManifest, redactedError } from './redactDecrypted';

/**
 * The message of an object's failed apply: its file and line, the object, and what to do if anything.
 * For an object lightkeeper decrypted, the server's own words are withheld (redactDecrypted.ts).
 */
export function describeApplyError(e: unknown, p: PlannedObject): string {
  const where = `${p.manifest.source.path}:${p.manifest.source.line}`;
  if (isOtherControllerError(e)) {
    return `${where}: ${p.subject}: child is owned by another controller; not taking it over`;
  }
  if (isDecryptedManifest(p.manifest)) return `${where}: ${redactedError(p.subject, String(e))}`;
  if (isImmutableFieldError(e)) {
    return new ImmutableFieldError(
      `${where}: ${p.subject}: ${(e as Error).message} (annotate it ${updateStrategyAnnotation}: Recreate to replace it)`,
      { subject: p.subject, cause: e },
    ).message;
  }
  if (isNotFound(e)) return `${where}: ${p.subject}: ${(e as Error).message}`;
  if (isLightkeeperError(e)) return `${where}: ${e.message}`;
  return new ApplyError(`${where}: ${p.subject}: ${String(e)}`, { subject: p.subject, cause: e }).message;
}
