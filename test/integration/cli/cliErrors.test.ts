import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// What a new user trips over first, run as they would run it: each mistake ends in one or two
// lines (what is wrong, what to do), a documented exit code, and no stack trace.

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'lk-cli-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A clean environment: no KUBECONFIG, no AWS credentials, an empty HOME (no ~/.kube, ~/.aws). */
const lightkeeper = (args: string[], env: Record<string, string> = {}) =>
  run('node', ['bin/lightkeeper.mjs', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      TMPDIR: tmpdir(),
      HOME: home,
      AWS_EC2_METADATA_DISABLED: 'true',
      ...env,
    },
    timeout: 60_000,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

const sha = '0123456789abcdef0123456789abcdef01234567';

function expectTwoLines(result: { stdout: string; stderr: string }, first: RegExp, second: RegExp) {
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toEqual([expect.stringMatching(first), expect.stringMatching(second)]);
}

describe.concurrent('CLI errors', () => {
  it('without any kubeconfig', async () => {
    const result = await lightkeeper(['reconcile', 'cgt/x']);
    expect(result.code).toBe(2);
    expectTwoLines(
      result,
      /^lightkeeper: no kubeconfig: KUBECONFIG is not set and .*\/\.kube\/config does not exist$/,
      /^ {2}set KUBECONFIG to a kubeconfig file \(`npx lightkeeper cluster up` prints one/,
    );
  });

  it('with KUBECONFIG naming a missing file', async () => {
    const result = await lightkeeper(['reconcile', 'cgt/x'], { KUBECONFIG: join(home, 'nope') });
    expect(result.code).toBe(2);
    expectTwoLines(
      result,
      /^lightkeeper: the kubeconfig .*\/nope named by KUBECONFIG does not exist$/,
      /^ {2}set KUBECONFIG/,
    );
  });

  it('with a plain http server and TLS verification on', async () => {
    const kubeconfig = join(home, 'http-kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'plain', cluster: { server: 'http://127.0.0.1:8080' } }],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'x', context: { cluster: 'plain', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const result = await lightkeeper(['reconcile', 'cgt/x'], { KUBECONFIG: kubeconfig });
    expect(result.code).toBe(2);
    expectTwoLines(
      result,
      /^lightkeeper: the kubeconfig's cluster plain is plain http \(http:\/\/127\.0\.0\.1:8080\)$/,
      /^ {2}use its https address, or set insecure-skip-tls-verify: true/,
    );
  });

  it('replay without AWS credentials keeps the cause', async () => {
    // --once: a pinning replay would first need a kubeconfig to write the pin.
    const result = await lightkeeper([
      'replay',
      'gt/app',
      '-n',
      'team',
      '--commit',
      sha,
      '--once',
      '--function',
      'lightkeeper-dev-reconcile',
      '--region',
      'eu-west-1',
    ]);
    expect(result.code).toBe(2);
    expectTwoLines(
      result,
      /^lightkeeper: could not invoke lightkeeper-dev-reconcile for GitTrack\/team\/app: no AWS credentials: CredentialsProviderError: /,
      /^ {2}set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; or pass --endpoint/,
    );
  });

  it('replay --commit with a short SHA resolves it on the track first, before anything is invoked', async () => {
    // Nothing listens on port 1: an invocation would fail with a different error.
    const result = await lightkeeper([
      'replay',
      'gt/app',
      '-n',
      'team',
      '--commit',
      'abc1234',
      '--function',
      'f',
      '--endpoint',
      'http://127.0.0.1:1',
    ]);
    expect(result.code).toBe(2);
    expectTwoLines(
      result,
      /^lightkeeper: no kubeconfig: KUBECONFIG is not set and .*\/\.kube\/config does not exist$/,
      /^ {2}set KUBECONFIG to a kubeconfig file/,
    );
  });

  it('a usage error exits 2; --debug shows the stack', async () => {
    const usage = await lightkeeper(['reconcile']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^error: missing required argument 'track'/);
    const debug = await lightkeeper(['reconcile', 'gt/x', '--debug']);
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/a GitTrack needs a namespace[\s\S]*\n\s+at parseTrackArg /);
  });

  it('--version prints the version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await lightkeeper([flag]);
      expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});
