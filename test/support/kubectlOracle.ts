// kubectl as the oracle of how a manifest file reads: what it would send for a file, compared with
// what lightkeeper would send, integers kept exact on both sides.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseDocument } from 'yaml';
import { type JsonValue, jsonText, parseManifests, stripServerFields } from '../../lib/manifests';
import type { KubeObject } from '../../lib/manifests/KubeObject';

const run = promisify(execFile);

export type Decoded = { ok: true; objects: JsonValue[] } | { ok: false; message: string; line?: number };

/** An annotation only the `annotate --local` path adds, removed again before comparing. */
const marker = 'oracle.lightkeeper.dev/marker';

/**
 * What kubectl would send for `file`: `kubectl create --dry-run=client -o json -f FILE` against the
 * test cluster (client-side validation off: it is the server's job, and lightkeeper sends what it
 * read). `create` maps every kind through discovery, so custom resources whose CRD the cluster lacks
 * (the corpus brings CRDs that must not be installed here) go through
 * `kubectl annotate --local -o json -f FILE k=v` instead, which reads the file through the same
 * resource builder and YAML/JSON decoder and never contacts the server; the annotation is then
 * removed. Server-populated fields are dropped as lightkeeper drops them.
 */
export async function kubectlDecode(kubectl: string, kubeconfig: string, file: string): Promise<Decoded> {
  const create = await kubectlCreate(kubectl, kubeconfig, file);
  if (create.ok || !/no matches for kind|unable to recognize|resource mapping not found/.test(create.message))
    return create;
  return kubectlLocal(kubectl, file);
}

/** `kubectl create --dry-run=client -o json -f FILE`, which needs the cluster's discovery. */
export const kubectlCreate = (kubectl: string, kubeconfig: string, file: string) =>
  kubectlJson(kubectl, [
    '--kubeconfig',
    kubeconfig,
    'create',
    '--dry-run=client',
    '--validate=false',
    '-o',
    'json',
    '-f',
    file,
  ]);

/** `kubectl annotate --local -o json -f FILE k=v` without the annotation: no server involved. */
export async function kubectlLocal(kubectl: string, file: string): Promise<Decoded> {
  const local = await kubectlJson(kubectl, ['annotate', '--local', '-o', 'json', '-f', file, `${marker}=x`]);
  if (!local.ok) return local;
  return { ok: true, objects: local.objects.map(withoutMarker) };
}

async function kubectlJson(kubectl: string, args: string[]): Promise<Decoded> {
  try {
    const { stdout } = await run(kubectl, args, { maxBuffer: 512 * 1024 * 1024 });
    const objects = exactJson(stdout).flatMap((o) => (isList(o) ? o.items : [o]));
    return { ok: true, objects: objects.map((o) => stripServerFields(o as KubeObject)) };
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    return { ok: false, message: (stderr || message).trim() };
  }
}

const isList = (o: JsonValue): o is { items: JsonValue[] } =>
  typeof o === 'object' && o !== null && !Array.isArray(o) && o.kind === 'List' && Array.isArray(o.items);

function withoutMarker(object: JsonValue): JsonValue {
  const { metadata } = object as KubeObject;
  const annotations = { ...(metadata.annotations as Record<string, JsonValue>) };
  delete annotations[marker];
  const rest = { ...metadata };
  if (Object.keys(annotations).length > 0) rest.annotations = annotations;
  else delete rest.annotations;
  return { ...(object as KubeObject), metadata: rest };
}

/** What lightkeeper would send for the file's objects: its parse, written by the client's jsonText. */
export function lightkeeperDecode(path: string, content: Uint8Array | string): Decoded {
  const { manifests, errors } = parseManifests([{ path, content }]);
  const [first] = errors;
  if (first) return { ok: false, message: errors.map((e) => e.message).join('\n'), line: first.line };
  return { ok: true, objects: manifests.map((m) => exactJson(jsonText(m.object))[0]!) };
}

/**
 * JSON text — one value, or several in a row as kubectl prints several objects — with every integer
 * read as a bigint, so that 9007199254740993 and 9007199254740992 stay different.
 */
export function exactJson(text: string): JsonValue[] {
  return splitValues(text).map((part) => {
    const document = parseDocument(part, { schema: 'json', intAsBigInt: true, uniqueKeys: false });
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS() as JsonValue;
  });
}

function splitValues(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === '}' || c === ']') && --depth === 0) parts.push(text.slice(start, i + 1));
  }
  return parts;
}
