import { describe, expect, it } from 'vitest';
import { cyclesOf, type ImportEdge, importGraph } from '../../support/importGraph';

// The shape of lib/ and functions/ as issue 20 wants it, measured from the import graph (no
// server). Each check fails on a NEW violation. What main had when this test was written is listed
// in the allow-lists below; issue 20's refactor removes those, and a listed violation that is gone
// fails too, so its entry is deleted and the lists only shrink until the targets hold outright.

/** Issue 20's targets. */
const maxCycles = 0;
const maxUpwardFolderPairs = 5;
const maxLibFileLines = 250;
/** "functions/*.ts under 60 lines". */
const maxFunctionFileLines = 59;

/**
 * lib/ folders from the ground floor up (a root file such as lib/errors.ts is its own floor): a file
 * may import from its own floor and the ones below. functions/ is the roof above them all.
 * Listed ahead of the code: track (what a track is, the ground floor of the engine's words) and plan
 * (partition, ignore rules and stages: what apply consumes).
 */
const layering = [
  'errors',
  'manifests',
  'kstatus',
  'kube',
  'git',
  'kustomize',
  'config',
  'track',
  'identity',
  'ownership',
  'eks',
  'controlplane',
  'lease',
  'pin',
  'ignore',
  'plan',
  'tracker',
  'health',
  'apply',
  'audit',
  'webhook',
  'depends',
  'reconcile',
  'diff',
  'tree',
  'migrate',
  'lambda',
  'observability',
  'github',
  'localstack',
  'cli',
] as const;
const roof = 'functions';

// The allow-lists: main at 2455767 (2 December 2026), less what h-apply fixed (its kstatus and
// tracker folders placed above).

/** Import cycles main had, each by its files; a cycle within one of them is excused. */
const knownFileCycles: string[][] = [
  // The engine and its dependency gate end each other's runs (finishReconcile).
  [
    'lib/depends/dependencyGate.ts',
    'lib/depends/withDependents.ts',
    'lib/reconcile/applyAndPrune.ts',
    'lib/reconcile/checkHealth.ts',
    'lib/reconcile/finishBroken.ts',
    'lib/reconcile/finishReconcile.ts',
    'lib/reconcile/reconcile.ts',
    'lib/reconcile/reportPin.ts',
    'lib/reconcile/trackEvents.ts',
  ],
  ['lib/git/indexedObjects.ts', 'lib/git/objectStore.ts'],
  ['lib/kube/kubeClient.ts', 'lib/kube/requestPolicy.ts', 'lib/kube/transportFailure.ts'],
];
/** Folder cycles main had, each by its folders; a cycle within one of them is excused. */
const knownFolderCycles: string[][] = [
  [
    'apply',
    'config',
    'depends',
    'eks',
    'git',
    'health',
    'identity',
    'ignore',
    'kube',
    'kustomize',
    'lambda',
    'lease',
    'ownership',
    'pin',
    'reconcile',
    'webhook',
  ],
  ['cli', 'localstack'],
];
/**
 * Imports against the layering main had, `from -> to`. lib/config holds both ground-floor parsers
 * (setting.ts, defaults.ts, deploymentModes.ts, imported by git, kube, kustomize and the engine)
 * and the per-function loaders (functionConfig.ts, reconcileConfig.ts, sweepConfig.ts,
 * webhookConfig.ts), which gather the settings of the floors above: no one floor fits both.
 */
const knownUpwardImports: string[] = [
  'lib/apply/applyObject.ts -> lib/reconcile/types.ts',
  'lib/apply/applyPlan.ts -> lib/reconcile/types.ts',
  'lib/apply/prune.ts -> lib/reconcile/types.ts',
  'lib/config/deploymentModes.ts -> lib/identity/serviceAccountUser.ts',
  'lib/config/functionConfig.ts -> lib/eks/eksKubeClient.ts',
  'lib/config/functionConfig.ts -> lib/lambda/functionSettings.ts',
  'lib/config/functionConfig.ts -> lib/lambda/lambdaClient.ts',
  'lib/config/leaseSettings.ts -> lib/lease/leaseTarget.ts',
  'lib/config/reconcileConfig.ts -> lib/lambda/functionSettings.ts',
  'lib/config/reconcileConfig.ts -> lib/lease/acquireTrackLease.ts',
  'lib/config/reconcileConfig.ts -> lib/reconcile/timeBudget.ts',
  'lib/config/sourceSettings.ts -> lib/lambda/functionSettings.ts',
  'lib/config/sweepConfig.ts -> lib/lambda/functionSettings.ts',
  'lib/config/sweepConfig.ts -> lib/lambda/startSweep.ts',
  'lib/config/webhookConfig.ts -> lib/lambda/functionSettings.ts',
  'lib/config/webhookConfig.ts -> lib/webhook/handleDelivery.ts',
  'lib/depends/becameReady.ts -> lib/reconcile/loadTrack.ts',
  'lib/depends/becameReady.ts -> lib/reconcile/types.ts',
  'lib/depends/checkDependencies.ts -> lib/reconcile/loadTrack.ts',
  'lib/depends/checkDependencies.ts -> lib/reconcile/types.ts',
  'lib/depends/dependencyGate.ts -> lib/reconcile/finishReconcile.ts',
  'lib/depends/dependencyGate.ts -> lib/reconcile/timeBudget.ts',
  'lib/depends/dependencyGate.ts -> lib/reconcile/types.ts',
  'lib/depends/dependencyRefs.ts -> lib/reconcile/types.ts',
  'lib/depends/findCycle.ts -> lib/reconcile/types.ts',
  'lib/depends/listDependents.ts -> lib/reconcile/loadTrack.ts',
  'lib/depends/listDependents.ts -> lib/reconcile/types.ts',
  'lib/depends/platformWait.ts -> lib/reconcile/loadTrack.ts',
  'lib/depends/platformWait.ts -> lib/reconcile/types.ts',
  'lib/depends/withDependents.ts -> lib/reconcile/finishReconcile.ts',
  'lib/depends/withDependents.ts -> lib/reconcile/types.ts',
  'lib/git/gitLimits.ts -> lib/config/setting.ts',
  'lib/identity/trackIdentity.ts -> lib/reconcile/types.ts',
  'lib/ignore/ignoreRules.ts -> lib/reconcile/loadTrack.ts',
  'lib/kube/kubeClient.ts -> lib/config/defaults.ts',
  'lib/kube/requestPolicy.ts -> lib/config/setting.ts',
  'lib/kustomize/kustomizeSettings.ts -> lib/config/setting.ts',
  'lib/lease/coalesced.ts -> lib/reconcile/types.ts',
  'lib/lease/leaseTarget.ts -> lib/reconcile/types.ts',
  'lib/lease/reconcileUnderLease.ts -> lib/reconcile/reconcile.ts',
  'lib/lease/reconcileUnderLease.ts -> lib/reconcile/types.ts',
  'lib/lease/served.ts -> lib/reconcile/types.ts',
  'lib/localstack/trackStatus.ts -> lib/cli/formatTable.ts',
  'lib/localstack/trackedObjects.ts -> lib/cli/formatTable.ts',
  'lib/pin/trackPin.ts -> lib/reconcile/loadTrack.ts',
  'lib/pin/trackPin.ts -> lib/reconcile/types.ts',
  'lib/pin/unpinHint.ts -> lib/reconcile/types.ts',
  'lib/webhook/handleDelivery.ts -> lib/lambda/reconcileEvent.ts',
  'lib/webhook/handleDelivery.ts -> lib/reconcile/types.ts',
  'lib/webhook/listTracks.ts -> lib/reconcile/fetchBackoff.ts',
  'lib/webhook/listTracks.ts -> lib/reconcile/types.ts',
  'lib/webhook/matchTracks.ts -> lib/reconcile/deliveryServed.ts',
  'lib/webhook/matchTracks.ts -> lib/reconcile/types.ts',
  'lib/webhook/track.ts -> lib/reconcile/fetchBackoff.ts',
  'lib/webhook/track.ts -> lib/reconcile/types.ts',
];
/** Files over their size limit on main, with their length then: they may shrink, never grow. */
const knownLongFiles: Record<string, number> = {
  'functions/reconcile.ts': 158,
  'functions/sweep.ts': 78,
  'functions/webhook.ts': 89,
};

const graph = importGraph(['lib', 'functions']);
const folderOf = (path: string) => {
  const [top, folder, file] = path.split('/');
  if (top === roof) return roof;
  return file === undefined ? folder!.replace(/\.ts$/, '') : folder!;
};
const floors: readonly string[] = [...layering, roof];
const floorOf = (path: string) => floors.indexOf(folderOf(path));
const text = (e: ImportEdge) => `${e.from} -> ${e.to}`;
const withinKnown = (known: string[][]) => (cycle: string[]) =>
  known.some((k) => cycle.every((member) => k.includes(member)));
const overlaps = (found: string[][]) => (known: string[]) =>
  found.some((cycle) => cycle.some((member) => known.includes(member)));

const fileCycles = cyclesOf(
  graph.files.map((f) => f.path),
  graph.edges,
);
const folderEdges = graph.edges
  .map((e) => ({ from: folderOf(e.from), to: folderOf(e.to) }))
  .filter((e) => e.from !== e.to);
const folderCycles = cyclesOf(floors, folderEdges);
const upward = graph.edges.filter((e) => floorOf(e.from) < floorOf(e.to));
const upwardPairs = new Set(upward.map((e) => `${folderOf(e.from)} -> ${folderOf(e.to)}`));
const limitOf = (path: string) => (path.startsWith(`${roof}/`) ? maxFunctionFileLines : maxLibFileLines);
const longFiles = graph.files.filter((f) => f.lines > limitOf(f.path));

describe('the layering of lib/ and functions/', () => {
  it('prints what it measured', () => {
    const lines = [
      `${graph.files.length} files, ${graph.edges.length} imports`,
      `file cycles: ${fileCycles.length} (${fileCycles.map((c) => c.length).join(', ') || 'none'} files)`,
      ...fileCycles.map((c) => `  ${c.join(' ')}`),
      `folder cycles: ${folderCycles.length}`,
      ...folderCycles.map((c) => `  ${c.join(' ')}`),
      `imports against the layering: ${upward.length} imports, ${upwardPairs.size} pairs of folders (target ≤ ${maxUpwardFolderPairs})`,
      ...[...upwardPairs].map((p) => `  ${p}`),
      `files over their limit (lib ${maxLibFileLines}, functions ${maxFunctionFileLines}): ${longFiles.length}`,
      ...longFiles.map((f) => `  ${f.path} ${f.lines}`),
    ];
    console.log(lines.join('\n'));
    expect(graph.files.length).toBeGreaterThan(100);
    expect(graph.edges.length).toBeGreaterThan(500);
  });

  it('places every folder of lib/ on a floor', () => {
    const unplaced = [...new Set(graph.files.map((f) => folderOf(f.path)))].filter(
      (f) => !floors.includes(f),
    );
    expect(unplaced, 'add each new lib/ folder to the layering').toEqual([]);
  });

  it('has no import cycle between files but the known ones', () => {
    expect(
      fileCycles.filter((c) => !withinKnown(knownFileCycles)(c)),
      'new import cycles',
    ).toEqual([]);
    expect(
      knownFileCycles.filter((k) => !overlaps(fileCycles)(k)),
      'gone: delete from knownFileCycles',
    ).toEqual([]);
    expect(fileCycles.length).toBeLessThanOrEqual(Math.max(maxCycles, knownFileCycles.length));
  });

  it('has no import cycle between folders but the known ones', () => {
    expect(
      folderCycles.filter((c) => !withinKnown(knownFolderCycles)(c)),
      'new folder cycles',
    ).toEqual([]);
    expect(
      knownFolderCycles.filter((k) => !overlaps(folderCycles)(k)),
      'gone: delete from knownFolderCycles',
    ).toEqual([]);
    expect(folderCycles.length).toBeLessThanOrEqual(Math.max(maxCycles, knownFolderCycles.length));
  });

  it('imports nothing from a higher floor but the known imports', () => {
    const found = upward.map(text);
    expect(
      found.filter((e) => !knownUpwardImports.includes(e)),
      'new imports against the layering',
    ).toEqual([]);
    expect(
      knownUpwardImports.filter((e) => !found.includes(e)),
      'gone: delete from knownUpwardImports',
    ).toEqual([]);
    const knownPairs = new Set(knownUpwardImports.map((e) => e.split(' -> ').map(folderOf).join(' -> ')));
    expect(upwardPairs.size).toBeLessThanOrEqual(Math.max(maxUpwardFolderPairs, knownPairs.size));
  });

  it('keeps lib files within 250 lines and functions within 60, but the known ones, which never grow', () => {
    const grown = longFiles.filter((f) => !(f.lines <= (knownLongFiles[f.path] ?? limitOf(f.path))));
    expect(
      grown.map((f) => `${f.path} ${f.lines}`),
      'over the limit (or longer than it was)',
    ).toEqual([]);
    const stale = Object.keys(knownLongFiles).filter((path) => !longFiles.some((f) => f.path === path));
    expect(stale, 'within the limit now: delete from knownLongFiles').toEqual([]);
  });
});
