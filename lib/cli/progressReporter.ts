import type { ReconcilePhase } from '../reconcile/reconcileDeps';

/**
 * Progress on stderr: a line rewritten in place on a terminal; on a pipe or in CI, one line per
 * phase and one per tenth of the objects, so logs stay short.
 */
export function progressReporter(stream: NodeJS.WriteStream) {
  let lastTenth = -1;
  return (phase: ReconcilePhase | 'scan', done?: number, total?: number) => {
    const counted = total !== undefined && total > 0;
    if (stream.isTTY) {
      stream.write(`\r\x1b[K${phase}${counted ? ` ${done}/${total}` : ''}`);
      if (phase === 'status') stream.write('\r\x1b[K');
      return;
    }
    if (!counted) {
      stream.write(`[lightkeeper] ${phase}\n`);
      return;
    }
    const tenth = Math.floor(((done ?? 0) * 10) / total);
    if (done === 0 || tenth > lastTenth) {
      lastTenth = tenth;
      stream.write(`[lightkeeper] ${phase} ${done}/${total}\n`);
    }
  };
}
