/** Writes the examples section of docs/api.md from the routes' declared examples. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/root.ts';
import { withExamples } from './api-examples.ts';

const file = join(ROOT, 'docs/api.md');
writeFileSync(file, withExamples(readFileSync(file, 'utf8')));
