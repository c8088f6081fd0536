import { ManifestError } from '../errors';
import { checkObject } from './checkObject';
import { decodeContent } from './decodeContent';
import { findDuplicates } from './findDuplicates';
import { isJsonObject, type JsonValue } from './KubeObject';
import type { Manifest } from './Manifest';
import { type ManifestFileType, manifestFileType } from './manifestFileType';
import { readJsonDocument } from './readJsonDocument';
import { readYamlDocuments } from './readYamlDocuments';
import type { SourceDocument, ValuePath } from './SourceDocument';

/**
 * `oid` (a git blob id) makes a file's parse cacheable: same path and blob, same result. `format`
 * overrides the type the path's extension gives (rendered output is YAML whatever its source's name).
 */
export type ManifestFile = {
  path: string;
  content: Uint8Array | string;
  oid?: string;
  format?: ManifestFileType;
  /**
   * Not read from git because the cache holds its parse (`content` is empty): a miss is a bug that
   * fails the run (never an empty file, which would prune its objects).
   */
  unread?: true;
};

/** Parsed files kept between reconciles in one process (a warm function container); `bytes`: the file's size. */
export type ParseCache = Map<string, { manifests: Manifest[]; errors: ManifestError[]; bytes?: number }>;

const byteLength = (content: Uint8Array | string) =>
  typeof content === 'string' ? Buffer.byteLength(content) : content.length;

const cacheKey = (path: string, oid: string, format?: ManifestFileType) => `${path}\0${oid}\0${format ?? ''}`;

/** The size of a file whose parse `cache` holds (a reader may then skip its content), else undefined. */
export function cachedFileBytes(cache: ParseCache, path: string, oid: string): number | undefined {
  return cache.get(cacheKey(path, oid))?.bytes;
}

/**
 * A new cache holding only what `cache` holds of `files` (a commit's files, as read): every
 * file read unread stays parseable from it.
 */
export function cacheOfFiles(cache: ParseCache, files: ReadonlyArray<ManifestFile>): ParseCache {
  const kept: ParseCache = new Map();
  for (const file of files) {
    if (file.oid === undefined) continue;
    const key = cacheKey(file.path, file.oid, file.format);
    const entry = cache.get(key);
    if (entry !== undefined) kept.set(key, entry);
  }
  return kept;
}

export type ParseOptions = {
  /** Larger files are refused unread. Default 5 MiB. */
  maxFileBytes?: number;
  /** `yaml`'s limit on alias expansion (each alias use weighted by the aliases nested in it). Default 100. */
  maxAliasCount?: number;
  /** Reuse and record per-file results of files that carry an `oid`. */
  cache?: ParseCache;
};

export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_ALIAS_COUNT = 100;

/**
 * Reads manifest files (`.yaml`/`.yml` multi-document, `.json`; other paths are ignored) into objects,
 * as kubectl reads them (YAML 1.1, see readYamlDocuments). Lists (`kind: List`, `*List` with `items`)
 * are expanded. Each bad document or file becomes a ManifestError without stopping the rest; a
 * duplicate object is refused and its first definition kept.
 */
export function parseManifests(
  files: ReadonlyArray<ManifestFile>,
  options: ParseOptions = {},
): { manifests: Manifest[]; errors: ManifestError[] } {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxAliasCount = options.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT;
  const manifests: Manifest[] = [];
  const errors: ManifestError[] = [];

  for (const file of files) {
    const key = file.oid === undefined ? undefined : cacheKey(file.path, file.oid, file.format);
    let result = key === undefined ? undefined : options.cache?.get(key);
    if (result === undefined) {
      if (file.unread)
        throw new Error(`${file.path} (${file.oid}) was not read: its parse is not in the cache`);
      result = { ...parseFile(file, maxFileBytes, maxAliasCount), bytes: byteLength(file.content) };
      if (key !== undefined) options.cache?.set(key, result);
    }
    manifests.push(...result.manifests);
    errors.push(...result.errors);
  }

  const { unique, errors: duplicates } = findDuplicates(manifests);
  return { manifests: unique, errors: [...errors, ...duplicates] };
}

function parseFile(
  { path, content, format }: ManifestFile,
  maxFileBytes: number,
  maxAliasCount: number,
): { manifests: Manifest[]; errors: ManifestError[] } {
  const manifests: Manifest[] = [];
  const errors: ManifestError[] = [];
  const type = format ?? manifestFileType(path);
  if (type === undefined) return { manifests, errors };
  const decoded = decodeContent(content, maxFileBytes);
  if (!decoded.ok) {
    errors.push(new ManifestError(decoded.reason, { path }));
    return { manifests, errors };
  }
  const documents =
    type === 'json' ? [readJsonDocument(decoded.text)] : readYamlDocuments(decoded.text, { maxAliasCount });
  for (const document of documents) {
    if (document.ok) collect(path, document, document.value, [], manifests, errors);
    else errors.push(new ManifestError(document.reason, { path, line: document.line }));
  }
  return { manifests, errors };
}

function collect(
  path: string,
  document: SourceDocument & { ok: true },
  value: JsonValue,
  at: ValuePath,
  manifests: Manifest[],
  errors: ManifestError[],
): void {
  if (isList(value)) {
    value.items.forEach((item, index) => {
      collect(path, document, item, [...at, 'items', index], manifests, errors);
    });
    return;
  }
  const checked = checkObject(value);
  if (checked.ok) {
    manifests.push({ source: { path, line: document.lineOf(at) }, object: checked.object, ref: checked.ref });
  } else {
    const line = document.lineOf([...at, ...checked.at]);
    errors.push(new ManifestError(checked.reason, { path, line, object: checked.object }));
  }
}

/** `kind: List`, or any `*List` kind carrying an `items` sequence (as kubectl reads them). */
const isList = (value: JsonValue): value is { kind: string; items: JsonValue[] } =>
  isJsonObject(value) &&
  typeof value.kind === 'string' &&
  value.kind.endsWith('List') &&
  Array.isArray(value.items);
