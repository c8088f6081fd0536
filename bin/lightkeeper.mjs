#!/usr/bin/env node
// Runs the TypeScript CLI in place (tsx), so `npx lightkeeper …` needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../lib/cli/main.ts');
