import { isJsonObject, type JsonValue, type KubeObject } from './KubeObject';
import { nameProblem, namespaceProblem } from './objectName';
import { formatRef, type ObjectRef, refOf, splitApiVersion } from './objectRef';
import type { ValuePath } from './SourceDocument';
import { stripServerFields } from './stripServerFields';

export type CheckedObject =
  | { ok: true; object: KubeObject; ref: ObjectRef }
  | { ok: false; reason: string; at: ValuePath; object?: string };

/** Decides whether one document is an object lightkeeper can own; returns it without server fields. */
export function checkObject(value: JsonValue): CheckedObject {
  const refuse = (reason: string, at: ValuePath = []): CheckedObject => ({ ok: false, reason, at });
  if (!isJsonObject(value)) return refuse(`a manifest must be a mapping, found ${describe(value)}`);

  const { apiVersion, kind, metadata } = value;
  if (apiVersion === undefined) return refuse('apiVersion is missing');
  if (typeof apiVersion !== 'string')
    return refuse(`apiVersion must be a string, found ${describe(apiVersion)}`, ['apiVersion']);
  const gv = splitApiVersion(apiVersion);
  if (!gv)
    return refuse(`apiVersion "${apiVersion}" is not of the form "version" or "group/version"`, [
      'apiVersion',
    ]);
  if (kind === undefined) return refuse('kind is missing');
  if (typeof kind !== 'string' || kind === '')
    return refuse(`kind must be a non-empty string, found ${describe(kind)}`, ['kind']);

  const what = gv.group === '' ? kind : `${kind}.${gv.group}`;
  if (metadata === undefined) return refuse(`metadata is missing in ${what}`);
  if (!isJsonObject(metadata))
    return refuse(`metadata must be a mapping, found ${describe(metadata)}`, ['metadata']);
  const { name, namespace, generateName } = metadata;
  if (name === undefined || name === null) {
    return generateName === undefined
      ? refuse(`metadata.name is missing in ${what}`, ['metadata'])
      : refuse(`metadata.generateName is not supported (in ${what}); set metadata.name`, [
          'metadata',
          'generateName',
        ]);
  }
  if (typeof name !== 'string' || name === '') {
    return refuse(`metadata.name must be a non-empty string, found ${describe(name)}`, ['metadata', 'name']);
  }
  if (namespace !== undefined && namespace !== null && typeof namespace !== 'string') {
    return refuse(`metadata.namespace must be a string, found ${describe(namespace)}`, [
      'metadata',
      'namespace',
    ]);
  }
  // Checked before any request: an invalid name or namespace must never reach a URL.
  const badName = nameProblem(name, gv.group);
  if (badName) return refuse(`metadata.name ${quote(name)} in ${what} ${badName}`, ['metadata', 'name']);
  const ns = typeof namespace === 'string' ? namespace : '';
  const badNamespace = ns === '' ? undefined : namespaceProblem(ns);
  if (badNamespace) {
    return refuse(`metadata.namespace ${quote(ns)} in ${what} ${badNamespace}`, ['metadata', 'namespace']);
  }

  const object = stripServerFields(value as KubeObject);
  const ref = refOf(object);
  if ('ownerReferences' in metadata) {
    return {
      ok: false,
      reason: 'manifests must not declare metadata.ownerReferences; ownership is managed by lightkeeper',
      at: ['metadata', 'ownerReferences'],
      object: formatRef(ref),
    };
  }
  return { ok: true, object, ref };
}

const describe = (value: JsonValue): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a sequence';
  if (typeof value === 'bigint') return `number ${value}`;
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
};

/** A name for a message, shortened when it is too long to be a name. */
const quote = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 60)}…` : text);
