import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cliSettings, loadCliConfig } from '../../../lib/config/cliConfig';
import { loadReconcileConfig, reconcileSettings } from '../../../lib/config/reconcileConfig';
import { loadSweepConfig, sweepSettings } from '../../../lib/config/sweepConfig';
import { loadWebhookConfig, webhookSettings } from '../../../lib/config/webhookConfig';
import { type Env, type Setting, shownDefault } from '../../../lib/settings/setting';

// docs/settings.md against the loaders: the table is what the code reads, with its defaults and
// accepted values, and nothing else.

const root = join(__dirname, '../../..');
const loaders: Record<string, { load: (env: Env) => unknown; declared: readonly Setting<unknown>[] }> = {
  webhook: { load: loadWebhookConfig, declared: webhookSettings },
  reconcile: { load: loadReconcileConfig, declared: reconcileSettings },
  sweep: { load: loadSweepConfig, declared: sweepSettings },
  cli: { load: loadCliConfig, declared: cliSettings },
};

/** The variables a loader reads, seen by running it on an environment that records each read. */
function readsOf(load: (env: Env) => unknown): Set<string> {
  const read = new Set<string>();
  load(
    new Proxy({} as Env, {
      get: (_target, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    }),
  );
  return read;
}

interface Row {
  name: string;
  cells: string[];
}

/** The rows of the table under the heading `## <heading>`. */
function tableRows(markdown: string, heading: string): Row[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/settings.md has no section "## ${heading}"`);
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z][A-Z0-9_]*` \|/.test(line))
    .map((line) => {
      const cells = line
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim());
      return { name: (cells[0] as string).replaceAll('`', ''), cells };
    });
}

const unquote = (cell: string) => cell.replace(/^`(.*)`$/, '$1');

const markdown = readFileSync(join(root, 'docs/settings.md'), 'utf8');
const settingsRows = tableRows(markdown, 'Settings of the functions and the CLI');
const usedWhereRows = tableRows(markdown, 'Read where they are used');

const readers = new Map<string, string[]>();
for (const [who, { load }] of Object.entries(loaders))
  for (const name of readsOf(load)) readers.set(name, [...(readers.get(name) ?? []), who]);

describe('the loaders', () => {
  it.each(Object.entries(loaders))(
    '%s declares exactly the settings it reads',
    (_who, { load, declared }) => {
      expect([...readsOf(load)].sort()).toEqual([...new Set(declared.map((s) => s.name))].sort());
    },
  );

  it('declare each setting the same way wherever it is read', () => {
    const seen = new Map<string, { fallback: string; accepts: string }>();
    for (const { declared } of Object.values(loaders))
      for (const s of declared) {
        const shown = { fallback: shownDefault(s), accepts: s.accepts };
        expect(seen.get(s.name) ?? shown, s.name).toEqual(shown);
        seen.set(s.name, shown);
      }
  });
});

describe('docs/settings.md', () => {
  const declared = new Map(
    Object.values(loaders).flatMap(({ declared }) => declared.map((s) => [s.name, s])),
  );

  it('lists every setting a loader reads, with who reads it, its default and what it accepts', () => {
    const rows = new Map(settingsRows.map((r) => [r.name, r]));
    for (const [name, who] of readers) {
      const row = rows.get(name);
      expect(row, `${name} is not in docs/settings.md`).toBeDefined();
      const [, readBy, fallback, accepts] = row?.cells ?? [];
      const setting = declared.get(name) as Setting<unknown>;
      expect({ name, readBy, fallback: unquote(fallback ?? ''), accepts }).toEqual({
        name,
        readBy: who.join(', '),
        fallback: shownDefault(setting),
        accepts: setting.accepts,
      });
    }
  });

  it('lists no setting twice, and none that no loader reads', () => {
    const names = settingsRows.map((r) => r.name);
    expect(names.length).toBeGreaterThan(40);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => !readers.has(n))).toEqual([]);
  });

  it('keeps the settings read where they are used apart: no loader reads them', () => {
    expect(usedWhereRows.length).toBeGreaterThan(0);
    expect(usedWhereRows.map((r) => r.name).filter((n) => readers.has(n))).toEqual([]);
  });

  it('names every LIGHTKEEPER_ variable the code and serverless.yml use, and every function variable', () => {
    const documented = new Set([...settingsRows, ...usedWhereRows].map((r) => r.name));
    const used = new Set<string>();
    for (const file of sourceFiles(['lib', 'functions', 'bin', 'infra']))
      for (const m of readFileSync(file, 'utf8').matchAll(/\bLIGHTKEEPER_[A-Z0-9_]*[A-Z0-9]\b/g))
        used.add(m[0]);
    const serverless = readFileSync(join(root, 'serverless.yml'), 'utf8');
    for (const m of serverless.matchAll(/\bLIGHTKEEPER_[A-Z0-9_]*[A-Z0-9]\b/g)) used.add(m[0]);
    // What serverless.yml gives the functions, except what belongs to Node and Powertools.
    const config = parse(serverless) as {
      provider: { environment: Record<string, string> };
      functions: Record<string, { environment?: Record<string, string> }>;
    };
    for (const env of [
      config.provider.environment,
      ...Object.values(config.functions).map((f) => f.environment),
    ])
      for (const name of Object.keys(env ?? {}))
        if (name !== 'NODE_OPTIONS' && !name.startsWith('POWERTOOLS_')) used.add(name);
    expect([...used].filter((n) => !documented.has(n)).sort()).toEqual([]);
  });
});

function sourceFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== 'node_modules' && entry !== 'testdata') walk(path);
      } else if (/\.(ts|mts|mjs|cjs|js|sh|go)$/.test(entry)) out.push(path);
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}
