import { describe, expect, it } from 'vitest';
import { cachedFileBytes, type ManifestFile, type ParseCache, parseManifests } from '../../../lib/manifests';
import { parseCacheForRead, processParseCache } from '../../../lib/reconcile/processParseCache';

const configMap = (name: string, pad = 0) =>
  new TextEncoder().encode(
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: a\ndata:\n  k: "${'x'.repeat(pad)}"\n`,
  );
const file = (name: string, oid: string, pad = 0): ManifestFile => ({
  path: `${name}.yaml`,
  oid,
  content: configMap(name, pad),
});
/** As readManifestFiles returns a file whose parse the cache holds. */
const unread = (f: ManifestFile): ManifestFile => ({ ...f, content: new Uint8Array(0), unread: true });
const roomy = { maxFiles: 100, maxReadBytes: 1 << 20 };

function cacheHolding(files: ManifestFile[]): ParseCache {
  const cache: ParseCache = new Map();
  parseManifests(files, { cache });
  return cache;
}

describe('parseCacheForRead', () => {
  it("keeps another commit's parses while both fit one read's limits", () => {
    const cache = cacheHolding([file('old', 'o1')]);
    const read = [file('new', 'n1')];
    expect(parseCacheForRead(cache, read, roomy)).toBe(cache);
  });

  it('keeps only what the commit reuses once the files held and new would pass maxFiles', () => {
    const reused = file('same', 's1');
    const cache = cacheHolding([reused, file('gone-1', 'g1'), file('gone-2', 'g2')]);
    const read = [unread(reused), file('new', 'n1')];
    const kept = parseCacheForRead(cache, read, { maxFiles: 3, maxReadBytes: 1 << 20 });
    expect(kept).not.toBe(cache);
    expect([...kept.keys()]).toHaveLength(1);
    expect(cachedFileBytes(kept, 'same.yaml', 's1')).toBe(reused.content.length);
    // The unread file still parses from the kept cache; the old map is left to whoever reads it.
    expect(parseManifests(read, { cache: kept }).manifests.map((m) => m.ref.name)).toEqual(['same', 'new']);
    expect(cache.size).toBe(3);
  });

  it('keeps only what the commit reuses once the bytes held and new would pass maxReadBytes', () => {
    const cache = cacheHolding([file('big-old', 'b1', 4000)]);
    const read = [file('big-new', 'b2', 4000)];
    const kept = parseCacheForRead(cache, read, { maxFiles: 100, maxReadBytes: 6000 });
    expect(kept.size).toBe(0);
  });

  it("becomes the process's cache when it replaces the process's cache", () => {
    const cache = processParseCache();
    parseManifests([file('p-old', 'po1')], { cache });
    const kept = parseCacheForRead(cache, [file('p-new', 'pn1')], { maxFiles: 1, maxReadBytes: 1 << 20 });
    expect(processParseCache()).toBe(kept);
  });
});
