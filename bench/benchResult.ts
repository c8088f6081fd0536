// The figures of one `npm run bench`, as written by `--json FILE` (seconds, MB, counts; null where a
// figure could not be measured, with the reason under `notes` keyed by the figure's path).

type Figure = number | null;

/** One point of the scale curve (`--scale`): lightkeeper alone on a repository of `objects` (seconds, MB). */
export interface ScaleRow {
  objects: number;
  firstApply: Figure;
  noop: Figure;
  oneChange: Figure;
  peakRssMb: Figure;
  /** Beyond the keys: object writes of the no-op (0 expected). */
  noopWrites: Figure;
}

export interface BenchResult {
  objects: number;
  firstApply: { lightkeeper: Figure; flux: Figure; kubectl: Figure; limit: Figure };
  noop: { lightkeeper: Figure; flux: Figure; lightkeeperWrites: Figure };
  oneChange: { lightkeeper: Figure; flux: Figure };
  pushToApplied: {
    total: Figure;
    webhook: Figure;
    init: Figure;
    fetch: Figure;
    parse: Figure;
    apply: Figure;
    /** Beyond the keys: the rest of the breakdown (seconds). */
    invoke: Figure;
    prepare: Figure;
    list: Figure;
    status: Figure;
  };
  clone: { cold: Figure; warm: Figure; git: Figure };
  /** Beyond the issue 9 keys (issue 11): a kustomization over the repository, seconds. */
  kustomizeRender: { total: Figure; render: Figure; renderCpu: Figure; kubectlKustomizeCpu: Figure };
  peakRssMb: Figure;
  coldStartMs: { webhook: Figure; reconcile: Figure; sweep: Figure; node: Figure };
  notes: Record<string, string>;
  /** Beyond the keys. */
  rssPer1000Mb: Figure;
  /** Issue 23: the scale curve, one row per `--scale` size, in the order measured. */
  scale: ScaleRow[];
  /**
   * Issue 23: the first apply through the reconcile function under serverless-offline, whole and
   * sharded (seconds; the shards' count and size, and the settings they were cut with).
   */
  sharded: {
    whole: Figure;
    sharded: Figure;
    shards: Figure;
    perShard: Figure;
    threshold: Figure;
    fanout: Figure;
  };
  run: {
    date: string;
    machine: string;
    cpus: number;
    /** Load averages (1, 5, 15 min) when the run started and when it ended. */
    loadAtStart: number[];
    load: number[];
    concurrency: number;
    fluxEngine: string;
    order: string[];
  };
  details: Record<string, unknown>;
}

export function emptyResult(objects: number): BenchResult {
  return {
    objects,
    firstApply: { lightkeeper: null, flux: null, kubectl: null, limit: null },
    noop: { lightkeeper: null, flux: null, lightkeeperWrites: null },
    oneChange: { lightkeeper: null, flux: null },
    pushToApplied: {
      total: null,
      webhook: null,
      init: null,
      fetch: null,
      parse: null,
      apply: null,
      invoke: null,
      prepare: null,
      list: null,
      status: null,
    },
    clone: { cold: null, warm: null, git: null },
    kustomizeRender: { total: null, render: null, renderCpu: null, kubectlKustomizeCpu: null },
    peakRssMb: null,
    coldStartMs: { webhook: null, reconcile: null, sweep: null, node: null },
    notes: {},
    rssPer1000Mb: null,
    scale: [],
    sharded: { whole: null, sharded: null, shards: null, perShard: null, threshold: null, fanout: null },
    run: {
      date: '',
      machine: '',
      cpus: 0,
      loadAtStart: [],
      load: [],
      concurrency: 0,
      fluxEngine: '',
      order: [],
    },
    details: {},
  };
}

/** The targets (issue 9's, raised by issue 23 for 2,000 objects). */
export const targets = {
  /** lightkeeper's first apply at least this fraction of kubectl's speed (kubectl time / lightkeeper time). */
  firstApplyVsKubectl: 0.8,
  /** ... and this many times faster than Flux's engine (issue 18: with every changed object validated by a dry-run). */
  firstApplyVsFlux: 5,
  /** ... and at least this fraction of the limit's speed. */
  firstApplyVsLimit: 0.45,
  noopVsFlux: 100,
  oneChangeVsFlux: 50,
  pushToAppliedS: 1,
  cloneColdVsGit: 2,
  cloneWarmVsCold: 0.5,
  peakRssMb: 300,
  coldStartMs: 150,
  /** The sharded first apply at most this many times the whole one's time (on 2 cores: no slower). */
  shardedVsWhole: 1,
} as const;

export const seconds = (ms: number) => Math.round(ms) / 1000;
