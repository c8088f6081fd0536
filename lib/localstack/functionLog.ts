import { type TrackRef, trackLabel } from '../track/trackRef';

interface LogRecord {
  level?: string;
  message?: string;
  function?: string;
  track?: TrackRef;
  result?: string;
  /** Set when spec.dependsOn held the run back: nothing was fetched. */
  heldBack?: string;
  commit?: string;
  reference?: string;
  counts?: Record<string, number>;
  errors?: string[];
  after?: string;
  triggered?: string[];
  reason?: string;
}

/**
 * Turns the functions' structured logs (one JSON object per line, as CloudWatch gets them) into one
 * short line per delivery, reconcile or problem. Chunks may split lines, so a partial line waits.
 *
 * A function that fails before its logger exists (a bundle that cannot be loaded, an exception
 * middy does not catch) logs nothing of its own: serverless-offline reports it in `×` lines,
 * `× Unhandled exception in handler 'NAME'.` then the error, which become `NAME failed: error`.
 */
export function functionLogPrinter(print: (line: string) => void): (chunk: string) => void {
  let pending = '';
  let failing: string | undefined;
  let lastFailure = '';
  return (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const raw of lines) {
      const line = raw.trim();
      if (line.startsWith('× ')) {
        const text = line.slice(2);
        const handler = /^Unhandled exception in handler '([^']+)'/.exec(text)?.[1];
        if (handler) {
          failing = handler;
        } else if (!lastFailure.includes(text)) {
          lastFailure = failing ? `${failing} failed: ${text}` : `serverless-offline: ${text}`;
          failing = undefined;
          print(lastFailure);
        }
        continue;
      }
      const summary = summarize(line);
      if (summary) print(summary);
    }
  };
}

function summarize(line: string): string | undefined {
  if (!line.startsWith('{"level"')) return undefined;
  let r: LogRecord;
  try {
    r = JSON.parse(line) as LogRecord;
  } catch {
    return undefined;
  }
  if (r.message === 'reconciled' && r.track) {
    const t = r.track;
    const track = trackLabel(t);
    const c = r.counts ?? {};
    const errors = r.errors?.length ? `: ${r.errors.join('; ')}` : '';
    const at = r.commit
      ? `at ${r.commit.slice(0, 7)}`
      : r.result === 'Failed' && !r.heldBack
        ? `fetching ${r.reference ?? '(no reference)'}`
        : `(${r.reference ?? 'no reference'})`;
    return `reconciled ${track}: ${r.result} ${at} (${c.applied ?? 0} applied, ${c.inSync ?? 0} in sync, ${c.pruned ?? 0} pruned, ${c.failed ?? 0} failed, ${c.drifted ?? 0} drifted)${errors}`;
  }
  if (r.message === 'delivery accepted') {
    return `webhook: push of ${r.after?.slice(0, 7)} triggered ${r.triggered?.join(', ') || 'no track'}`;
  }
  if (r.level === 'WARN' || r.level === 'ERROR' || r.message === 'delivery ignored') {
    return `${r.function ?? 'function'}: ${r.message}${r.reason ? `: ${r.reason}` : ''}`;
  }
  return undefined;
}
