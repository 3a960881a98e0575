import type { VenueId } from '../../../domain/market.ts';
import { clientsWithCredentials, CredentialStore } from '../../../storage/credentials.ts';
import { CredentialCipher } from '../../../storage/crypto.ts';
import { openDatabases, type Databases } from '../../../storage/database.ts';
import type { VenueAccount } from './venue.ts';

/**
 * The clients' accounts on one live venue: their sealed credentials read from LMDB (a reader on
 * this worker) and opened with the credentials key the gateway thread shares. Read on every
 * request that needs them, never cached: a replaced or deleted credential takes effect on the
 * next child, and the plaintext lives only as long as the request that signs with it.
 */
export class LiveAccounts {
  private readonly db: Databases;
  private readonly store: CredentialStore;

  constructor(
    dataDir: string,
    key: SharedArrayBuffer,
    private readonly venue: VenueId,
  ) {
    this.db = openDatabases(dataDir, { readerOnly: true });
    this.store = new CredentialStore(this.db, new CredentialCipher(new Uint8Array(key.slice(0))));
  }

  /** The client's live account on this venue, or undefined when it stored no credentials. */
  account(client_id: string): VenueAccount | undefined {
    // A credential stored after this thread's read transaction began is seen on a fresh one.
    this.db.root.resetReadTxn();
    const credentials = this.store.get(client_id, 'live', this.venue);
    return credentials === undefined ? undefined : { client_id, credentials };
  }

  /** Every client with live credentials on this venue (the kill switch cancels on each). */
  clients(): string[] {
    this.db.root.resetReadTxn();
    return clientsWithCredentials(this.db, this.venue, 'live');
  }
}
