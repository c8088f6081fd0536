import { ConfigError } from '../errors';

const units: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const whole =
  /^(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h)(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))*$/;
const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g;

/** A Go duration string (`90s`, `2m`, `1h30m`), as Flux's `timeout` fields take it, in milliseconds. */
export function parseDuration(text: string, subject: string): number {
  if (text === '0') return 0;
  if (!whole.test(text))
    throw new ConfigError(`${subject}: ${JSON.stringify(text)} is not a duration such as 90s, 2m or 1h30m`, {
      subject,
    });
  let ms = 0;
  for (const [, value, unit] of text.matchAll(part)) ms += Number(value) * (units[unit as string] as number);
  return ms;
}
