import { Argument, Command } from 'commander';
import { completionScript, completionTree, type Shell } from './completionScript';

/** A command of the CLI, as cliCommands.ts lists it (passed in: that list loads this file). */
interface LoadableCommand {
  readonly name: string;
  readonly load: () => Promise<Command>;
}

/** `lightkeeper completion bash|zsh|fish`: a completion script built from every command. */
export function completionCommand(commands: readonly LoadableCommand[]): Command {
  return new Command('completion')
    .description('print a shell completion script: source <(lightkeeper completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: Shell, _opts: unknown, command: Command) => {
      // Every command loaded, so its options are known (only this command pays for it).
      const program = new Command(command.parent?.name() ?? 'lightkeeper');
      for (const o of command.parent?.options ?? []) program.addOption(o);
      for (const entry of commands)
        program.addCommand(entry.name === 'completion' ? completionStub() : await entry.load());
      process.stdout.write(completionScript(shell, completionTree(program)));
    });
}

const completionStub = () =>
  new Command('completion').description('print a shell completion script').argument('<shell>');
