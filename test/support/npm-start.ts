/**
 * The node options `npm start` runs the service with (package.json's start script). Every other
 * way this repository runs the service (the benchmarks, the systemd unit and container of
 * docs/operations.md) must pass the same ones.
 */
import { readFileSync } from 'node:fs';

const start = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts.start as string;

/** E.g. `['--max-semi-space-size=16']` for `node --max-semi-space-size=16 dist/server.js`. */
export const NPM_START_NODE_OPTIONS: readonly string[] = start.split(' ').filter((word) => word.startsWith('--'));
