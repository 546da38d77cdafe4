/** The reference data beside the project (../shared/data), for tests that skip file by file. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** MOD97_SHARED_DATA points elsewhere (a worktree whose parent folder lacks it); it ends in '/'. */
export const SHARED_DATA =
  process.env.MOD97_SHARED_DATA ?? fileURLToPath(new URL('../../../shared/data/', import.meta.url));

/** A skip reason naming the first missing file of `paths` (relative to SHARED_DATA), or false. */
export function skipUnlessShared(...paths: string[]): string | false {
  const missing = paths.find((p) => !existsSync(SHARED_DATA + p));
  return missing === undefined ? false : `${SHARED_DATA}${missing} is not present`;
}
