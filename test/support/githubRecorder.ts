import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  at: number;
}

/** How the server answers one request; the default answers as GitHub does on success. */
export type Answer = { status: number; headers?: Record<string, string>; body: unknown };

/**
 * A loopback HTTP server that records every request and answers like the GitHub REST API does for
 * `POST /repos/{owner}/{repo}/statuses/{sha}` (201 and the created status). `answers` are used
 * first, one per request, in order.
 */
export async function startGitHubRecorder() {
  const requests: RecordedRequest[] = [];
  const answers: Answer[] = [];
  let nextId = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body, at: Date.now() });
      const planned = answers.shift();
      const answer: Answer =
        planned ??
        (req.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/statuses\/[0-9a-f]{40}$/.test(path)
          ? { status: 201, body: { id: nextId++, url: `http://github.test${path}`, ...body } }
          : { status: 404, body: { message: 'Not Found' } });
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Answers for the next requests, in order. */
    answer: (...next: Answer[]) => answers.push(...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type GitHubRecorder = Awaited<ReturnType<typeof startGitHubRecorder>>;

/** GitHub's answer when the primary rate limit is used up until `resetInSeconds` from now. */
export const rateLimited = (resetInSeconds: number): Answer => ({
  status: 403,
  headers: {
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + resetInSeconds),
  },
  body: { message: 'API rate limit exceeded for user ID 1.' },
});

/** GitHub's answer to too many writes in a short time: wait `retry-after` seconds. */
export const secondaryRateLimited = (retryAfterSeconds: number): Answer => ({
  status: 403,
  headers: { 'retry-after': String(retryAfterSeconds) },
  body: {
    message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  },
});
