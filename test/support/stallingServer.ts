import { createServer, type Socket } from 'node:net';

export interface StallingServer {
  /** `http://127.0.0.1:<port>`: every request to it is accepted and never answered. */
  url: string;
  /** Connections accepted so far. */
  accepted: () => number;
  close: () => Promise<void>;
}

/**
 * A git server that stalls: it accepts every connection and sends nothing (until `resetAfterMs`,
 * when set: then it resets the connection, as a fetch deadline would end it). Bounded: it closes
 * itself and every connection after `maxMs` (default 10 min), and its timers keep no process alive.
 */
export async function startStallingServer(maxMs = 600_000, resetAfterMs?: number): Promise<StallingServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (resetAfterMs !== undefined) setTimeout(() => socket.resetAndDestroy(), resetAfterMs).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  const timer = setTimeout(close, maxMs);
  timer.unref();
  return { url: `http://127.0.0.1:${port}`, accepted: () => accepted, close };
}

/** A loopback URL nothing listens on: every fetch from it is refused at once. */
export async function refusedUrl(path: string): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}
