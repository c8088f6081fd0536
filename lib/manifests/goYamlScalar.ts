/**
 * Scalar resolution of go-yaml v2 (`resolve.go` and `decoder.scalar`), the YAML 1.1 reader behind
 * sigs.k8s.io/yaml and so behind kubectl, Argo CD and the API server's own YAML decoding.
 */
export type GoScalar =
  | { type: 'null' }
  | { type: 'bool'; value: boolean }
  /** `width` is the Go type go-yaml picks: int (int64), or uint64 beyond int64. */
  | { type: 'int'; value: bigint; width: 'int64' | 'uint64' }
  | { type: 'float'; value: number }
  | { type: 'str'; value: string };

/** How the scalar was written: plain scalars are resolved, quoted and block scalars are strings unless tagged. */
export type ScalarStyle = 'plain' | 'quoted';

const tagPrefix = 'tag:yaml.org,2002:';
const STR = `${tagPrefix}str`;
const BOOL = `${tagPrefix}bool`;
const INT = `${tagPrefix}int`;
const FLOAT = `${tagPrefix}float`;
const NULL = `${tagPrefix}null`;
const TIMESTAMP = `${tagPrefix}timestamp`;
const BINARY = `${tagPrefix}binary`;
const resolvableTags = new Set([STR, BOOL, INT, FLOAT, NULL, TIMESTAMP]);

const words = new Map<string, GoScalar>();
const define = (value: GoScalar, spellings: string) => {
  for (const s of spellings.split(' ')) words.set(s, value);
};
define({ type: 'bool', value: true }, 'y Y yes Yes YES true True TRUE on On ON');
define({ type: 'bool', value: false }, 'n N no No NO false False FALSE off Off OFF');
define({ type: 'null' }, '~ null Null NULL');
words.set('', { type: 'null' });
define({ type: 'float', value: Number.NaN }, '.nan .NaN .NAN');
define({ type: 'float', value: Number.POSITIVE_INFINITY }, '.inf .Inf .INF +.inf +.Inf +.INF');
define({ type: 'float', value: Number.NEGATIVE_INFINITY }, '-.inf -.Inf -.INF');

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const dotFloat = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class GoScalarError extends Error {}

/**
 * The value go-yaml v2 gives `text` (the scalar's content) with explicit tag `tag` (a full
 * `tag:yaml.org,2002:…` name, '!' or a local tag), decoding into `interface{}`. Throws
 * GoScalarError where go-yaml fails. Timestamps stay their text, `!!binary` becomes its bytes read
 * as UTF-8 text (go-yaml makes a Go string of them; bytes that are not UTF-8 are refused here
 * rather than replaced by U+FFFD, which is what the JSON encoder after go-yaml would do).
 */
export function resolveGoScalar(tag: string | undefined, text: string, style: ScalarStyle): GoScalar {
  if (tag === undefined && style === 'quoted') return { type: 'str', value: text };
  if (tag === BINARY) return { type: 'str', value: decodeBinary(text) };
  if (tag !== undefined && !resolvableTags.has(tag)) return { type: 'str', value: text };
  const resolved = resolvePlain(tag, text);
  if (tag === undefined || tag === STR || tag === resolved.tag) return resolved.value;
  if (tag === FLOAT && resolved.value.type === 'int' && resolved.value.width === 'int64') {
    return { type: 'float', value: Number(resolved.value.value) };
  }
  throw new GoScalarError(`cannot decode ${shortTag(resolved.tag)} \`${text}\` as a ${shortTag(tag)}`);
}

function resolvePlain(tag: string | undefined, text: string): { tag: string; value: GoScalar } {
  const str = { tag: STR, value: { type: 'str', value: text } as GoScalar };
  const hint = text === '' ? 'M' : hintOf(text.charCodeAt(0));
  if (hint === undefined || tag === STR) return str;
  const word = words.get(text);
  if (word) return { tag: tagOfType(word), value: word };
  if (hint === '.') {
    const value = dotFloat.test(text) ? Number(text) : Number.NaN;
    return Number.isFinite(value) ? { tag: FLOAT, value: { type: 'float', value } } : str;
  }
  if (hint === 'M') return str;
  if ((tag === undefined || tag === TIMESTAMP) && isGoTimestamp(text)) {
    return { tag: TIMESTAMP, value: { type: 'str', value: text } };
  }
  const plain = text.replaceAll('_', '');
  const int = parseGoInt(plain);
  if (int.ok) return { tag: INT, value: { type: 'int', value: int.value, width: 'int64' } };
  const uint = parseGoUint(plain);
  if (uint.ok) return { tag: INT, value: { type: 'int', value: uint.value, width: 'uint64' } };
  if (yamlStyleFloat.test(plain)) {
    const value = Number(plain);
    if (Number.isFinite(value)) return { tag: FLOAT, value: { type: 'float', value } };
  }
  return str;
}

const hintOf = (c: number): 'D' | 'M' | '.' | undefined => {
  if ((c >= 48 && c <= 57) || c === 43 || c === 45) return 'D'; // digit, '+', '-'
  if (c === 46) return '.';
  return 'yYnNtTfFoO~'.includes(String.fromCharCode(c)) ? 'M' : undefined;
};

const tagOfType = (s: GoScalar): string =>
  s.type === 'null' ? NULL : s.type === 'bool' ? BOOL : s.type === 'float' ? FLOAT : INT;

const shortTag = (tag: string) => (tag.startsWith(tagPrefix) ? `!!${tag.slice(tagPrefix.length)}` : tag);

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

type Parsed = { ok: true; value: bigint } | { ok: false };

/** strconv.ParseInt(s, 0, 64): optional sign, then 0x/0o/0b, a leading 0 for octal, or decimal. */
function parseGoInt(s: string): Parsed {
  const negative = s.startsWith('-');
  const magnitude = parseGoUint(negative || s.startsWith('+') ? s.slice(1) : s);
  if (!magnitude.ok) return magnitude;
  const value = negative ? -magnitude.value : magnitude.value;
  return value >= int64Min && value <= int64Max ? { ok: true, value } : { ok: false };
}

/** strconv.ParseUint(s, 0, 64). */
function parseGoUint(s: string): Parsed {
  let base = 10;
  let digits = s;
  if (s.startsWith('0')) {
    const prefix = s.length >= 3 ? s[1]!.toLowerCase() : '';
    base = prefix === 'b' ? 2 : prefix === 'o' ? 8 : prefix === 'x' ? 16 : 8;
    digits = s.slice(base === 8 && prefix !== 'o' ? 1 : 2);
  }
  if (s === '') return { ok: false };
  let value = 0n;
  for (const c of digits.toLowerCase()) {
    const d = c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c >= 'a' && c <= 'z' ? c.charCodeAt(0) - 87 : 99;
    if (d >= base) return { ok: false };
    value = value * BigInt(base) + BigInt(d);
  }
  return value <= uint64Max ? { ok: true, value } : { ok: false };
}

// Go's time.Parse with go-yaml's layouts: 2006-1-2, 2006-1-2 15:4:5.999999999, and
// 2006-1-2T15:4:5.999999999Z07:00 (T or t).
const timestamp =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:([Tt])| )(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(Z|[+-]\d{2}:\d{2})?)?$/;

function isGoTimestamp(text: string): boolean {
  const m = timestamp.exec(text);
  if (!m) return false;
  const [, y, mo, d, t, h, mi, s, zone] = m;
  if (h !== undefined && (t === undefined) !== (zone === undefined)) return false;
  const year = Number(y);
  const month = Number(mo);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || Number(d) < 1 || Number(d) > daysInMonth) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)) return false;
  if (zone !== undefined && zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59))
    return false;
  return true;
}

/** Go's base64.StdEncoding.DecodeString (which skips CR and LF), then the bytes as UTF-8 text. */
function decodeBinary(text: string): string {
  const compact = text.replace(/[\r\n]/g, '');
  if (!base64.test(compact)) throw new GoScalarError('!!binary value contains invalid base64 data');
  try {
    return utf8.decode(Buffer.from(compact, 'base64'));
  } catch {
    throw new GoScalarError(
      '!!binary value is not UTF-8 text; kubectl would replace its invalid bytes with U+FFFD',
    );
  }
}
