/** `bigint` holds an integer beyond 2^53 exactly, as kubectl sends it (see jsonText). */
export type JsonPrimitive = string | number | bigint | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

/** A Kubernetes object as plain JSON: every field kept as written, only the identity fields typed. */
export type KubeObject = JsonObject & {
  apiVersion: string;
  kind: string;
  metadata: JsonObject & { name: string; namespace?: string };
};

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
