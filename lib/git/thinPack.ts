// isomorphic-git leaves `thin-pack` out of the capabilities its fetch asks for (it does not complete
// thin packs, which canonical git needs). Without it, git's upload-pack answers a depth-1 fetch
// with every object of the new commit's tree, even when the clone holds all but one file of it and
// says so with a `have`: each push to a 50,000-file repository transferred, indexed and stored the
// whole tree again. lightkeeper's clone needs no completed pack: it stores packs as they arrive and
// reads a REF_DELTA's base from its other packs (objectStore.ts, indexPack.ts), as git's `fetch`
// does before it completes them. So a fetch asks for thin packs when the server offers them.
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';

const THIN_PACK = 'thin-pack';
/** The capabilities ride on the first ref line of the advertisement, within its first bytes. */
const ADVERTISEMENT_SCAN_BYTES = 64 * 1024;

/**
 * An HttpClient for one fetch that adds `thin-pack` to the upload-pack request's capabilities,
 * when the advertisement this client read before offered it. Anything it does not recognise is
 * sent as it was.
 */
export function askingThinPacks(inner: HttpClient): HttpClient {
  let offered = false;
  return {
    request: async (request) => {
      if (isUploadPackRequest(request)) {
        const body = offered ? withThinPack(request.body) : undefined;
        return inner.request(
          body ? { ...request, body: body as unknown as GitHttpRequest['body'] } : request,
        );
      }
      const response = await inner.request(request);
      if (!isAdvertisement(request) || response.body === undefined) return response;
      return {
        ...response,
        body: scanned(response.body, (caps) => {
          offered = caps.includes(THIN_PACK);
        }),
      } satisfies GitHttpResponse;
    },
  };
}

const isAdvertisement = (request: GitHttpRequest) =>
  (request.method ?? 'GET') === 'GET' && /\/info\/refs\?service=git-upload-pack$/.test(request.url);

const isUploadPackRequest = (request: GitHttpRequest) =>
  request.method === 'POST' && request.url.endsWith('/git-upload-pack');

/** The response body, passed through unchanged, with the capabilities it advertises handed to `found`. */
async function* scanned(
  body: AsyncIterableIterator<Uint8Array>,
  found: (capabilities: string[]) => void,
): AsyncIterableIterator<Uint8Array> {
  let head = Buffer.alloc(0);
  let done = false;
  for await (const chunk of body) {
    if (!done) {
      head = Buffer.concat([head, chunk]);
      const capabilities = advertisedCapabilities(head);
      if (capabilities !== undefined || head.length >= ADVERTISEMENT_SCAN_BYTES) {
        done = true;
        found(capabilities ?? []);
      }
    }
    yield chunk;
  }
}

/**
 * The capabilities of a smart-HTTP advertisement (pure): the words after the NUL of its first ref
 * line, up to its end. Undefined while that line has not arrived whole.
 */
export function advertisedCapabilities(head: Buffer): string[] | undefined {
  const nul = head.indexOf(0);
  if (nul < 0) return undefined;
  const end = head.indexOf(0x0a, nul);
  if (end < 0) return undefined;
  return head
    .toString('latin1', nul + 1, end)
    .split(' ')
    .filter(Boolean);
}

/**
 * The upload-pack request `body` (isomorphic-git sends it as one array of buffers) with `thin-pack`
 * added to its first line's capabilities (pure). Undefined when the body is not of that shape, does
 * not start with a `want` line, or asks for thin packs already.
 */
export function withThinPack(body: unknown): Uint8Array[] | undefined {
  if (!Array.isArray(body) || !body.every((part) => part instanceof Uint8Array)) return undefined;
  const request = Buffer.concat(body as Uint8Array[]);
  const length = Number.parseInt(request.toString('latin1', 0, 4), 16);
  if (!/^[0-9a-f]{4}$/.test(request.toString('latin1', 0, 4)) || length < 5 || length > request.length)
    return undefined;
  const line = request.toString('latin1', 4, length);
  if (!line.startsWith('want ') || !line.endsWith('\n')) return undefined;
  const words = line.slice(0, -1).split(' ');
  if (words.length < 3 || words.includes(THIN_PACK)) return undefined;
  const rewritten = `${line.slice(0, -1)} ${THIN_PACK}\n`;
  const header = (rewritten.length + 4).toString(16).padStart(4, '0');
  return [Buffer.concat([Buffer.from(header + rewritten, 'latin1'), request.subarray(length)])];
}
