/**
 * zbarimg (ZBar, Debian's zbar-tools): a QR decoder that shares no code with this service, the
 * one the payment QR tests read drawn codes with. Tests skip with `noZbar` where it is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const ZBARIMG = '/usr/bin/zbarimg';

export const noZbar = existsSync(ZBARIMG) ? false : 'zbarimg is not installed (Debian zbar-tools)';

/** zbarimg's reading of an image file: the bytes of the code, as UTF-8 (-Sbinary: no charset guessing). */
export function zbar(file: string): string {
  return execFileSync(ZBARIMG, ['--raw', '-q', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString(
    'utf8',
  );
}
