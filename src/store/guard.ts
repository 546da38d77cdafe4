/**
 * Wraps an engine's store so that both engines fail the same way: an engine error that means
 * "cannot write now" becomes the typed `storage_unavailable` (src/store/unavailable.ts), and
 * the store remembers whether its last write failed, which /readyz reports until a write
 * succeeds again.
 */
import type { Store } from './types.ts';
import { isStorageUnavailable, storageUnavailable } from './unavailable.ts';

/** Methods that only read: their failure says nothing about whether a write would pass. */
const READS = new Set<string>([
  'keyByHash',
  'keyById',
  'read',
  'getDataset',
  'listDatasets',
  'getSetting',
  'checkoutBySession',
  'subscriptionsOf',
  'freeKeyFromNetworkSince',
  'addressHolder',
  'lastEmailBinding',
  'latestAlert',
  'hasPayment',
  'packRecovery',
  'ping',
  'close',
]);

export type EngineStore = Omit<Store, 'writeFailing'>;

/**
 * `unavailable(err)` says whether an engine error means the store cannot serve now. A proxy, so
 * that every method, of either engine, is wrapped without being listed.
 */
export function guardStore(engine: EngineStore, unavailable: (err: unknown) => boolean): Store {
  let writeFailing = false;
  const fail = (name: string) => (err: unknown) => {
    const mapped = isStorageUnavailable(err) ? err : unavailable(err) ? storageUnavailable(err, 'write') : null;
    if (mapped && !READS.has(name)) writeFailing = true;
    throw mapped ?? err;
  };
  // By method, not by name: a method replaced on the store (as tests do) is wrapped in its turn.
  const wrapped = new WeakMap<object, (...args: unknown[]) => Promise<unknown>>();
  const wrap = (name: string, method: (...args: unknown[]) => Promise<unknown>) => {
    const onError = fail(name);
    return READS.has(name)
      ? (...args: unknown[]) => method(...args).catch(onError)
      : (...args: unknown[]) =>
          method(...args).then((result) => {
            writeFailing = false;
            return result;
          }, onError);
  };
  return new Proxy<Store>(
    { ...engine, writeFailing: () => writeFailing },
    {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof name !== 'string' || name === 'writeFailing' || typeof value !== 'function') return value;
        let method = wrapped.get(value);
        if (!method) wrapped.set(value, (method = wrap(name, value)));
        return method;
      },
    },
  );
}
