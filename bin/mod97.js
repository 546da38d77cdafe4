#!/usr/bin/env node
// npm bin shim: lets node load the TypeScript sources through tsx, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
