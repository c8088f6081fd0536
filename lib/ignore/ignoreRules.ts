import { ConfigError } from '../errors';
import type { ObjectRef } from '../manifests';
import type { TrackObject } from '../track/trackObject';
import { trackLabel } from '../track/trackRef';
import { parsePointer } from './jsonPointer';

/** Which objects a rule concerns; every field left out matches all (Flux's and Argo CD's selector). */
export interface IgnoreTarget {
  group?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}

/** One `spec.ignore` entry, validated, with its pointers parsed into reference tokens. */
export interface IgnoreRule {
  target: IgnoreTarget;
  pointers: string[][];
}

const targetFields = ['group', 'kind', 'name', 'namespace'] as const;

/**
 * Fields that make an object what it is: without them the apply is not of the same object, so
 * no rule may leave them out.
 */
const identityPointers = ['/apiVersion', '/kind', '/metadata', '/metadata/name', '/metadata/namespace'];

/** The pointer's tokens, or a reason it cannot be ignored. */
export function ignorablePointer(pointer: unknown): { tokens: string[] } | { error: string } {
  if (typeof pointer !== 'string') return { error: `${JSON.stringify(pointer)} is not a string` };
  const parsed = parsePointer(pointer);
  if ('error' in parsed) return parsed;
  if (identityPointers.includes(pointer))
    return { error: `${pointer} names the object itself; it cannot be ignored` };
  return parsed;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The track's `spec.ignore`, validated: any fault is a ConfigError naming the track and the rule,
 * and the reconcile applies nothing. A GitTrack's rule naming another namespace is refused: its
 * rules, like its manifests, reach no further than its namespace.
 */
export function readIgnoreRules(track: TrackObject): IgnoreRule[] {
  const raw = (track.spec as { ignore?: unknown }).ignore;
  if (raw === undefined || raw === null) return [];
  const label = trackLabel({
    kind: track.kind,
    name: track.metadata.name,
    namespace: track.metadata.namespace,
  });
  const fail = (where: string, why: string): never => {
    throw new ConfigError(`${label}: spec.ignore${where}: ${why}`, { subject: label });
  };
  if (!Array.isArray(raw)) return fail('', 'must be a list of {target, jsonPointers}');
  return raw.map((rule, i) => {
    if (!isRecord(rule)) return fail(`[${i}]`, 'must be an object with target and jsonPointers');
    const target = rule.target ?? {};
    if (!isRecord(target)) return fail(`[${i}].target`, 'must be an object');
    const selector: IgnoreTarget = {};
    for (const [key, value] of Object.entries(target)) {
      if (!(targetFields as readonly string[]).includes(key))
        fail(`[${i}].target.${key}`, `unknown field; a target has ${targetFields.join(', ')}`);
      if (typeof value !== 'string') fail(`[${i}].target.${key}`, 'must be a string');
      selector[key as keyof IgnoreTarget] = value as string;
    }
    if (
      track.kind === 'GitTrack' &&
      selector.namespace !== undefined &&
      selector.namespace !== track.metadata.namespace
    )
      fail(
        `[${i}].target.namespace`,
        `${selector.namespace} is outside this GitTrack's namespace ${track.metadata.namespace}`,
      );
    const pointers = rule.jsonPointers;
    if (!Array.isArray(pointers) || pointers.length === 0)
      return fail(`[${i}].jsonPointers`, 'must be a non-empty list of JSON pointers such as /spec/replicas');
    return {
      target: selector,
      pointers: pointers.map((p, j) => {
        const checked = ignorablePointer(p);
        return 'error' in checked ? fail(`[${i}].jsonPointers[${j}]`, checked.error) : checked.tokens;
      }),
    };
  });
}

/** Whether a rule's target names this object (namespace as placed: defaulted by the track). */
export const targets = (target: IgnoreTarget, ref: ObjectRef): boolean =>
  (target.group === undefined || target.group === ref.group) &&
  (target.kind === undefined || target.kind === ref.kind) &&
  (target.name === undefined || target.name === ref.name) &&
  (target.namespace === undefined || target.namespace === (ref.namespace ?? ''));
