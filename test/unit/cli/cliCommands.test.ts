import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { addCliCommands, cliCommands, invokedCommand } from '../../../lib/cli/cliCommands';

describe('cliCommands', () => {
  it('lists every command as the command itself describes it', async () => {
    for (const entry of cliCommands) {
      const command = await entry.load();
      expect({
        name: command.name(),
        term: new Help().subcommandTerm(command),
        description: command.description(),
      }).toEqual({ name: entry.name, term: entry.term, description: entry.description });
    }
    // Loading every command's modules (the Kubernetes client, isomorphic-git, the AWS SDK…) through
    // vite's transform takes seconds on a busy machine.
  }, 60_000);

  it('has an entry for every command file in lib/cli', async () => {
    const files = readdirSync(join(import.meta.dirname, '../../../lib/cli')).filter((f) =>
      f.endsWith('Command.ts'),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const module = await import(`../../../lib/cli/${file}`);
      const command = module[file.replace(/\.ts$/, '')]() as Command;
      expect(
        cliCommands.map((c) => c.name),
        file,
      ).toContain(command.name());
    }
  }, 60_000);

  it('loads the invoked command only, and lists the others as they are', async () => {
    const program = new Command('lightkeeper');
    await addCliCommands(program, ['--debug', 'tree', 'gt/x', '-n', 'ns']);
    const tree = program.commands.find((c) => c.name() === 'tree');
    expect(tree?.options.map((o) => o.long)).toContain('--output');
    expect(program.commands.find((c) => c.name() === 'reconcile')?.options).toEqual([]);
    const help = program.helpInformation();
    for (const entry of cliCommands) expect(help).toContain(entry.term);
  });

  it('finds the command of a command line', () => {
    expect(invokedCommand(['reconcile', 'gt/a', '-n', 'b'])?.name).toBe('reconcile');
    expect(invokedCommand(['--debug', 'cluster', 'up'])?.name).toBe('cluster');
    expect(invokedCommand(['help', 'diff'])?.name).toBe('diff');
    expect(invokedCommand(['--help'])).toBeUndefined();
    expect(invokedCommand(['help'])).toBeUndefined();
    expect(invokedCommand(['nonsense'])).toBeUndefined();
  });
});
