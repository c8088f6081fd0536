// V8 CPU profiles of single reconciles (--profile): where a lightkeeper process spends its CPU.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Runs `fn` under the V8 profiler and writes `<dir>/<name>.cpuprofile`; just runs it without a dir. */
export async function profiled<T>(dir: string | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** `yaml`, `lib/manifests/digest.ts`, or `(garbage collector)` and friends. */
function ownerOf(frame: ProfileNode['callFrame']): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1];
  if (pkg) return pkg;
  const own = /\/((?:lib|bench)\/.+)$/.exec(frame.url)?.[1];
  if (own) return own;
  if (frame.url.startsWith('node:')) return frame.url;
  return frame.functionName.startsWith('(') ? frame.functionName : '(other)';
}

/** Self time by owner (package or file) and the top functions, from a written profile. */
export function summarizeProfile(path: string, top = 12): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const us = profile.timeDeltas[i] ?? 0;
    if (!frame || frame.functionName === '(idle)') return;
    total += us;
    const owner = ownerOf(frame);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${owner}:${frame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  });
  const rank = (m: Map<string, number>) =>
    [...m]
      .sort(([, a], [, b]) => b - a)
      .slice(0, top)
      .map(
        ([k, us]) =>
          `    ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
      )
      .join('\n');
  return `  busy ${(total / 1000).toFixed(0)} ms; self time by package/file:\n${rank(owners)}\n  by function:\n${rank(functions)}`;
}
