import { readFileSync } from 'node:fs';

/**
 * A JSON file this project generated, or one a pinned package ships: its shape is known from
 * where it comes from, so it is typed by the caller, not checked.
 */
export const readJsonFile = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8'));
