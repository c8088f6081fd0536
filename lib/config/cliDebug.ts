import { type Env, flag } from '../settings/setting';

/** `LIGHTKEEPER_DEBUG`: stack traces with the CLI's errors, as `--debug`. */
export const debugSetting = flag('LIGHTKEEPER_DEBUG', false);

/**
 * Whether to print stack traces: `--debug`, or LIGHTKEEPER_DEBUG. Asked while another error is
 * reported, so a value it does not accept means no, never a second error. Its own file: the CLI's
 * entry point imports it, and `--help` must load nothing else of the CLI's settings.
 */
export function wantsDebug(argv: readonly string[], env: Env = process.env): boolean {
  const raw = env[debugSetting.name];
  return argv.includes('--debug') || (raw !== undefined && debugSetting.parse(raw) === true);
}
