import { createHash } from 'node:crypto';
import type { JsonValue } from './KubeObject';

/** JSON with object keys sorted recursively (by UTF-16 code units), arrays in order, no whitespace. */
export function canonicalJson(value: JsonValue): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`);
  return `{${members.join(',')}}`;
}

/** `sha256:<hex>` of the canonical JSON, so equal objects digest equally whatever their key order. */
export function digestOf(value: JsonValue): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}
