export { canonicalJson, digestOf } from './digest';
export { findDuplicates } from './findDuplicates';
export { jsonText } from './jsonText';
export type { JsonObject, JsonPrimitive, JsonValue, KubeObject } from './KubeObject';
export { isJsonObject } from './KubeObject';
export type { Manifest, ManifestSource } from './Manifest';
export { type ManifestFileType, manifestFileType } from './manifestFileType';
export type { ObjectRef } from './objectRef';
export { formatRef, identityKey, refOf, splitApiVersion } from './objectRef';
export {
  cachedFileBytes,
  cacheOfFiles,
  DEFAULT_MAX_ALIAS_COUNT,
  DEFAULT_MAX_FILE_BYTES,
  type ManifestFile,
  type ParseCache,
  type ParseOptions,
  parseManifests,
} from './parseManifests';
export { SERVER_METADATA_FIELDS, stripServerFields } from './stripServerFields';
