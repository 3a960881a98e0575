import { ApiKeyStore } from './api-keys.ts';
import { ClientStore } from './clients.ts';
import { closeDatabases, openDatabases, type Databases } from './database.ts';
import { MetaStore } from './meta.ts';
import { schemaVersion } from './migrations.ts';
import { BarStore } from './bars.ts';
import { OrderStore } from './orders.ts';
import { TradeTape } from './trades.ts';

/** Raw trades are kept this long (tick mode, sub-minute fidelity); minute bars for longer. */
export const DEFAULT_TAPE_RETENTION_MS = 6 * 3600 * 1000;

/** Every store over one LMDB environment; the gateway thread owns it. */
export class Storage {
  readonly clients: ClientStore;
  readonly apiKeys: ApiKeyStore;
  readonly meta: MetaStore;
  readonly tape: TradeTape;
  readonly bars: BarStore;
  readonly orders: OrderStore;
  private closed = false;

  private constructor(readonly db: Databases) {
    this.clients = new ClientStore(db);
    this.apiKeys = new ApiKeyStore(db);
    this.meta = new MetaStore(db);
    this.tape = new TradeTape(db, DEFAULT_TAPE_RETENTION_MS);
    this.bars = new BarStore(db);
    this.orders = new OrderStore(db);
  }

  static open(dataDir: string): Storage {
    return new Storage(openDatabases(dataDir));
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  get schemaVersion(): number {
    return schemaVersion(this.db);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.bars.flushOpen();
    await closeDatabases(this.db);
  }
}
