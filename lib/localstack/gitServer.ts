// A real git smart-HTTP server on loopback, for `lightkeeper start` and the tests: Node's http server
// in front of `git http-backend` (CGI).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface GitServerOptions {
  /** Require this token as the Basic password (any username) or as a Bearer token. */
  token?: string;
  /**
   * Require Basic credentials this accepts (e.g. `x-access-token` and a live GitHub App
   * installation token), checked on every request.
   */
  accept?: (username: string, password: string) => boolean;
  /** Let upload-pack serve any object by SHA (uploadpack.allowAnySHA1InWant). */
  allowAnySha?: boolean;
  /**
   * Refuse `want`s that are not advertised ref tips, like servers that do not allow fetching a
   * commit by SHA. Plain `git http-backend` allows any reachable commit over HTTP.
   */
  tipsOnly?: boolean;
}

export interface GitServerFaults {
  /** Cut the next upload-pack response off after this many body bytes, then drop the connection. */
  truncateNextUploadPack?: number;
}

export interface GitServer {
  /** Directory holding the served repositories. */
  readonly root: string;
  readonly faults: GitServerFaults;
  /** Every request path served so far, e.g. `GET /repo/info/refs`. */
  readonly requests: string[];
  url(repoName: string): string;
  close(): Promise<void>;
}

const backend = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');

export async function startGitServer(options: GitServerOptions = {}): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'lk-git-server-'));
  const faults: GitServerFaults = {};
  const requests: string[] = [];
  const config: Array<[string, string]> = options.allowAnySha
    ? [
        ['uploadpack.allowAnySHA1InWant', 'true'],
        ['uploadpack.allowReachableSHA1InWant', 'true'],
      ]
    : [];

  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const refused =
      (options.token !== undefined && !authorized(req, options.token)) ||
      (options.accept !== undefined && !accepted(req, options.accept));
    if (refused) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('authentication required\n');
      return;
    }
    serveCgi(req, res, { root, config, faults, tipsOnly: options.tipsOnly ?? false }).catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    root,
    faults,
    requests,
    url: (repoName) => `http://127.0.0.1:${port}/${repoName}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  if (header === `Bearer ${token}`) return true;
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

function accepted(req: IncomingMessage, accept: (username: string, password: string) => boolean): boolean {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && accept(decoded.slice(0, colon), decoded.slice(colon + 1));
}

interface CgiContext {
  root: string;
  config: Array<[string, string]>;
  faults: GitServerFaults;
  tipsOnly: boolean;
}

async function serveCgi(req: IncomingMessage, res: ServerResponse, ctx: CgiContext): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const isUploadPack = req.method === 'POST' && url.pathname.endsWith('/git-upload-pack');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PROJECT_ROOT: ctx.root,
    GIT_HTTP_EXPORT_ALL: '1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    REMOTE_USER: 'test',
    GIT_CONFIG_COUNT: String(ctx.config.length),
  };
  ctx.config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
  if (typeof req.headers['git-protocol'] === 'string') env.GIT_PROTOCOL = req.headers['git-protocol'];

  let body: Buffer | undefined;
  if (isUploadPack && ctx.tipsOnly) {
    body = Buffer.concat(await req.toArray());
    const plain = req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
    const refused = refusedWant(plain, ctx.root, env.PATH_INFO ?? '');
    if (refused) {
      res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-result' });
      res.end(pktLine(`ERR upload-pack: not our ref ${refused}`));
      return;
    }
  }

  const child = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.on('error', () => {});
  if (body) child.stdin.end(body);
  else req.pipe(child.stdin);
  res.on('close', () => child.kill());

  let truncateAt = isUploadPack ? ctx.faults.truncateNextUploadPack : undefined;
  if (truncateAt !== undefined) ctx.faults.truncateNextUploadPack = undefined;
  let head = Buffer.alloc(0);
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    let data = chunk;
    if (!res.headersSent) {
      head = Buffer.concat([head, data]);
      const end = headerEnd(head);
      if (!end) continue;
      writeCgiHead(res, head.subarray(0, end.at).toString('latin1'));
      data = head.subarray(end.at + end.length);
    }
    if (truncateAt !== undefined) {
      res.write(data.subarray(0, truncateAt));
      truncateAt -= Math.min(truncateAt, data.length);
      if (truncateAt === 0) {
        res.destroy();
        return;
      }
      continue;
    }
    res.write(data);
  }
  if (!res.headersSent) writeCgiHead(res, head.toString('latin1'));
  res.end();
}

function headerEnd(buffer: Buffer): { at: number; length: number } | undefined {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { at: crlf, length: 4 };
  return lf === -1 ? undefined : { at: lf, length: 2 };
}

function writeCgiHead(res: ServerResponse, head: string): void {
  let status = 200;
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
    else res.setHeader(name, value);
  }
  res.writeHead(status);
}

function pktLine(text: string): string {
  const payload = `${text}\n`;
  return (Buffer.byteLength(payload) + 4).toString(16).padStart(4, '0') + payload;
}

/** The first `want` in an upload-pack request that is not an advertised tip, if any. */
function refusedWant(request: Buffer, root: string, pathInfo: string): string | undefined {
  const repo = join(root, pathInfo.replace(/\/git-upload-pack$/, ''));
  const tips = new Set(
    execFileSync('git', ['-C', repo, 'for-each-ref', '--format=%(objectname) %(*objectname)'], {
      encoding: 'utf8',
    }).split(/\s+/),
  );
  tips.add(execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
  for (let at = 0; at + 4 <= request.length; ) {
    const length = Number.parseInt(request.subarray(at, at + 4).toString('latin1'), 16);
    if (!length) {
      at += 4;
      continue;
    }
    const line = request.subarray(at + 4, at + length).toString('utf8');
    const want = /^want ([0-9a-f]{40})/.exec(line)?.[1];
    if (want && !tips.has(want)) return want;
    at += length;
  }
  return undefined;
}
