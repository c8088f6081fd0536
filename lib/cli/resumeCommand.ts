import type { Command } from 'commander';
import { suspendCommandOf } from './setSuspend';

export const resumeCommand = (): Command => suspendCommandOf('resume');
