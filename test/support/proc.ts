/**
 * What Linux's /proc says of a running process (or one of its threads): CPU time and resident
 * memory. The benchmarks and the tests that judge where work ran read them the same way.
 */
import { readFileSync } from 'node:fs';

/** utime + stime in ms, from a stat file: `/proc/PID/stat`, or `/proc/PID/task/TID/stat` for a thread. */
export function cpuMsOf(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8');
  // Fields 14 and 15, counted after the command name (which may hold spaces), in ticks of 10 ms.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The process's resident memory now (`VmRSS`) or at its peak (`VmHWM`), in MiB. */
export function residentMib(pid: number, which: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const kb = new RegExp(`${which}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) / 1024;
}
