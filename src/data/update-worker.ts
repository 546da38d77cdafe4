/**
 * The worker thread in which the service downloads and parses the publishers' files for its
 * daily update (update-in-worker.ts): whatever a file does to memory or to the CPU happens
 * here, under the worker's own heap limit, never on the thread that answers requests.
 */
import { parentPort } from 'node:worker_threads';
import { fetchAndParse } from './download.ts';
import { messageOf } from '../thrown.ts';

export interface UpdateJob {
  id: number;
  kind: string;
  url: string;
  now: number;
  asOf?: string;
  maxBytes?: number;
}

parentPort?.on('message', async (job: UpdateJob) => {
  try {
    const parsed = await fetchAndParse(job.kind, job.url, job.now, job.asOf, job.maxBytes);
    parentPort?.postMessage({ id: job.id, parsed });
  } catch (err) {
    parentPort?.postMessage({ id: job.id, error: messageOf(err) });
  }
});
