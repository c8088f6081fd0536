import { isJsonObject, type JsonObject, type KubeObject } from '../manifests';
import { stripServerFields } from '../manifests/stripServerFields';

/**
 * An object as a diff compares it: no status and none of the metadata the server writes on every
 * request (resourceVersion, managedFields, generation, uid, creationTimestamp), dropped as from a
 * manifest. Defaults the server fills in stay: the dry-run result carries them as the live object does.
 */
export const comparable = (object: JsonObject): JsonObject =>
  stripServerFields({
    ...object,
    metadata: isJsonObject(object.metadata) ? object.metadata : {},
  } as KubeObject) as JsonObject;
