import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { WaitTimeoutError } from '../errors';

export interface TlsMaterial {
  ca: string;
  cert: string;
  key: string;
}

/** Polls `url` until it answers 200, or until `timeoutMs`; `alive` aborts early when the server died. */
export async function waitForHttpOk(
  url: string,
  options: {
    tls?: TlsMaterial;
    timeoutMs: number;
    what: string;
    alive?: () => boolean;
    diagnose?: () => string;
  },
): Promise<void> {
  const dispatcher = options.tls ? new Agent({ connect: options.tls }) : undefined;
  const deadline = Date.now() + options.timeoutMs;
  let last = 'no answer';
  try {
    while (Date.now() < deadline) {
      if (options.alive && !options.alive()) {
        throw new WaitTimeoutError(`${options.what} exited while starting:\n${options.diagnose?.() ?? ''}`, {
          subject: options.what,
        });
      }
      try {
        const res = await request(url, { dispatcher, headersTimeout: 5_000, bodyTimeout: 5_000 });
        const body = await res.body.text();
        if (res.statusCode === 200) return;
        last = `HTTP ${res.statusCode}: ${body.slice(0, 300)}`;
      } catch (e) {
        last = (e as Error).message;
      }
      await sleep(200);
    }
    throw new WaitTimeoutError(
      `${options.what} not ready after ${options.timeoutMs} ms (${last})\n${options.diagnose?.() ?? ''}`,
      { subject: options.what },
    );
  } finally {
    await dispatcher?.close();
  }
}
