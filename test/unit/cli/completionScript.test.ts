import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cliCommands } from '../../../lib/cli/cliCommands';
import { completionScript, completionTree } from '../../../lib/cli/completionScript';

async function program() {
  const root = new Command('lightkeeper').option('--debug');
  for (const entry of cliCommands) root.addCommand(await entry.load());
  return completionTree(root);
}

describe('completionScript', () => {
  it('names every command, and the options of each, for bash, zsh and fish', async () => {
    const tree = await program();
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const script = completionScript(shell, tree);
      for (const entry of cliCommands) expect(script, `${shell}: ${entry.name}`).toContain(entry.name);
      for (const option of ['--all-namespaces', '--service-account', '--export'])
        expect(script).toContain(option.slice(2));
    }
  }, 60_000);

  it('completes in bash what follows the command path typed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'completion-'));
    const file = join(dir, 'lightkeeper.bash');
    writeFileSync(file, completionScript('bash', await program()));
    const complete = (...words: string[]) =>
      execFileSync('bash', [
        '-c',
        `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _lightkeeper_complete; echo "\${COMPREPLY[@]}"`,
      ])
        .toString()
        .trim()
        .split(' ');
    expect(complete('lightkeeper', 'sus')).toEqual(['suspend']);
    expect(complete('lightkeeper', 'create', '')).toEqual([
      'gittrack',
      'gt',
      'clustergittrack',
      'cgt',
      '--help',
    ]);
    expect(complete('lightkeeper', 'create', 'gt', 'apps', '--ser')).toEqual(['--service-account']);
    expect(complete('lightkeeper', 'get', '-n', 'x', '--all')).toEqual(['--all-namespaces']);
  }, 60_000);
});
