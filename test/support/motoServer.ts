import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeLoopbackPort } from '../../lib/controlplane/ports';

const ensureScript = join(import.meta.dirname, '..', '..', 'infra', 'ensure-moto.mjs');

/**
 * The moto virtual environment, installed first when the cache lacks it (as the control plane is
 * built); the install's progress shows on stderr.
 */
export function ensureMoto(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ensureScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const venv = out.trim().split('\n').pop();
      if (code === 0 && venv) resolve(venv);
      else reject(new Error(`infra/ensure-moto.mjs failed (exit ${code}); see the output above`));
    });
  });
}

// moto picks the service of a request from its Authorization header's credential scope; a presigned
// SigV4 URL carries that scope in its X-Amz-Credential query parameter instead, which moto's router
// does not read (it would send the request to S3). The shim lets the router read it there too, so a
// presigned STS GetCallerIdentity reaches moto's STS as it reaches AWS's. Nothing else is changed.
const bootstrap = [
  'import os, sys, threading, urllib.parse',
  'threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()',
  'from moto.moto_server import werkzeug_app as w',
  'infer = w.DomainDispatcherApplication.infer_service_region_host',
  'def presigned(self, environ, path):',
  '    credential = urllib.parse.parse_qs(environ.get("QUERY_STRING", "")).get("X-Amz-Credential")',
  '    if credential and not environ.get("HTTP_AUTHORIZATION"):',
  '        environ = dict(environ, HTTP_AUTHORIZATION="AWS4-HMAC-SHA256 Credential=" + credential[0] + ", SignedHeaders=host")',
  '    return infer(self, environ, path)',
  'w.DomainDispatcherApplication.infer_service_region_host = presigned',
  'from moto.server import main',
  'main(sys.argv[1:])',
].join('\n');

export interface MotoServer {
  /** `http://127.0.0.1:<port>`, for AWS_ENDPOINT_URL. */
  endpoint: string;
  /** The virtual environment moto runs from (its Python also has botocore). */
  venv: string;
  /** The environment that points the AWS SDK (and the STS presigner) at this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * moto's server on an ephemeral loopback port, answering every AWS API the tests use (SSM, EKS,
 * STS). One per test file: `const moto = await startMoto()` in beforeAll, `moto.stop()` in afterAll.
 */
export async function startMoto(): Promise<MotoServer> {
  const venv = await ensureMoto();
  const port = await freeLoopbackPort();
  const endpoint = `http://127.0.0.1:${port}`;
  // moto exits when its stdin closes, so a test process that dies never leaves it running.
  const child = spawn(join(venv, 'bin', 'python'), ['-c', bootstrap, '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const stop = () => stopChild(child);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${endpoint}/moto-api/`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`moto_server did not answer on ${endpoint} within 30 s:\n${log}`);
    }
    await sleep(100);
  }
  return {
    endpoint,
    venv,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_SESSION_TOKEN: 'testing-session',
    },
    stop,
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const killed = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
  if (!killed) {
    child.kill('SIGKILL');
    await exited;
  }
}
