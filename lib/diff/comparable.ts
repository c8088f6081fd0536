import { isJsonObject, type JsonObject } from '../manifests';
import { SERVER_METADATA_FIELDS } from '../manifests/stripServerFields';

/**
 * An object as a diff compares it: no status and none of the metadata the server writes on every
 * request (resourceVersion, managedFields, generation, uid, creationTimestamp). Defaults the server
 * fills in stay: the dry-run result carries them exactly as the live object does.
 */
export function comparable(object: JsonObject): JsonObject {
  const { status: _status, ...rest } = object;
  const metadata = isJsonObject(object.metadata) ? object.metadata : {};
  return {
    ...rest,
    metadata: Object.fromEntries(
      Object.entries(metadata).filter(([k]) => !SERVER_METADATA_FIELDS.includes(k)),
    ),
  };
}
