// CPU seconds spent by each side of a measurement, from /proc (Linux): on a small shared machine
// the question behind every timing is whose CPU the time went to.
import { readFileSync } from 'node:fs';

const ticksPerSecond = 100;

/** utime+stime (fields 14, 15) and the reaped children's cutime+cstime (16, 17), in ms. */
function stat(pid: number | 'self'): { own: number; children: number } {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: count fields after it.
    const fields = text
      .slice(text.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const ms = (i: number) => ((fields[i - 3] ?? 0) * 1000) / ticksPerSecond;
    return { own: ms(14) + ms(15), children: ms(16) + ms(17) };
  } catch {
    return { own: 0, children: 0 };
  }
}

export type CpuSample = Record<string, number>;

/** CPU ms so far of the named processes, plus `client`: every child process this one has reaped. */
export function sampleCpu(pids: Record<string, number | undefined>): CpuSample {
  const sample: CpuSample = { client: stat('self').children };
  for (const [name, pid] of Object.entries(pids)) if (pid) sample[name] = stat(pid).own;
  return sample;
}

export function cpuBetween(before: CpuSample, after: CpuSample): CpuSample {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
}
