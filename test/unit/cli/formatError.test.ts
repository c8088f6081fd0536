import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, formatError } from '../../../lib/cli/formatError';
import { ApiUnreachableError, ConfigError, InvokeError, KubeApiError } from '../../../lib/errors';

const unreachable = new ApiUnreachableError(
  'https://127.0.0.1:6443',
  { request: 'GET /api/v1/namespaces', detail: 'no connection within 5 s', sent: false, attempts: 4 },
  { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) },
);

describe('formatError', () => {
  it('names the server and says what to do, in two lines without a stack', () => {
    const text = formatError(unreachable);
    expect(text.split('\n')).toEqual([
      'lightkeeper: cannot reach the Kubernetes API server at https://127.0.0.1:6443: no connection within 5 s (GET /api/v1/namespaces, 4 attempts)',
      expect.stringMatching(/^ {2}check that the API server is up/),
    ]);
  });

  it('keeps the cause chain on the first line', () => {
    const credentials = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });
    const text = formatError(new InvokeError('could not invoke f for GitTrack/a/b', { cause: credentials }));
    expect(text.split('\n')[0]).toBe(
      'lightkeeper: could not invoke f for GitTrack/a/b: CredentialsProviderError: Could not load credentials from any providers',
    );
    expect(text.split('\n')).toHaveLength(2);
  });

  it('shows the stack of an unexpected error only with --debug', () => {
    const bug = new TypeError('x is undefined');
    expect(formatError(bug)).toBe(
      'lightkeeper: TypeError: x is undefined\n  run again with --debug for the stack trace',
    );
    expect(formatError(bug, { debug: true })).toMatch(/at .*formatError\.test\.ts/);
  });
});

describe('exitCodeFor', () => {
  it('maps usage, configuration, cluster and other failures to documented codes', () => {
    expect(exitCodeFor(new CommanderError(1, 'commander.missingArgument', 'missing'))).toBe(2);
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', ''))).toBe(0);
    expect(exitCodeFor(new ConfigError('no kubeconfig'))).toBe(2);
    expect(exitCodeFor(unreachable)).toBe(3);
    expect(exitCodeFor(new KubeApiError(503, 'ServiceUnavailable', 'down'))).toBe(3);
    expect(exitCodeFor(new KubeApiError(403, 'Forbidden', 'no'))).toBe(1);
    expect(exitCodeFor(new Error('bug'))).toBe(1);
  });
});
