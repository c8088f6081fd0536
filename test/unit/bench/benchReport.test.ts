import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { emptyResult } from '../../../bench/benchResult';
import { benchRows } from '../../../bench/benchTable';
import { changeOneConfigMap } from '../../../bench/changeOneObject';
import { type ChildRun, medianRun } from '../../../bench/childProtocol';
import type { ColdInvocation } from '../../../bench/coldReconcileChild';
import { generateRepo } from '../../../bench/generateRepo';
import { breakdown } from '../../../bench/pushToApplied';

describe('the benchmark JSON', () => {
  it('has every key issue 9 asks for, null until measured', () => {
    const r = emptyResult(2000);
    expect(Object.keys(r)).toEqual(
      expect.arrayContaining([
        'objects',
        'firstApply',
        'noop',
        'oneChange',
        'pushToApplied',
        'clone',
        'peakRssMb',
        'coldStartMs',
        'notes',
      ]),
    );
    expect(Object.keys(r.firstApply)).toEqual(['lightkeeper', 'flux', 'kubectl', 'limit']);
    expect(Object.keys(r.noop)).toEqual(['lightkeeper', 'flux', 'lightkeeperWrites']);
    expect(Object.keys(r.oneChange)).toEqual(['lightkeeper', 'flux']);
    expect(Object.keys(r.pushToApplied)).toEqual(
      expect.arrayContaining(['total', 'webhook', 'init', 'fetch', 'parse', 'apply']),
    );
    expect(Object.keys(r.clone)).toEqual(['cold', 'warm', 'git']);
    expect(Object.keys(r.coldStartMs)).toEqual(['webhook', 'reconcile', 'sweep', 'node']);
    expect(r.firstApply.flux).toBeNull();
  });
});

describe('the benchmark table', () => {
  const measured = () => {
    const r = emptyResult(2000);
    r.firstApply = { lightkeeper: 20, flux: 54, kubectl: 16, limit: 8 };
    r.noop = { lightkeeper: 0.38, flux: 38, lightkeeperWrites: 0 };
    r.oneChange = { lightkeeper: 1, flux: 40 };
    r.sharded = { whole: 10, sharded: 9, shards: 8, perShard: 233, threshold: 1000, fanout: 8 };
    r.clone = { cold: 1, warm: 0.2, git: 0.8 };
    r.peakRssMb = 200;
    r.coldStartMs = { webhook: 150, reconcile: 320, sweep: 150, node: 40 };
    return r;
  };
  const row = (r: ReturnType<typeof emptyResult>, measure: string) =>
    benchRows(r).find((cells) => cells[0].startsWith(measure))!;

  it('says MISS with the ratio where a target is missed, met where it is met', () => {
    const r = measured();
    // kubectl / lightkeeper = 0.8 (met), Flux / lightkeeper = 2.7 (missed: 3× asked)
    expect(row(r, 'first apply')[5]).toBe('met (0.80×) kubectl; MISS (2.70×) Flux');
    expect(row(r, 'the limit')[5]).toBe('MISS (0.40×)');
    expect(row(r, 'no-op')[5]).toBe('met (writes); met (100.00×)');
    expect(row(r, 'one object changed')[5]).toBe('MISS (40.00×)');
    expect(row(r, 'first apply through the reconcile function')[5]).toBe('met (0.90×)');
    expect(row(r, 'first apply through the reconcile function')[0]).toContain('8 shards of ≤ 233');
    r.sharded.sharded = 11;
    expect(row(r, 'first apply through the reconcile function')[5]).toBe('MISS (1.10×)');
    expect(row(r, 'clone')[5]).toBe('met (1.25×) git; met (0.20×) cold');
    expect(row(r, 'cold start')[5]).toBe('MISS (worst 320 ms)');
  });

  it('says "not measured" instead of judging a missing figure', () => {
    const r = measured();
    r.firstApply.flux = null;
    r.pushToApplied.total = null;
    expect(row(r, 'first apply')[5]).toBe('met (0.80×) kubectl; not measured Flux');
    expect(row(r, 'first apply')[2]).toBe('n/a');
    expect(row(r, 'push to applied')[5]).toBe('not measured');
  });

  it('judges peak RSS against its bound only at 2,000 objects', () => {
    const r = measured();
    r.peakRssMb = 376;
    expect(row(r, 'peak RSS')[5]).toBe('MISS (376 MB)');
    const scale = { ...r, objects: 8000 };
    expect(row(scale, 'peak RSS')[5]).toMatch(/^scale curve point/);
  });

  it("names the no-op's samples when lightkeeper's is a median of several", () => {
    const r = measured();
    expect(row(r, 'no-op')[0]).toBe('no-op of the same commit (time; object writes)');
    r.details.lightkeeperNoopRunsS = [0.412, 0.3, 0.35];
    expect(row(r, 'no-op')[0]).toBe(
      "no-op of the same commit (time, lightkeeper's the median of 3 back to back: 0.41 / 0.30 / 0.35 s; object writes)",
    );
  });

  it('counts a single object write in a no-op as a miss', () => {
    const r = measured();
    r.noop.lightkeeperWrites = 1;
    expect(row(r, 'no-op')[5]).toMatch(/^MISS \(writes\)/);
  });
});

describe('the median no-op', () => {
  const run = (wallMs: number) => ({ wallMs }) as ChildRun;
  it('is the middle run by wall time, the faster of the middle two of an even count', () => {
    expect(medianRun([run(412), run(300), run(350)]).wallMs).toBe(350);
    expect(medianRun([run(900), run(300), run(350), run(320)]).wallMs).toBe(320);
    expect(medianRun([run(500)]).wallMs).toBe(500);
    expect(() => medianRun([])).toThrow(/no runs/);
  });
});

describe('push to applied breakdown', () => {
  it('splits the invocation by its requests, phases adding up to the handler', () => {
    const inv: ColdInvocation = {
      processStart: 1000,
      importStart: 1100,
      importEnd: 1300,
      handlerStart: 1310,
      handlerEnd: 2000,
      git: [
        { method: 'GET', path: '/repo/info/refs', start: 1400, end: 1420 },
        { method: 'POST', path: '/repo/git-upload-pack', start: 1430, end: 1500 },
      ],
      api: [
        { method: 'GET', path: '/apis/lightkeeper.dev/v1alpha1/clustergittracks/t', start: 1320, end: 1330 },
        { method: 'POST', path: '/api/v1/namespaces/default/events', start: 1510, end: 1520 },
        { method: 'GET', path: '/apis', start: 1700, end: 1720 },
        { method: 'GET', path: '/api/v1/configmaps?labelSelector=x', start: 1720, end: 1800 },
        {
          method: 'PATCH',
          path: '/api/v1/namespaces/a/configmaps/b?fieldManager=lightkeeper',
          start: 1800,
          end: 1850,
        },
        {
          method: 'PATCH',
          path: '/apis/lightkeeper.dev/v1alpha1/clustergittracks/t/status',
          start: 1900,
          end: 1950,
        },
      ],
      result: {},
    };
    const b = breakdown(900, 960, 1860, 980, inv);
    expect(b).toMatchObject({
      totalMs: 960,
      webhookMs: 60,
      invokeMs: 120,
      initMs: 200,
      prepareMs: 90,
      fetchMs: 100,
      parseMs: 200,
      listMs: 100,
      applyMs: 50,
      statusMs: 150,
    });
    const { prepareMs, fetchMs, parseMs, listMs, applyMs, statusMs } = b;
    expect(prepareMs + fetchMs + parseMs + listMs + applyMs + statusMs).toBe(
      inv.handlerEnd - inv.handlerStart,
    );
  });
});

describe('the generated repository', () => {
  it('holds one object per file in the file-per-object layout', () => {
    const files = generateRepo('t', { objects: 500, layout: 'file-per-object' });
    const docs = Object.values(files).flatMap((text) => parseAllDocuments(text));
    expect(Object.keys(files)).toHaveLength(500);
    expect(docs).toHaveLength(500);
    const perKind = generateRepo('t', { objects: 500 });
    expect(Object.values(perKind).flatMap((text) => parseAllDocuments(text))).toHaveLength(500);
  });

  it('changes exactly one object for the one-change measurements', () => {
    const files = generateRepo('t', { objects: 300, layout: 'file-per-object' });
    const change = changeOneConfigMap(files, 'new');
    const [path, content] = Object.entries(change.files)[0]!;
    expect(Object.keys(change.files)).toHaveLength(1);
    expect(content).not.toBe(files[path]);
    expect(content).toContain('mode: new');
    expect(content.replace('mode: new', 'mode: prod')).toBe(files[path]);
  });
});
