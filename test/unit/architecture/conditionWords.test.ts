import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root, typeScriptFiles } from '../../support/importGraph';

// Issue 20: every condition text of a track's status is written in one file,
// lib/reconcile/conditionTexts.ts. A condition literal anywhere else in lib/ fails here, except the
// conditions of other objects: a child's health verdict and a tracking object's own conditions.

const others = new Set(['lib/kstatus/healthVerdict.ts', 'lib/tracker/trackerConditions.ts']);
const conditionLiteral = /status:\s*'(True|False|Unknown)'\s*,\s*reason:/;

describe("the words of a track's conditions", () => {
  it('are written only in lib/reconcile/conditionTexts.ts', () => {
    const wording = typeScriptFiles('lib').filter(
      (f) => !others.has(f) && conditionLiteral.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(wording).toEqual([]);
  });
});
