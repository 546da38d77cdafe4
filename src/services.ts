/** Everything a route needs, built once at start-up and passed in (no globals). */
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import { createDescribe, type Describe } from './describe.ts';
import { createNetworkResolver } from './http/network.ts';
import { CreationAlert } from './keys/alert.ts';
import { KeyService } from './keys/service.ts';
import { Meter } from './quota/meter.ts';
import type { Rails } from './quota/offers.ts';
import type { Store } from './store/types.ts';

export interface Services {
  config: Config;
  store: Store;
  clock: Clock;
  keys: KeyService;
  meter: Meter;
  alert: CreationAlert;
  rails: Rails;
  describe: Describe;
  networkOf: (peer: string | undefined, forwardedFor: string | string[] | undefined) => string;
}

export async function buildServices(config: Config, store: Store, clock: Clock): Promise<Services> {
  // Without MOD97_KEY_PEPPER the pepper is generated once and kept in the database
  // (DECISIONS.md section 1); every process sharing that database then agrees on it.
  const pepper = config.keyPepper ?? (await store.settingOrInit('key_pepper', randomBytes(32).toString('hex')));
  const alert = new CreationAlert(store, clock);
  return {
    config,
    store,
    clock,
    alert,
    keys: new KeyService(store, clock, pepper, alert),
    meter: new Meter(store, clock, alert),
    rails: { x402: false, card: false },
    describe: createDescribe(),
    networkOf: createNetworkResolver(config.trustProxy),
  };
}
