import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { storeContract } from './contract.ts';

storeContract('sqlite', async () => openSqliteStore('sqlite::memory:'));
