// A Lambda Invoke endpoint on loopback where every invocation of the reconcile function is a cold
// start: a fresh Node process that imports the packaged bundle, with an empty /tmp (so an empty
// clone cache). The webhook (under serverless-offline) is pointed here with LIGHTKEEPER_LAMBDA_ENDPOINT.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ColdInvocation } from './coldReconcileChild';
import { reconcileNodeArgs } from './lambdaNodeArgs';

export interface Invocation {
  /** Epoch ms the Invoke request arrived. */
  receivedAt: number;
  event: unknown;
  /** Settles with what the process measured once it exits. */
  done: Promise<ColdInvocation>;
}

export interface ColdLambda {
  endpoint: string;
  invocations: Invocation[];
  close: () => Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

export async function startColdLambda(options: {
  /** The packaged reconcile function (`functions/reconcile.mjs` of its zip). */
  bundle: string;
  /** The bundled coldReconcileChild. */
  child: string;
  env: Record<string, string>;
}): Promise<ColdLambda> {
  const invocations: Invocation[] = [];
  const run = (eventJson: string): Promise<ColdInvocation> => {
    const tmp = mkdtempSync(join(tmpdir(), 'lk-bench-lambda-tmp-'));
    return new Promise<ColdInvocation>((resolve, reject) => {
      // Started as Lambda's runtime starts the function: V8's heap sized by its memory.
      const child = spawn(
        process.execPath,
        [...reconcileNodeArgs(), options.child, options.bundle, eventJson],
        {
          env: { ...process.env, ...options.env, TMPDIR: tmp },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => {
        rmSync(tmp, { recursive: true, force: true });
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          resolve(JSON.parse(line) as ColdInvocation);
        } catch {
          reject(new Error(`cold reconcile exited with ${code}:\n${(stdout + stderr).slice(-4000)}`));
        }
      });
    });
  };
  const server = createServer((req, res) => {
    const receivedAt = Date.now();
    void body(req).then((text) => {
      if (req.method !== 'POST' || !/\/functions\/[^/]+\/invocations$/.test(req.url ?? '')) {
        res.writeHead(404).end();
        return;
      }
      // InvocationType Event: accepted at once, run in the background, as Lambda does.
      res.writeHead(202, { 'content-type': 'application/json' }).end();
      invocations.push({ receivedAt, event: JSON.parse(text), done: run(text) });
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    invocations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
