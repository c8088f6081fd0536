// One environment variable: its name, its default and how its text becomes a value. Every setting
// lightkeeper reads is declared with these, so a bad value fails at start with one kind of message
// (the variable, the value and what it accepts) and the settings table can be checked against them.
import { ConfigError } from '../errors';

export type Env = Readonly<Record<string, string | undefined>>;

export interface Setting<T> {
  /** The environment variable. */
  readonly name: string;
  /** The value when the variable is unset or empty. */
  readonly fallback: T;
  /** What the variable accepts, for errors and the settings table ("a whole number of at least 1"). */
  readonly accepts: string;
  /** The value of a non-empty text, or undefined when the text is not accepted. */
  readonly parse: (raw: string) => T | undefined;
  /** The default as the settings table says it, when `fallback` alone does not say it. */
  readonly shownDefault?: string;
}

/** The default as the settings table shows it. */
export function shownDefault(setting: Setting<unknown>): string {
  if (setting.shownDefault !== undefined) return setting.shownDefault;
  const value = setting.fallback;
  if (value === undefined) return 'unset';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  return String(value);
}

/** Reads one setting: the default when unset or empty, else its value or a ConfigError saying why not. */
export function readSetting<T>(env: Env, setting: Setting<T>): T {
  const raw = env[setting.name];
  if (raw === undefined || raw === '') return setting.fallback;
  const value = setting.parse(raw);
  if (value === undefined)
    throw new ConfigError(`${setting.name}=${raw} is not accepted: expected ${setting.accepts}`, {
      subject: setting.name,
    });
  return value;
}

/** A whole number within `[min, max]`; `unit` names what it counts ("milliseconds"). */
export function integer(
  name: string,
  fallback: number,
  bounds: { min: number; max?: number; unit?: string },
): Setting<number> {
  const { min, max = Number.MAX_SAFE_INTEGER, unit } = bounds;
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  return {
    name,
    fallback,
    accepts: `a whole number ${range}${unit ? ` (${unit})` : ''}`,
    parse: (raw) => {
      if (!/^\s*\d+\s*$/.test(raw)) return undefined;
      const value = Number(raw);
      return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
    },
  };
}

/** A duration in whole milliseconds, at least `min`. */
export const milliseconds = (name: string, fallback: number, min = 1): Setting<number> =>
  integer(name, fallback, { min, unit: 'milliseconds' });

/** The same, with no default: undefined when unset. */
export function optionalMilliseconds(name: string, min = 0): Setting<number | undefined> {
  const { accepts, parse } = milliseconds(name, 0, min);
  return { name, fallback: undefined, accepts, parse };
}

/** `true`/`1` or `false`/`0`. */
export const flag = (name: string, fallback: boolean): Setting<boolean> => ({
  name,
  fallback,
  accepts: 'true, 1, false or 0',
  parse: (raw) => (raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : undefined),
});

/** One of a closed set of words. */
export function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): Setting<T> {
  return {
    name,
    fallback,
    accepts: `one of ${allowed.join(', ')}`,
    parse: (raw) => ((allowed as readonly string[]).includes(raw) ? (raw as T) : undefined),
  };
}

/** Text that `accepted` checks (a name of some kind). */
export const checked = <T extends string | undefined>(
  name: string,
  fallback: T,
  accepts: string,
  accepted: (raw: string) => boolean,
): Setting<string | T> => ({ name, fallback, accepts, parse: (raw) => (accepted(raw) ? raw : undefined) });

/** Free text (a name, a path, a URL checked where it is used); undefined when unset. */
export const text = (name: string, accepts: string): Setting<string | undefined> => ({
  name,
  fallback: undefined,
  accepts,
  parse: (raw) => raw,
});

/** Free text with a default. */
export const textOr = (name: string, fallback: string, accepts: string): Setting<string> => ({
  name,
  fallback,
  accepts,
  parse: (raw) => raw,
});

/** An absolute http(s) URL. */
export const url = (name: string): Setting<string | undefined> => ({
  name,
  fallback: undefined,
  accepts: 'an http or https URL',
  parse: (raw) => (URL.canParse(raw) && /^https?:$/.test(new URL(raw).protocol) ? raw : undefined),
});
