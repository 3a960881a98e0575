// The positions ledgers the execution service owns, one per (client, mode): loaded from their
// checkpoint plus the durable fills after it. Changes that are not fills (accounts opened,
// sandbox writes and resets) are checkpointed at once; fills at most once a second, and for a
// large ledger only once enough fills make it worth rewriting (`checkpointDue`).
import type { OrderLog } from './types.ts';
import { edgesOfVenue, venues } from '../domain/venues.ts';
import { CHAINS, WALLET_GAS_ETH_1E8 } from '../domain/chains.ts';
import { instrumentKey, Ledger, type ContractOutcome, type EventContractInstrument, type LedgerSnapshot } from './ledger/ledger.ts';
import { contractOutcome, type ResolutionFacts } from './contract-outcomes.ts';
import { nowNs } from '../domain/units.ts';
import { refuse, ResultCode } from './result-codes.ts';
import { SANDBOX_MAX_ROWS, statedPosition, type SandboxWireRow, type StatedPosition } from './sandbox.ts';
import { isPredictionVenue } from '../domain/prediction/catalog.ts';
import { cashOf } from '../domain/prediction/order-leg.ts';
import type { Mode } from '../domain/orders.ts';
import type { Logger } from '../engine/actor.ts';
import { ledgerFill } from './fills.ts';
import type { ExecutionConfig } from './types.ts';
import type { FundingPoint } from '../actors/edge/messages.ts';
import type { FundingAccrual } from './funding-clock.ts';

const LEDGER_CHECKPOINT_MS = 1_000;
/**
 * A ledger changed by fills is rewritten once it holds at most this many rows per fill since
 * its last checkpoint: a checkpoint row and a fill record are about the same size, so the
 * checkpoint bytes stay within a few times the fill bytes they replace, and a restart replays
 * at most rows / ROWS_PER_FILL fills. A 20-row live account checkpoints after 3 fills; a
 * 10,000-row sandbox account after 1,250 (it was megabytes a second while trading).
 */
export const ROWS_PER_FILL = 8;
/** ...or once its oldest unwritten fill is this old, whatever its size. */
export const MAX_CHECKPOINT_AGE_MS = 60_000;

/** Whether a ledger of `rows` rows with `fills` fills since its last checkpoint, `ageMs` ago, is rewritten now. */
export function checkpointDue(rows: number, fills: number, ageMs: number): boolean {
  return fills > 0 && (rows <= ROWS_PER_FILL * fills || ageMs >= MAX_CHECKPOINT_AGE_MS);
}

export interface LedgerState {
  client: string;
  mode: Mode;
  ledger: Ledger;
  /** id of the last fill the ledger holds */
  watermark: number;
  /** Fills applied since the last checkpoint (durable in the fill log, replayed after a restart). */
  fillsSince: number;
  /** When the first of those fills was applied (ms), 0 when there are none. */
  firstFillMs: number;
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
    /** The stored resolution binding an event contract, for rows that missed the live event (a restart, a late position). */
    private readonly storedOutcome: (contract: EventContractInstrument, venue: string) => ContractOutcome | undefined = () => undefined,
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
    state = { client, mode, ledger, watermark: 0, fillsSince: 0, firstFillMs: 0 };
    const stored = this.orders.getLedger(client, mode) as LedgerCheckpoint | undefined;
    if (stored !== undefined) {
      const restored = ledger.restore(stored.snapshot);
      if (!restored.ok) this.log.error({ client_id: client, mode, reason: restored.reason }, 'ledger checkpoint not restored');
      for (const r of stored.snapshot.reservations) ledger.release(r.id);
      state.watermark = stored.watermark;
    }
    for (const fill of this.orders.fillsAfter(client, mode, state.watermark)) {
      ledger.applyFill(ledgerFill(fill));
      state.watermark = fill.id;
    }
    // Markets that resolved while the ledger was not loaded bind its contracts now.
    if (ledger.resolveContracts(this.storedOutcome).length > 0) this.write(state);
    this.states.set(key, state);
    return state;
  }

  /**
   * A market resolved (the lifecycle event, stored before it reached here): the loaded ledgers'
   * rows of it become `resolved` at once, checkpointed and durable before this resolves. Ledgers
   * not loaded meet it when they load (`state`). Answers how many rows moved.
   */
  async resolve(r: ResolutionFacts): Promise<number> {
    let moved = 0;
    for (const state of this.states.values()) {
      const rows = state.ledger.resolveContracts((contract, venue) => contractOutcome(r, contract, venue));
      if (rows.length === 0) continue;
      moved += rows.length;
      this.write(state);
    }
    if (moved > 0) await this.orders.durable();
    return moved;
  }

  /**
   * Redeems the client's resolved rows of these markets on `venue`: each pays its economic value
   * into the venue's cash and becomes `redeemed`; durable before it resolves. Answers the rows redeemed.
   */
  async redeem(client: string, mode: Mode, venue: string, markets: readonly ResolutionFacts[]): Promise<number> {
    const state = this.state(client, mode);
    const now = nowNs();
    const rows = state.ledger.redeemContracts(
      (contract, v) => v === venue && markets.some((m) => contractOutcome(m, contract, v) !== undefined),
      (v) => (isPredictionVenue(v) ? cashOf(v) : 'USD'),
      now,
    );
    const redeemed = rows.filter((r) => r.instrument.kind === 'event_contract').length;
    if (redeemed > 0) {
      this.write(state);
      await this.orders.durable();
    }
    return redeemed;
  }

  /** The client's resolved (unredeemed) rows of these markets on `venue`. */
  countResolved(client: string, mode: Mode, venue: string, markets: readonly ResolutionFacts[]): number {
    let n = 0;
    for (const r of this.state(client, mode).ledger.rows()) {
      const inst = r.instrument;
      if (r.venue === venue && inst.kind === 'event_contract' && r.lifecycle.state === 'resolved' && markets.some((m) => contractOutcome(m, inst, venue) !== undefined)) n++;
    }
    return n;
  }

  /** The ledgers loaded now. */
  loaded(): Iterable<LedgerState> {
    return this.states.values();
  }

  /** The loaded ledgers' open perps by `venue|symbol`, each with the earliest funding instant any of them has settled. */
  openPerps(): Map<string, { venue: string; symbol: string; from_ns: number }> {
    const out = new Map<string, { venue: string; symbol: string; from_ns: number }>();
    for (const state of this.states.values()) {
      for (const p of state.ledger.openPerps()) {
        const key = `${p.venue}|${p.symbol}`;
        const seen = out.get(key);
        if (seen === undefined) out.set(key, { venue: p.venue, symbol: p.symbol, from_ns: p.funding_through_ns });
        else if (p.funding_through_ns < seen.from_ns) seen.from_ns = p.funding_through_ns;
      }
    }
    return out;
  }

  /**
   * Funding instants of a perp listing as its venue settled them (ascending): every loaded
   * ledger's open position there pays or receives each instant it held the position through,
   * once; checkpointed and durable before this resolves. Answers the accruals, for the
   * `funding` channel.
   */
  async accrueFunding(venue: string, symbol: string, points: readonly FundingPoint[]): Promise<{ client: string; mode: Mode; frame: FundingAccrual }[]> {
    const out: { client: string; mode: Mode; frame: FundingAccrual }[] = [];
    for (const state of this.states.values()) {
      let changed = false;
      for (const p of points) {
        const r = state.ledger.accrueFunding({ venue, symbol, ts_ns: p.ts_ns, rate_1e9: p.rate_1e9, mark_1e9: p.mark_1e9 });
        if (r === undefined) continue;
        changed = true;
        out.push({
          client: state.client,
          mode: state.mode,
          frame: { kind: 'accrual', venue, symbol, position_id: r.row.id, ts_ns: p.ts_ns, rate_1e9: p.rate_1e9, mark_1e9: p.mark_1e9, qty_1e8: Number(r.row.qty_1e8), paid_usd_1e9: Number(r.paid_usd_1e9), funding_usd_1e9: Number(r.row.funding_usd_1e9) },
        });
      }
      if (changed) this.write(state);
    }
    if (out.length > 0) await this.orders.durable();
    return out;
  }

  /** A fill was applied to `state`'s ledger (its record is put in the same turn). */
  filled(state: LedgerState, fillId: number): void {
    state.watermark = fillId;
    if (state.fillsSince++ === 0) state.firstFillMs = Date.now();
  }

  /** Writes the checkpoint of every ledger whose fills make one due (`all`: every ledger with fills since its last). */
  checkpoint(all = false): void {
    const now = Date.now();
    for (const state of this.states.values()) {
      if (all ? state.fillsSince > 0 : checkpointDue(state.ledger.rowCount, state.fillsSince, now - state.firstFillMs)) this.write(state);
    }
  }

  /** Writes one ledger's checkpoint now (put in the router's log; durable with its next flush). */
  private write(state: LedgerState): void {
    state.fillsSince = 0;
    state.firstFillMs = 0;
    const checkpoint: LedgerCheckpoint = { snapshot: state.ledger.snapshot({ withFillIds: false }), watermark: state.watermark };
    this.orders.putLedger(state.client, state.mode, checkpoint);
  }

  start(): void {
    // A router's log holds writes until `durable()`: ship the checkpoint even when no order follows.
    this.checkpointTimer = setInterval(() => {
      this.checkpoint();
      this.orders.durable().catch((err: unknown) => this.log.warn({ err }, 'ledger checkpoint not journaled'));
    }, LEDGER_CHECKPOINT_MS);
    this.checkpointTimer.unref();
  }

  /** Stops the timer and writes the last checkpoints; the caller awaits their durability. */
  stop(): void {
    clearInterval(this.checkpointTimer);
    this.checkpoint(true);
  }

  /**
   * A simulated venue opens an account when credentials are stored: cash per quote currency it
   * trades and some base assets. Existing balances on the venue are left alone.
   */
  async openSimAccount(client: string, mode: Mode, venue: string): Promise<void> {
    const ledger = this.ledger(client, mode);
    if (ledger.rows().some((r) => r.venue === venue)) return;
    const quotes = quoteAssetsOf(venue);
    if (quotes.size === 0) return;
    const balances = [
      // BigInt: SIM_ACCOUNT_USD of 1e8 is 1e16 in _1e8 units, past 2^53; as a number it was dropped.
      ...[...quotes].map((asset) => ({ asset, qty_1e8: BigInt(this.config.simAccountUsd) * 100_000_000n })),
      // A prediction venue's account holds cash only: its contracts are bought.
      ...(isPredictionVenue(venue) ? [] : Object.entries(SIM_BASE_ASSETS).map(([asset, qty]) => ({ asset, qty_1e8: qty * 1e8, mark_usd_1e9: this.markOf(asset) }))),
    ];
    ledger.seed(venue, balances);
    this.write(this.state(client, mode));
    await this.orders.durable();
  }

  /**
   * A live venue's balances, as the venue reports them (at the router's start, when credentials
   * are stored): each asset's row takes the venue's total (free + locked), the venue being the
   * truth of what the account holds. Durable before it resolves.
   */
  async syncVenue(client: string, mode: Mode, venue: string, balances: readonly { asset: string; qty_1e8: bigint }[]): Promise<void> {
    const state = this.state(client, mode);
    const seeded = state.ledger.seed(
      venue,
      balances.map((b) => ({ asset: b.asset, qty_1e8: b.qty_1e8, mark_usd_1e9: this.markOf(b.asset) })),
    );
    if (seeded.rows.length === 0) return;
    this.write(state);
    await this.orders.durable();
  }

  /**
   * A managed wallet was created: the simulated chains fund it (a faucet) with gas and
   * `usdc_1e8` of USDC on each chain it holds nothing on yet; its balances are the chain
   * venues' rows. Durable before it resolves; answers the chains funded.
   */
  async fundWallet(client: string, mode: Mode, usdc_1e8: bigint): Promise<string[]> {
    const state = this.state(client, mode);
    const funded: string[] = [];
    for (const { chain, native } of CHAINS) {
      if (state.ledger.rows().some((r) => r.venue === chain)) continue;
      state.ledger.seed(chain, [
        { asset: native, qty_1e8: WALLET_GAS_ETH_1E8, mark_usd_1e9: this.markOf(native) },
        { asset: 'USDC', qty_1e8: usdc_1e8 },
      ]);
      funded.push(chain);
    }
    if (funded.length > 0) {
      this.write(state);
      await this.orders.durable();
    }
    return funded;
  }

  /** A withdrawal from the wallet's balance on a chain: false when it holds less than `qty_1e8` available. */
  async withdraw(client: string, mode: Mode, chain: string, token: string, qty_1e8: bigint): Promise<{ left_qty_1e8: bigint } | false> {
    const state = this.state(client, mode);
    const row = state.ledger.transferOut(chain, token, qty_1e8);
    if (row === false) return false;
    this.write(state);
    await this.orders.durable();
    return { left_qty_1e8: row.qty_1e8 };
  }

  /**
   * POST /v1/sandbox/positions (rules 3 and 6): with `replace` every sandbox row (and
   * reservation) goes first, then each position is set, in order (a later one for the same
   * (venue, instrument) wins). One unit: checked whole before the ledger changes (rows that are
   * not checked positions, or more than SANDBOX_MAX_ROWS rows after the write, refuse it all),
   * then checkpointed and durable before it resolves. Orders see the new balances at once.
   */
  async writeSandbox(client: string, rows: readonly SandboxWireRow[], replace: boolean): Promise<{ written: number; deleted: number }> {
    const state = this.state(client, 'sandbox');
    const ledger = state.ledger;
    const positions: StatedPosition[] = [];
    for (const row of rows) {
      const p = statedPosition(row);
      if (p === undefined) throw refuse(ResultCode.INVALID_FIELD, `not a sandbox position: ${String(row[0])} ${String(row[1])} ${String(row[2])}`, 'positions');
      positions.push(p);
    }
    const added = new Set<string>();
    for (const p of positions) if (replace || ledger.row(p.venue, p.instrument) === undefined) added.add(`${p.venue}|${instrumentKey(p.instrument)}`);
    if ((replace ? 0 : ledger.rowCount) + added.size > SANDBOX_MAX_ROWS) {
      throw refuse(ResultCode.SANDBOX_POSITIONS_LIMIT, `a sandbox account holds at most ${SANDBOX_MAX_ROWS} positions; this write would leave ${(replace ? 0 : ledger.rowCount) + added.size}`, 'positions');
    }
    const deleted = replace ? ledger.clear() : 0;
    const at = nowNs();
    for (const p of positions) ledger.setPosition(p.venue, p.instrument, p.qty_1e8, p.entry_price_usd_1e9, at);
    // A contract of a market that has resolved is resolved as it is written.
    ledger.resolveContracts(this.storedOutcome);
    this.write(state);
    await this.orders.durable();
    return { written: positions.length, deleted };
  }

  /**
   * POST /v1/sandbox/reset (rule 7), after the router ended the working orders: every sandbox
   * row and reservation goes, then every venue gets `balance_1e8` of each quote asset it trades
   * (a prediction venue: its cash). A bigint:
   * the default billion dollars is 1e17 in _1e8 units, past 2^53. Durable before it resolves;
   * answers the venues seeded, in venue order (none for a zero balance).
   */
  async resetSandbox(client: string, balance_1e8: bigint): Promise<string[]> {
    const state = this.state(client, 'sandbox');
    const ledger = state.ledger;
    ledger.clear();
    const seeded: string[] = [];
    for (const { venue } of venues()) {
      const quotes = quoteAssetsOf(venue);
      if (quotes.size === 0 || balance_1e8 <= 0n) continue;
      ledger.seed(venue, [...quotes].map((asset) => ({ asset, qty_1e8: balance_1e8 })));
      seeded.push(venue);
    }
    this.write(state);
    await this.orders.durable();
    return seeded;
  }
}

/** The quote assets a venue trades, over its spot and perp edges; a prediction venue's cash (USD, USDC). */
export function quoteAssetsOf(venue: string): Set<string> {
  if (isPredictionVenue(venue)) return new Set([cashOf(venue)]);
  const quotes = new Set<string>();
  for (const spec of edgesOfVenue(venue)) for (const listing of spec.listings) quotes.add(listing.quote);
  return quotes;
}
