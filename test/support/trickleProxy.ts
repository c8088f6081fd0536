// A real HTTP proxy on 127.0.0.1 in front of a git server that forwards some answers a few bytes at a
// time: a stalling tenant git server. Bounded: it sends at most `maxChunks` chunks, then drops the
// connection, so nothing it starts outlives the test even when the client under test never gives up.
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TrickleOptions {
  /** Which requests to trickle (the rest are forwarded as they come). */
  match: (req: IncomingMessage) => boolean;
  /** Bytes per chunk. */
  chunkBytes: number;
  /** Time between chunks. */
  intervalMs: number;
  /** Chunks sent before the proxy drops the connection. */
  maxChunks: number;
  /** Silence before the headers and first chunk (default none). */
  firstDelayMs?: number;
}

export interface TrickleProxy {
  url(repoName: string): string;
  /** Requests trickled so far. */
  readonly trickled: string[];
  close(): Promise<void>;
}

export async function startTrickleProxy(upstream: string, options: TrickleOptions): Promise<TrickleProxy> {
  const target = new URL(upstream);
  const trickled: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      async (answer) => {
        if (!options.match(req)) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        trickled.push(`${req.method} ${req.url}`);
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks);
        const { 'content-length': _, ...headers } = answer.headers;
        let at = 0;
        let sent = 0;
        const tick = () => {
          if (res.destroyed) return;
          if (!res.headersSent) res.writeHead(answer.statusCode ?? 502, headers);
          if (at >= body.length) {
            res.end();
            return;
          }
          if (sent >= options.maxChunks) {
            res.destroy();
            return;
          }
          res.write(body.subarray(at, at + options.chunkBytes));
          at += options.chunkBytes;
          sent++;
          const timer = setTimeout(() => {
            timers.delete(timer);
            tick();
          }, options.intervalMs);
          timers.add(timer);
        };
        const first = setTimeout(() => {
          timers.delete(first);
          tick();
        }, options.firstDelayMs ?? 0);
        timers.add(first);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (repoName) => `http://127.0.0.1:${port}/${repoName}`,
    trickled,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
