import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The functions' bundles replace two modules (serverless.yml custom.esbuild.alias) for a faster cold
// start. A stand-in that lacks a name lib/ imports would fail only in the deployed bundle.

const root = join(import.meta.dirname, '..', '..', '..');
const alias = (
  parse(readFileSync(join(root, 'serverless.yml'), 'utf8')) as {
    custom: { esbuild: { alias: Record<string, string> } };
  }
).custom.esbuild.alias;
const load = createRequire(import.meta.url);

/** The names every .ts file under lib/ and functions/ imports (as values) from `module`. */
function namesImportedFrom(module: string): Set<string> {
  const names = new Set<string>();
  const from = new RegExp(`import\\s+\\{([^}]*)\\}\\s+from\\s+'${module}'`, 'g');
  for (const dir of ['lib', 'functions'])
    for (const file of readdirSync(join(root, dir), { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      for (const m of readFileSync(join(root, dir, file), 'utf8').matchAll(from))
        for (const name of (m[1] ?? '').split(','))
          if (name.trim() && !name.trim().startsWith('type '))
            names.add(name.trim().split(/\s+as\s+/)[0] as string);
    }
  return names;
}

describe("the functions' bundle aliases", () => {
  it('name files that exist', () => {
    for (const [name, target] of Object.entries(alias))
      if (target.startsWith('./')) expect(existsSync(join(root, target)), `${name} → ${target}`).toBe(true);
  });

  it("give undici's stand-in every name lib/ imports from undici, as undici exports it", () => {
    const used = namesImportedFrom('undici');
    expect([...used].sort()).toEqual(['Agent', 'request']);
    const core = load(join(root, alias.undici as string)) as Record<string, unknown>;
    const undici = load('undici') as Record<string, unknown>;
    for (const name of used) {
      expect(typeof core[name], name).toBe(typeof undici[name]);
      expect(core[name], name).toBeDefined();
    }
    // The same class, not a copy: an Agent made by either is the one undici's request dispatches on.
    expect(core.Agent).toBe(undici.Agent);
  });

  it("give node:http's stand-in node:http itself", () => {
    expect(load(join(root, alias['node:http'] as string))).toBe(load('node:http'));
  });
});
