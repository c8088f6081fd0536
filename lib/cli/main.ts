#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { auditCommand } from './auditCommand';
import { clusterCommand } from './clusterCommand';
import { diffCommand } from './diffCommand';
import { exitCodeFor, formatError } from './formatError';
import { migrateCommand } from './migrateCommand';
import { pushCommand } from './pushCommand';
import { reconcileCommand } from './reconcileCommand';
import { replayCommand } from './replayCommand';
import { startCommand } from './startCommand';
import { treeCommand } from './treeCommand';
import { unpinCommand } from './unpinCommand';

const program = new Command('lightkeeper')
  .description('serverless GitOps reconciler for Kubernetes')
  .option('--debug', 'print stack traces of errors (also LIGHTKEEPER_DEBUG=1)')
  .addCommand(clusterCommand())
  .addCommand(reconcileCommand())
  .addCommand(replayCommand())
  .addCommand(unpinCommand())
  .addCommand(pushCommand())
  .addCommand(startCommand())
  .addCommand(auditCommand())
  .addCommand(treeCommand())
  .addCommand(diffCommand())
  .addCommand(migrateCommand());

// Usage errors (already printed by commander) come back here, to exit with the usage code.
const overrideExit = (command: Command) => {
  command.exitOverride();
  for (const sub of command.commands) overrideExit(sub);
};
overrideExit(program);

const debug = process.argv.includes('--debug') || process.env.LIGHTKEEPER_DEBUG === '1';
program.parseAsync(process.argv).catch((e: unknown) => {
  if (!(e instanceof CommanderError)) console.error(formatError(e, { debug }));
  process.exit(exitCodeFor(e));
});
