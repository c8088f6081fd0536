// The three functions served by serverless-offline (through serverless-esbuild, as deployed),
// on ephemeral loopback ports, for `lightkeeper start`, the e2e tests and the webhook benchmark.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KUSTOMIZE_BIN_ENV, kustomizeBinary } from '../kustomize/kustomizeBinary';

export interface OfflineOptions {
  /** Path of the reconcile function's kubeconfig. */
  kubeconfig: string;
  /**
   * Path of the webhook's own kubeconfig (see `provisionWebhookIdentity`): an identity that may only
   * read tracks. The webhook never uses `kubeconfig`.
   */
  webhookKubeconfig: string;
  /**
   * Path of the sweep's own kubeconfig (see `provisionSweepIdentity`): an identity that may only
   * read tracks. The sweep never uses `kubeconfig`; without this it fails, naming SWEEP_KUBECONFIG.
   */
  sweepKubeconfig?: string | undefined;
  webhookSecret: string;
  /** Extra environment for the functions (serverless-offline runs with --localEnvironment). */
  env?: Record<string, string>;
  /** Default 180 s: the first start bundles the functions. */
  readyTimeoutMs?: number;
  /**
   * Enforce the functions' timeouts (default false). serverless-offline counts a cold worker's import
   * of the bundle against the timeout, and on this shared 2-core machine several concurrent cold
   * starts can exceed the webhook's 10 s — which says nothing about Lambda; the benchmark measures
   * the real latencies.
   */
  enforceTimeouts?: boolean;
  /** Stops waiting for readiness (and stops serverless-offline) when aborted. */
  signal?: AbortSignal;
  /** Called with everything serverless-offline and the functions print, as it arrives. */
  onOutput?: (text: string) => void;
}

export interface OfflineStack {
  webhookUrl: string;
  /** serverless-offline's Lambda Invoke endpoint. */
  lambdaEndpoint: string;
  functionName: (fn: 'webhook' | 'reconcile' | 'sweep') => string;
  /** Everything serverless-offline and the functions printed, in order. */
  output: () => string;
  /** How many invocations of `fn` have finished so far. */
  finished: (fn: 'webhook' | 'reconcile' | 'sweep') => number;
  /** Settles when the serverless-offline process exits, for whatever reason. */
  exited: Promise<void>;
  /** serverless-offline's process: the functions run in its worker threads. */
  pid: number | undefined;
  stop: () => Promise<void>;
}

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'node_modules', 'serverless', 'bin', 'serverless.js');

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export async function startServerlessOffline(options: OfflineOptions): Promise<OfflineStack> {
  const [httpPort, lambdaPort] = [await freePort(), await freePort()];
  // Its own build output, removed at stop: `npm run package` rebuilds and deletes `.esbuild/`, and
  // another stack may be serving from the same checkout. serverless-esbuild wants it relative.
  const workDir = join('.esbuild-offline', `${process.pid}-${randomBytes(4).toString('hex')}`);
  const lambdaEndpoint = `http://127.0.0.1:${lambdaPort}`;
  // serverless-offline loads no layers: the functions use the locally built kustomize engine.
  const kustomize = await kustomizeBinary();
  const child = spawn(
    process.execPath,
    [
      ...[cli, 'offline', 'start', '--host', '127.0.0.1', '--localEnvironment'],
      ...['--httpPort', String(httpPort), '--lambdaPort', String(lambdaPort)],
      ...(options.enforceTimeouts ? [] : ['--noTimeout']),
    ],
    {
      cwd: root,
      // Its own process group, so stop() also ends the worker threads' helpers and esbuild.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        KUBECONFIG: options.kubeconfig,
        WEBHOOK_KUBECONFIG: options.webhookKubeconfig,
        SWEEP_KUBECONFIG: options.sweepKubeconfig ?? '',
        WEBHOOK_SECRET: options.webhookSecret,
        LIGHTKEEPER_LAMBDA_ENDPOINT: lambdaEndpoint,
        LIGHTKEEPER_SWEEP_SCHEDULE: 'false',
        [KUSTOMIZE_BIN_ENV]: kustomize,
        LIGHTKEEPER_ESBUILD_DIR: workDir,
        // Stack traces that name our source files, locally only (never in the deployed zips).
        LIGHTKEEPER_SOURCEMAPS: 'true',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        SLS_TELEMETRY_DISABLED: '1',
        FORCE_COLOR: '0',
        ...options.env,
      },
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    options.onOutput?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stack: OfflineStack = {
    webhookUrl: `http://127.0.0.1:${httpPort}/webhook`,
    lambdaEndpoint,
    functionName: (fn) => `lightkeeper-dev-${fn}`,
    output: () => output,
    finished: (fn) => output.split(`(λ: ${fn}) RequestId:`).length - 1,
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
    pid: child.pid,
    stop: async () => {
      await stop(child);
      rmSync(join(root, workDir), { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
  while (!/Server ready: http:\/\/127\.0\.0\.1:\d+/.test(output)) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`serverless-offline exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    if (options.signal?.aborted) {
      await stack.stop();
      throw options.signal.reason;
    }
    if (Date.now() > deadline) {
      await stack.stop();
      throw new Error(
        `serverless-offline not ready after ${options.readyTimeoutMs ?? 180_000} ms:\n${output}`,
      );
    }
    await sleep(100);
  }
  return stack;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, 'exit');
  const group = -child.pid;
  try {
    process.kill(group, 'SIGTERM');
  } catch {
    return;
  }
  const timeout = sleep(10_000, undefined, { ref: false }).then(() => 'timeout' as const);
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    try {
      process.kill(group, 'SIGKILL');
    } catch {}
    await exited;
  }
}
