#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { wantsDebug } from '../config/cliDebug';
import { isLightkeeperError } from '../errors';
import { addCliCommands } from './cliCommands';
import { exitCodeFor, formatError } from './formatError';

// Usage errors (already printed by commander) come back here, to exit with the usage code.
const overrideExit = (command: Command) => {
  command.exitOverride();
  for (const sub of command.commands) overrideExit(sub);
};

async function main(args: readonly string[]): Promise<void> {
  const program = new Command('lightkeeper')
    .description('serverless GitOps reconciler for Kubernetes')
    .version(packageJson.version, '-V, --version', 'print the version of lightkeeper')
    .option('--debug', 'print stack traces of errors (also LIGHTKEEPER_DEBUG=1)');
  // Only the command this run invokes is loaded (see cliCommands.ts): `--help` answers at once.
  await addCliCommands(program, args);
  overrideExit(program);
  await program.parseAsync(args, { from: 'user' });
}

const debug = wantsDebug(process.argv);
main(process.argv.slice(2)).catch(async (e: unknown) => {
  // A typo'd track name: the closest existing one, read only now (loaded on this path alone).
  if (isLightkeeperError(e) && e.code === 'TrackNotFoundError')
    e = await (await import('./suggestTrack')).withTrackSuggestion(e);
  if (!(e instanceof CommanderError)) console.error(formatError(e, { debug }));
  process.exit(exitCodeFor(e));
});
