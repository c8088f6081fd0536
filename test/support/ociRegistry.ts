// An OCI registry served on loopback, in memory: the distribution API's pull side (manifests and
// blobs by tag or digest, tags/list) and its monolithic push (what `helm push` sends), enough for
// Helm's own registry client at both ends.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OciRegistry {
  /** `127.0.0.1:PORT`, as `oci://` references and allow-lists name it. */
  host: string;
  /** `METHOD path` of each request, in order. */
  requests: string[];
  close(): Promise<void>;
}

const digestOf = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

const body = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export async function serveOciRegistry(): Promise<OciRegistry> {
  const blobs = new Map<string, Buffer>();
  const manifests = new Map<string, { data: Buffer; type: string }>(); // `name@digest` and `name:tag`
  const uploads = new Map<string, Buffer[]>();
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}`);
    const data = await body(req);
    if (url.pathname === '/v2/' || url.pathname === '/v2') return res.writeHead(200).end('{}');
    const m = /^\/v2\/(.+)\/(manifests|blobs|tags)\/(.*)$/.exec(url.pathname);
    if (!m) return res.writeHead(404).end();
    const [, name, what, rest] = m as unknown as [string, string, string, string];
    if (what === 'tags') {
      const tags = [...manifests.keys()]
        .filter((k) => k.startsWith(`${name}:`))
        .map((k) => k.slice(name.length + 1));
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, tags }));
    }
    if (what === 'blobs' && rest.startsWith('uploads')) {
      const id = rest.split('/')[1];
      if (req.method === 'POST') {
        const upload = randomUUID();
        uploads.set(upload, []);
        return res
          .writeHead(202, { location: `/v2/${name}/blobs/uploads/${upload}`, 'content-length': '0' })
          .end();
      }
      const parts = id === undefined ? undefined : uploads.get(id);
      if (parts === undefined) return res.writeHead(404).end();
      parts.push(data);
      if (req.method === 'PATCH')
        return res
          .writeHead(202, { location: `/v2/${name}/blobs/uploads/${id}`, 'content-length': '0' })
          .end();
      const blob = Buffer.concat(parts);
      const digest = url.searchParams.get('digest');
      if (digest !== digestOf(blob)) return res.writeHead(400).end('digest mismatch');
      blobs.set(digest, blob);
      return res
        .writeHead(201, { location: `/v2/${name}/blobs/${digest}`, 'docker-content-digest': digest })
        .end();
    }
    if (what === 'blobs') {
      const blob = blobs.get(rest);
      if (blob === undefined) return res.writeHead(404).end();
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': blob.length,
        'docker-content-digest': rest,
      });
      return res.end(req.method === 'HEAD' ? undefined : blob);
    }
    // manifests
    if (req.method === 'PUT') {
      const digest = digestOf(data);
      const entry = {
        data,
        type: req.headers['content-type'] ?? 'application/vnd.oci.image.manifest.v1+json',
      };
      manifests.set(`${name}@${digest}`, entry);
      if (!rest.startsWith('sha256:')) manifests.set(`${name}:${rest}`, entry);
      return res
        .writeHead(201, { location: `/v2/${name}/manifests/${digest}`, 'docker-content-digest': digest })
        .end();
    }
    const entry = manifests.get(rest.startsWith('sha256:') ? `${name}@${rest}` : `${name}:${rest}`);
    if (entry === undefined) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': entry.type,
      'content-length': entry.data.length,
      'docker-content-digest': digestOf(entry.data),
    });
    return res.end(req.method === 'HEAD' ? undefined : entry.data);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
