import { ApiKeyStore } from './api-keys.ts';
import { ClientStore } from './clients.ts';
import { closeDatabases, openDatabases, type Databases } from './database.ts';
import { MetaStore } from './meta.ts';
import { schemaVersion } from './migrations.ts';

/** Every store over one LMDB environment; the gateway thread owns it. */
export class Storage {
  readonly clients: ClientStore;
  readonly apiKeys: ApiKeyStore;
  readonly meta: MetaStore;
  private closed = false;

  private constructor(readonly db: Databases) {
    this.clients = new ClientStore(db);
    this.apiKeys = new ApiKeyStore(db);
    this.meta = new MetaStore(db);
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
    await closeDatabases(this.db);
  }
}
