// A TCP proxy on 127.0.0.1 in front of the API server (TLS passes through untouched) that can be
// broken: every open connection is reset and every new one refused, as when a client loses its
// network to the control plane. Only the clients pointed at it see the outage; the API server and
// everyone else go on.
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

export interface BreakableProxy {
  /** A copy of `kubeconfig` (written into `dir`) whose clusters are reached through this proxy. */
  kubeconfigIn(dir: string): string;
  /** Resets every connection and refuses new ones from now on. */
  break(): void;
  readonly broken: boolean;
  close(): Promise<void>;
}

export async function startBreakableProxy(kubeconfig: string): Promise<BreakableProxy> {
  const config = parse(readFileSync(kubeconfig, 'utf8')) as {
    clusters: Array<{ cluster: { server: string } }>;
  };
  const upstream = new URL(config.clusters[0]?.cluster.server ?? '');
  const sockets = new Set<Socket>();
  let broken = false;
  const server = createServer((inbound) => {
    if (broken) {
      inbound.resetAndDestroy();
      return;
    }
    const outbound = connect(Number(upstream.port), upstream.hostname);
    for (const [a, b] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kubeconfigIn(dir) {
      for (const c of config.clusters) c.cluster.server = `https://127.0.0.1:${port}`;
      const path = join(dir, 'through-proxy.kubeconfig');
      writeFileSync(path, stringify(config));
      return path;
    },
    break() {
      broken = true;
      for (const s of sockets) s.resetAndDestroy();
    },
    get broken() {
      return broken;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
