import { ApiKeyStore } from './api-keys.ts';
import { ClientStore } from './clients.ts';
import { CredentialStore } from './credentials.ts';
import { CredentialCipher, resolveCredentialsKey } from './crypto.ts';
import { closeDatabases, openDatabases, type Databases } from './database.ts';
import { MetaStore } from './meta.ts';
import { schemaVersion } from './migrations.ts';
import { BarStore } from './bars.ts';
import { OrderStore } from './orders.ts';
import { TradeTape } from './trades.ts';
import { SandboxSettingsStore } from './sandbox-settings.ts';
import { MarketResolutionStore } from './market-resolutions.ts';
import { WalletStore } from './wallets.ts';
import { DeploymentStore } from './deployments.ts';
import { AlertStore } from './alerts.ts';
import { DiskSpace } from './disk-space.ts';
import { TcaBucketStore } from './tca-buckets.ts';

/** Raw trades are kept this long (tick mode, sub-minute fidelity); minute bars for longer. */
export const DEFAULT_TAPE_RETENTION_MS = 6 * 3600 * 1000;

/** How long after a failed commit the storage reports itself not writable (readiness 503). */
export const WRITE_FAILURE_HOLD_MS = 10_000;

/** Every store over one LMDB environment; the gateway thread owns it. */
export class Storage {
  readonly clients: ClientStore;
  readonly apiKeys: ApiKeyStore;
  readonly meta: MetaStore;
  readonly tape: TradeTape;
  readonly bars: BarStore;
  readonly orders: OrderStore;
  readonly credentials: CredentialStore;
  readonly sandboxSettings: SandboxSettingsStore;
  readonly marketResolutions: MarketResolutionStore;
  readonly wallets: WalletStore;
  readonly deployments: DeploymentStore;
  readonly tcaBuckets: TcaBucketStore;
  readonly alerts: AlertStore;
  private closed = false;

  private constructor(
    readonly db: Databases,
    cipher: CredentialCipher,
    readonly space: DiskSpace,
    private readonly credentialsKey: Buffer,
  ) {
    this.clients = new ClientStore(db);
    this.apiKeys = new ApiKeyStore(db);
    this.meta = new MetaStore(db);
    this.tape = new TradeTape(db, DEFAULT_TAPE_RETENTION_MS);
    this.bars = new BarStore(db);
    this.orders = new OrderStore(db);
    this.credentials = new CredentialStore(db, cipher);
    this.sandboxSettings = new SandboxSettingsStore(db);
    this.marketResolutions = new MarketResolutionStore(db);
    this.wallets = new WalletStore(db, cipher);
    this.deployments = new DeploymentStore(db);
    this.tcaBuckets = new TcaBucketStore(db);
    this.alerts = new AlertStore(db);
  }

  /**
   * `credentialsKey` (CREDENTIALS_KEY, 64 hex) seals venue credentials; without it the key in
   * DATA_DIR/credentials.key is used, generated on first open (crypto.ts).
   */
  static open(
    dataDir: string,
    options: { credentialsKey?: string | undefined; onWriteFailure?: (err: Error) => void; minFreeBytes?: number | undefined } = {},
  ): Storage {
    const key = resolveCredentialsKey(dataDir, options.credentialsKey);
    const cipher = new CredentialCipher(key);
    const db = openDatabases(dataDir, { ...(options.onWriteFailure === undefined ? {} : { onWriteFailure: options.onWriteFailure }) });
    try {
      return new Storage(db, cipher, new DiskSpace(dataDir, options.minFreeBytes), key);
    } catch (err) {
      void db.root.close();
      throw err;
    }
  }

  /**
   * The credentials key in shared memory, for the live venue edges on the worker threads: they
   * sign with a client's venue credentials, which they open from LMDB themselves so no secret
   * travels in a message. Only made when a live venue is configured.
   */
  credentialsKeyForWorkers(): SharedArrayBuffer {
    const shared = new SharedArrayBuffer(this.credentialsKey.length);
    new Uint8Array(shared).set(this.credentialsKey);
    return shared;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /**
   * False for WRITE_FAILURE_HOLD_MS after a commit failed (I/O error, read-only filesystem), and
   * while the disk is below its free-space reserve: readiness fails, writes are refused.
   */
  get writable(): boolean {
    return this.refusal() === undefined;
  }

  /** Why writes are refused now, or undefined. `fresh`: read the free space now (the journal, per frame). */
  refusal(fresh = false): string | undefined {
    const at = this.db.writes.lastFailureAtMs;
    if (at !== undefined && Date.now() - at <= WRITE_FAILURE_HOLD_MS) return `an LMDB commit failed ${Date.now() - at} ms ago (see the log)`;
    return this.space.shortage(fresh);
  }

  get writeFailures(): number {
    return this.db.writes.failures;
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
