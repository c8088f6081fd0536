import type { Command } from 'commander';
import { suspendCommandOf } from './setSuspend';

export const suspendCommand = (): Command => suspendCommandOf('suspend');
