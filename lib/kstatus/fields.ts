/** Reading an object's fields the way kstatus does: defaults for what is missing, never a throw. */
export type Unstructured = Record<string, unknown>;

export interface ObjectCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

function field(object: Unstructured, path: string): unknown {
  let at: unknown = object;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

export function intField(object: Unstructured, path: string, fallback: number): number {
  const value = field(object, path);
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function stringField(object: Unstructured, path: string, fallback: string): string {
  const value = field(object, path);
  return typeof value === 'string' ? value : fallback;
}

export const hasField = (object: Unstructured, path: string) => field(object, path) !== undefined;

export function conditionsOf(object: Unstructured): ObjectCondition[] {
  const list = field(object, 'status.conditions');
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is ObjectCondition =>
      typeof c === 'object' && c !== null && typeof c.type === 'string' && typeof c.status === 'string',
  );
}

export const conditionOf = (object: Unstructured, type: string) =>
  conditionsOf(object).find((c) => c.type === type);
