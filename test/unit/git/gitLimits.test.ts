import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../lib/errors';
import { overLimit } from '../../../lib/git/gitLimits';
import { DEFAULT_GIT_LIMITS, GIT_LIMIT_SETTINGS, loadSourceLimits } from '../../../lib/settings/sourceLimits';

const gitLimitsFromEnv = (env: Record<string, string>) => loadSourceLimits(env).git;

describe('loadSourceLimits: the git limits', () => {
  it('gives the defaults when nothing is set', () => {
    expect(gitLimitsFromEnv({})).toEqual(DEFAULT_GIT_LIMITS);
  });

  it('reads every limit from its own variable', () => {
    const env = Object.fromEntries(Object.values(GIT_LIMIT_SETTINGS).map((name, i) => [name, String(i + 1)]));
    expect(Object.values(gitLimitsFromEnv(env))).toEqual(
      Object.values(GIT_LIMIT_SETTINGS).map((_, i) => i + 1),
    );
  });

  it('turns the minimum rate off with 0, and no other limit', () => {
    expect(gitLimitsFromEnv({ LIGHTKEEPER_GIT_LOW_SPEED_BYTES_PER_SECOND: '0' }).lowSpeedBytesPerSecond).toBe(
      0,
    );
    expect(() => gitLimitsFromEnv({ LIGHTKEEPER_GIT_TIMEOUT_MS: '0' })).toThrow(
      'LIGHTKEEPER_GIT_TIMEOUT_MS=0 is not accepted: expected a whole number of at least 1 (milliseconds)',
    );
  });

  it.each(['-1', '1.5', 'lots'])('refuses %s', (raw) => {
    const error = (() => {
      try {
        return gitLimitsFromEnv({ LIGHTKEEPER_GIT_MAX_FILES: raw });
      } catch (e) {
        return e;
      }
    })();
    expect(hasCode(error, 'ConfigError')).toBe(true);
    expect((error as Error).message).toBe(
      `LIGHTKEEPER_GIT_MAX_FILES=${raw} is not accepted: expected a whole number of at least 1 (files)`,
    );
  });
});

describe('overLimit', () => {
  it('names the limit, its value and the setting that raises it, with a literal code', () => {
    const error = overLimit('maxResponseBytes', 'https://git.example/x sent too much', 100 * 1024 * 1024);
    expect(error).toMatchObject({
      code: 'GitLimitError',
      limit: 'maxResponseBytes',
      setting: 'LIGHTKEEPER_GIT_MAX_RESPONSE_BYTES',
      message:
        'https://git.example/x sent too much: over the limit of 100 MiB (LIGHTKEEPER_GIT_MAX_RESPONSE_BYTES)',
      hint: 'raise LIGHTKEEPER_GIT_MAX_RESPONSE_BYTES to allow more',
    });
  });
});
