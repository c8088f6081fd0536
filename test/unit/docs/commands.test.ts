import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../../lib/cli/cliCommands';
import { checkQuotedCommand } from './checkQuotedCommand';
import { docFiles, readDoc, shortName } from './docFiles';
import { quotedCommands } from './markdown';

// The program lib/cli/main.ts builds, with every command loaded (main.ts loads only the invoked one).
async function fullProgram(): Promise<Command> {
  const program = new Command('lightkeeper')
    .version('0.0.0', '-V, --version')
    .option('--debug', 'print stack traces of errors');
  for (const entry of cliCommands) program.addCommand(await entry.load());
  return program;
}

describe('commands quoted in the documentation', () => {
  let program: Command;
  beforeAll(async () => {
    program = await fullProgram();
    // Loading every command's modules through vite's transform takes seconds on a busy machine.
  }, 60_000);

  it('name commands and flags the CLI has', () => {
    const quoted = docFiles().flatMap((file) =>
      quotedCommands(readDoc(file)).map((c) => ({ ...c, file: shortName(file) })),
    );
    expect(quoted.length).toBeGreaterThan(30);
    const wrong = quoted.flatMap((c) => {
      const problem = checkQuotedCommand(program, c.words);
      return problem ? [`${c.file}:${c.line}: ${c.text}: ${problem}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it('are read from code spans and fenced blocks, prompts and npx included', () => {
    const quoted = quotedCommands(
      [
        'Run `npx lightkeeper diff gt/a -n b [--commit SHA | --local DIR]` or `lightkeeper.dev/prune`.',
        '```',
        '$ lightkeeper cluster up   # start',
        '[lightkeeper] building the CLI bundle',
        '5 registry.example/web:2 lightkeeper kubectl',
        '$ time node bin/lightkeeper.mjs --help >/dev/null',
        '```',
      ].join('\n'),
    );
    expect(quoted.map((c) => [c.line, c.words])).toEqual([
      [1, ['diff', 'gt/a', '-n', 'b', '--commit', 'SHA', '--local', 'DIR']],
      [3, ['cluster', 'up']],
      [6, ['--help']],
    ]);
  });

  it('are refused when a command or a flag does not exist', () => {
    expect(checkQuotedCommand(program, ['reconcile', 'gt/a', '-n', 'ns', '--commit', 'abc'])).toBeUndefined();
    expect(checkQuotedCommand(program, ['migrate', 'faros', '--dry-run', '-o', 'json'])).toBeUndefined();
    expect(checkQuotedCommand(program, ['--debug', 'cluster', 'restart-gc'])).toBeUndefined();
    expect(checkQuotedCommand(program, ['reconcile', 'gt/a', '--bogus'])).toBe(
      'lightkeeper reconcile has no option --bogus',
    );
    expect(checkQuotedCommand(program, ['cluster', 'explode'])).toBe(
      'lightkeeper cluster has no command explode',
    );
    expect(checkQuotedCommand(program, ['reconcil', 'gt/a'])).toBe('lightkeeper has no command reconcil');
    expect(checkQuotedCommand(program, ['tree', 'gt/a', '--once'])).toBe(
      'lightkeeper tree has no option --once',
    );
  });
});
