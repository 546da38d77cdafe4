/**
 * The package's root folder. This file sits one level below it (src/), and so does the bundled
 * server (dist/server.js, built by scripts/build.mjs): the same relative step finds the root
 * from either, so files read at run time are named from here, never from a module's own place.
 */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
