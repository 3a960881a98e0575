// The positions ledgers the execution service owns, one per (client, mode): loaded from their
// checkpoint plus the durable fills after it, checkpointed at most once a second.
import type { OrderLog } from './types.ts';
import { edgeSpec } from '../domain/venues.ts';
import { Ledger, type LedgerSnapshot } from './ledger/ledger.ts';
import { parseSymbol } from '../domain/market.ts';
import type { Mode } from '../domain/orders.ts';
import type { Logger } from '../engine/actor.ts';
import { ledgerFill } from './fills.ts';
import type { ExecutionConfig } from './types.ts';

const LEDGER_CHECKPOINT_MS = 1_000;

export interface LedgerState {
  client: string;
  mode: Mode;
  ledger: Ledger;
  /** id of the last fill the ledger holds */
  watermark: number;
  dirty: boolean;
}

/** What LMDB keeps of a ledger: the snapshot without its fill-id history, and the last fill in it. */
export interface LedgerCheckpoint {
  snapshot: LedgerSnapshot;
  watermark: number;
}
/** Base assets a simulated account starts with, besides its cash. */
const SIM_BASE_ASSETS: Record<string, number> = { BTC: 1, ETH: 10, SOL: 100 };

export class Ledgers {
  private readonly states = new Map<string, LedgerState>();
  private checkpointTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly orders: OrderLog,
    private readonly log: Logger,
    private readonly config: Pick<ExecutionConfig, 'simAccountUsd'>,
    /** USD mark of an asset, for the base assets a simulated account opens with. */
    private readonly markOf: (asset: string) => number | undefined,
  ) {}

  /**
   * The client's positions ledger in a mode. Fills are the durable truth; the ledger is a
   * checkpoint (written at most once a second, without the fill-id history) plus the fills after
   * its watermark, replayed here on first use after a restart. Reservations do not survive a
   * restart: the orders that held them were reconciled.
   */
  ledger(client: string, mode: Mode): Ledger {
    return this.state(client, mode).ledger;
  }

  state(client: string, mode: Mode): LedgerState {
    const key = `${client}|${mode}`;
    let state = this.states.get(key);
    if (state !== undefined) return state;
    const ledger = new Ledger(mode);
    state = { client, mode, ledger, watermark: 0, dirty: false };
    const stored = this.orders.getLedger(client, mode) as LedgerCheckpoint | undefined;
    if (stored !== undefined) {
      const restored = ledger.restore(stored.snapshot);
      if (!restored.ok) this.log.error({ client_id: client, mode, reason: restored.reason }, 'ledger checkpoint not restored');
      for (const r of stored.snapshot.reservations) ledger.release(r.id);
      state.watermark = stored.watermark;
    }
    const parts = (symbol: string) => parseSymbol(symbol)!;
    for (const fill of this.orders.fillsAfter(client, mode, state.watermark)) {
      ledger.applyFill(ledgerFill(fill, parts(fill.symbol).quote));
      state.watermark = fill.id;
    }
    this.states.set(key, state);
    return state;
  }

  /** Writes the checkpoint of every ledger changed since the last one. */
  checkpoint(): void {
    for (const state of this.states.values()) {
      if (!state.dirty) continue;
      state.dirty = false;
      const checkpoint: LedgerCheckpoint = { snapshot: state.ledger.snapshot({ withFillIds: false }), watermark: state.watermark };
      this.orders.putLedger(state.client, state.mode, checkpoint);
    }
  }

  start(): void {
    // A router's log holds writes until `durable()`: ship the checkpoint even when no order follows.
    this.checkpointTimer = setInterval(() => {
      this.checkpoint();
      this.orders.durable().catch((err: unknown) => this.log.warn({ err }, 'ledger checkpoint not journaled'));
    }, LEDGER_CHECKPOINT_MS);
    this.checkpointTimer.unref();
  }

  /** Stops the timer and writes the last checkpoint; the caller awaits its durability. */
  stop(): void {
    clearInterval(this.checkpointTimer);
    this.checkpoint();
  }

  /**
   * A simulated venue opens an account when credentials are stored: cash per quote currency it
   * trades and some base assets. Existing balances on the venue are left alone.
   */
  async openSimAccount(client: string, mode: Mode, venue: string): Promise<void> {
    const ledger = this.ledger(client, mode);
    if (ledger.rows().some((r) => r.venue === venue)) return;
    const quotes = new Set<string>();
    for (const spec of [edgeSpec(`venue-edge-${venue}`), edgeSpec(`venue-edge-${venue}-perp`)]) {
      for (const listing of spec?.listings ?? []) quotes.add(listing.quote);
    }
    if (quotes.size === 0) return; // prediction venues list no markets yet
    const balances = [
      // BigInt: SIM_ACCOUNT_USD of 1e8 is 1e16 in _1e8 units, past 2^53; as a number it was dropped.
      ...[...quotes].map((asset) => ({ asset, qty_1e8: BigInt(this.config.simAccountUsd) * 100_000_000n })),
      ...Object.entries(SIM_BASE_ASSETS).map(([asset, qty]) => ({ asset, qty_1e8: qty * 1e8, mark_usd_1e9: this.markOf(asset) })),
    ];
    ledger.seed(venue, balances);
    this.state(client, mode).dirty = true;
    this.checkpoint();
    await this.orders.durable();
  }
}
