// The error for a git transfer or read that goes over one of its limits (lib/settings/sourceLimits.ts
// defines them; the loaders read them once).

import { GitLimitError } from '../errors';
import { GIT_LIMIT_SETTINGS, type GitLimitName } from '../settings/sourceLimits';

const MiB = 1024 * 1024;

/** The error for going over `limit`; `what` says what went over it, naming the file or server. */
export function overLimit(limit: GitLimitName, what: string, value: number, subject?: string): GitLimitError {
  const setting = GIT_LIMIT_SETTINGS[limit];
  return new GitLimitError(
    limit,
    setting,
    `${what}: over the limit of ${format(limit, value)} (${setting})`,
    {
      subject,
    },
  );
}

function format(limit: GitLimitName, value: number): string {
  if (limit === 'timeoutMs' || limit === 'lowSpeedTimeMs') return `${value} ms`;
  if (limit === 'lowSpeedBytesPerSecond') return `${value} bytes/s`;
  if (limit === 'maxResponseBytes' || limit === 'maxObjectBytes' || limit === 'maxReadBytes')
    return value % MiB === 0 ? `${value / MiB} MiB` : `${value} bytes`;
  return `${value}`;
}
