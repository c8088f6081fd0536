#!/usr/bin/env node
import { Command } from 'commander';
import { isLightkeeperError } from '../errors';
import { clusterCommand } from './clusterCommand';
import { pushCommand } from './pushCommand';
import { reconcileCommand } from './reconcileCommand';
import { replayCommand } from './replayCommand';
import { startCommand } from './startCommand';

const program = new Command('lightkeeper')
  .description('serverless GitOps reconciler for Kubernetes')
  .addCommand(clusterCommand())
  .addCommand(reconcileCommand())
  .addCommand(replayCommand())
  .addCommand(pushCommand())
  .addCommand(startCommand());

program.parseAsync(process.argv).catch((e: unknown) => {
  console.error(isLightkeeperError(e) ? `lightkeeper: ${e.code}: ${e.message}` : e);
  process.exit(1);
});
