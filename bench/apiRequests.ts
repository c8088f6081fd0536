// The API server's own count of the requests it served (apiserver_request_total, read with
// kubectl get --raw /metrics), summed by verb and resource: where a run's API-server CPU went,
// the apply's writes and reads set apart from the controllers' (ReplicaSets, Pods, events).
import { execFileSync } from 'node:child_process';
import type { ControlPlane } from '../lib/controlplane/controlPlane';

export type RequestCounts = Record<string, number>;

const line = /^apiserver_request_total\{([^}]*)\} ([0-9.e+]+)$/;
const label = /(\w+)="([^"]*)"/g;

/** `<VERB> <resource>[/<subresource>][ (dry run)]` → requests served so far. */
export function parseRequestCounts(metrics: string): RequestCounts {
  const counts: RequestCounts = {};
  for (const l of metrics.split('\n')) {
    const m = line.exec(l);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[1] ?? '').matchAll(label)].map((x) => [x[1], x[2]]));
    if (!labels.resource) continue;
    const key = `${labels.verb} ${labels.resource}${labels.subresource ? `/${labels.subresource}` : ''}${
      labels.dry_run ? ' (dry run)' : ''
    }`;
    counts[key] = (counts[key] ?? 0) + Number(m[2]);
  }
  return counts;
}

export function readRequestCounts(plane: ControlPlane): RequestCounts {
  const text = execFileSync(plane.kubectl, ['--kubeconfig', plane.kubeconfig, 'get', '--raw', '/metrics'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return parseRequestCounts(text);
}

/** The requests served between two readings, largest first, those of at least `min`. */
export function requestsBetween(before: RequestCounts, after: RequestCounts, min = 1): RequestCounts {
  return Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([, v]) => v >= min)
      .sort((a, b) => b[1] - a[1]),
  );
}
