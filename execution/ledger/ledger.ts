/**
 * Positions ledger of one (client, mode): the unified position model of the spec ("Position"),
 * spot rows now, with the instrument and lifecycle types already shaped for perps and event
 * contracts. Pure: no I/O, no clock, no timers. docs/positions-and-tca.md holds every formula
 * and rounding rule with a worked example; README.md next to this file is the short version.
 *
 *   seed(venue, balances)          venue balance poll -> qty (and entry at $1 or the given mark)
 *   setPosition / clear            a stated position of any kind; every row gone (the sandbox endpoints)
 *   reserve / consume / release    pre-trade risk: locked_qty, so two orders cannot spend one cash
 *   applyFill(fill)                exactly once per fill_id:
 *     1. base leg   +-qty          at price x quote_usd   (weighted-average entry / realized PnL)
 *     2. quote leg  -+price x qty  at quote_usd           (cost rounded up, proceeds down)
 *     3. fee leg    -fee_qty       of fee_asset           (quantity only; USD fee on the base row)
 *     4. reservation consumed by what the fill debited from the reserved row
 *   view(marks, filters)           -> {positions, totals} in the spec's JSON shape (numbers)
 *   snapshot() / restore()         plain JSON (bigints as decimal strings) for LMDB
 *
 * Amounts are bigint inside: a $10M NAV is 1e16 in usd_1e9, past 2^53, and price x qty products
 * are ~1e22. Inputs take number (safe integers) or bigint; `view` converts to number at the end,
 * which is what a JSON number can carry anyway.
 */
import { parseSymbol } from '../../domain/market.ts';
import type { Mode } from '../../domain/orders.ts';
import { RecentSet } from '../../domain/recent.ts';
import { exactInt, type ExactInt } from '../../domain/units.ts';
import { belowMaintenance, fundingPayment1e9, initialMargin1e8, liquidationPrice1e9, maintenanceBps, maintenanceMargin1e9, quoteUsd1e9, settleUsd1e8, type PerpTerms } from './perp.ts';

// --- Vocabulary -------------------------------------------------------------------------------

/** Fiat codes (kind `fiat`). USD is $1 by definition; EUR and GBP are valued by their mark. */
export const FIAT_CODES = ['USD', 'EUR', 'GBP'] as const;
/** Stablecoins of the spec's totals rule: kind `crypto`, valued at $1 and counted as cash. */
export const STABLECOINS = ['USDT', 'USDC', 'DAI', 'BUSD', 'FDUSD', 'TUSD', 'USDP'] as const;

const FIAT_SET: ReadonlySet<string> = new Set(FIAT_CODES);
/** Fill ids a ledger remembers for exactly-once booking (see `fillIds`). */
export const FILL_ID_WINDOW = 50_000;
const STABLE_SET: ReadonlySet<string> = new Set(STABLECOINS);

export function isFiat(asset: string): boolean {
  return FIAT_SET.has(asset);
}

export function isStablecoin(asset: string): boolean {
  return STABLE_SET.has(asset);
}

/** USD and the stablecoins: booked and valued at exactly $1 (1e9), whatever a mark says. */
export function isDollarAsset(asset: string): boolean {
  return asset === 'USD' || STABLE_SET.has(asset);
}

export const INSTRUMENT_KINDS = ['fiat', 'crypto', 'perp', 'event_contract'] as const;
export type InstrumentKind = (typeof INSTRUMENT_KINDS)[number];

/** The spec's instrument tagged union. */
export type Instrument =
  | { kind: 'fiat'; code: string }
  | { kind: 'crypto'; symbol: string }
  | { kind: 'perp'; symbol: string; base: string }
  | { kind: 'event_contract'; market_slug: string; outcome: string; token_id: string | null; expiry_ts: number | null };

export type EventContractInstrument = Extract<Instrument, { kind: 'event_contract' }>;

/** How a market came out for one contract row: whether it holds the winning outcome, and when it resolved (ns). */
export interface ContractOutcome {
  won: boolean;
  resolved_at_ns: number;
}

/**
 * The spec's lifecycle ("States and transitions": Position). Spot rows are only ever `active` or
 * `closed`; `resolved` and `redeemed` belong to event contracts and are typed here so the row
 * shape does not change when they arrive. Timestamps are ns, as the spec names them.
 */
export type Lifecycle =
  | { state: 'active' }
  | { state: 'closed' }
  | { state: 'resolved'; resolved_at: number; economic_value_usd_1e9: number }
  | {
      state: 'redeemed';
      resolved_at: number;
      economic_value_usd_1e9: number;
      redeemed_at: number;
      cash_received_usd_1e9: number;
    };
export type LifecycleState = Lifecycle['state'];

/** Spot asset -> its instrument: fiat codes are `fiat`, everything else (stablecoins too) `crypto`. */
export function instrumentForAsset(asset: string): Instrument {
  return FIAT_SET.has(asset) ? { kind: 'fiat', code: asset } : { kind: 'crypto', symbol: asset };
}

/**
 * Key of an instrument within a venue. Spot rows are keyed by the bare asset (fiat codes and
 * crypto symbols cannot collide: the asset decides the kind), so the fill path builds no string.
 */
export function instrumentKey(instrument: Instrument): string {
  switch (instrument.kind) {
    case 'fiat':
      return instrument.code;
    case 'crypto':
      return instrument.symbol;
    case 'perp':
      return `perp:${instrument.symbol}`;
    case 'event_contract':
      return `event:${instrument.market_slug}|${instrument.outcome}|${instrument.token_id ?? ''}`;
  }
}

/** The name a mark function is asked about: the code, the symbol, or `slug:outcome`. */
export function markAssetOf(instrument: Instrument): string {
  switch (instrument.kind) {
    case 'fiat':
      return instrument.code;
    case 'crypto':
    case 'perp':
      return instrument.symbol;
    case 'event_contract':
      return `${instrument.market_slug}:${instrument.outcome}`;
  }
}

// --- Rows ---------------------------------------------------------------------------------------

/** A row as the ledger holds it (returned as a copy; bigint amounts). */
export interface LedgerRow {
  readonly id: number;
  readonly venue: string;
  readonly instrument: Instrument;
  /** signed, native units x 1e8 */
  readonly qty_1e8: bigint;
  /** reserved for open orders (and later perp margin) */
  readonly locked_qty_1e8: bigint;
  /** qty - locked; negative only if a venue reported spending beyond what was reserved */
  readonly available_qty_1e8: bigint;
  readonly entry_price_usd_1e9: bigint;
  readonly realized_pnl_usd_1e9: bigint;
  readonly fees_usd_1e9: bigint;
  readonly lifecycle: Lifecycle;
  readonly transferable: boolean;
  readonly settled: boolean;
  readonly settled_mark_usd_1e9: bigint | null;
  /** Perp rows: initial margin locked on the quote row (quote x 1e8), funding so far (USD x 1e9). */
  readonly margin_qty_1e8: bigint;
  readonly funding_usd_1e9: bigint;
}

interface Row {
  readonly id: number;
  readonly venue: string;
  readonly instrument: Instrument;
  readonly key: string;
  qty: bigint;
  locked: bigint;
  entry: bigint;
  realized: bigint;
  fees: bigint;
  lifecycle: Lifecycle;
  settled: boolean;
  settledMark: bigint | null;
  /** Perp rows: the initial margin this position holds locked on its quote row (quote x 1e8). */
  margin: bigint;
  /** Perp rows: funding received (+) or paid (-) so far, USD x 1e9; also in `realized`. */
  funding: bigint;
  /** Perp rows: initial margin rate of the listing, bps (0 on other rows). */
  imrBps: number;
  /** Perp rows: the last funding instant settled (ns), or the instant the position opened. */
  fundingThroughNs: number;
}

interface Reservation {
  readonly id: number;
  readonly row: Row;
  remaining: bigint;
}

/** One amount as the API takes it: a safe-integer number or a bigint. */
export type IntLike = number | bigint;

// --- Inputs and outputs -----------------------------------------------------------------------

export interface SeedBalance {
  /** fiat code or crypto symbol, e.g. `USD`, `USDT`, `BTC` */
  asset: string;
  /** the venue's total balance (free + locked at the venue), native units x 1e8 */
  qty_1e8: IntLike;
  /**
   * USD mark used as the entry price of a new (or flat) row. Ignored for $1 assets. Absent for
   * anything else: entry 0 ("cost basis unknown") until a sync supplies one.
   */
  mark_usd_1e9?: IntLike;
}

/** One spot fill on `BASE-QUOTE`, as the ledger books it. */
export interface SpotFill {
  /** idempotency key: a fill_id seen before is ignored */
  fill_id: string;
  venue: string;
  symbol: string;
  side: 'buy' | 'sell';
  /** base quantity, > 0 */
  qty_1e8: IntLike;
  /** quote per base x 1e9, > 0 */
  price_1e9: IntLike;
  /** USD value of the fee x 1e9 (negative for a rebate) */
  fee_1e9: IntLike;
  /** asset the venue charged the fee in (the quote, the base, or a third one like BNB) */
  fee_asset: string;
  /** fee in fee_asset units x 1e8 (negative for a rebate); 0 for no fee */
  fee_qty_1e8: IntLike;
  /** USD value of one quote unit x 1e9; ignored (taken as 1e9) when the quote is a $1 asset */
  quote_usd_1e9: IntLike;
  /** reservation this fill spends from (see `reserve`) */
  reservation?: number;
  /** An event-contract fill: the contract bought or sold (`symbol` is then the leg's name, not a pair)... */
  contract?: Instrument;
  /** ...and the cash it is paid in (USD, USDC). */
  cash?: string;
  /**
   * A perpetual fill: `symbol` is the perp's pair, its quote (a $1 asset) the margin; the
   * listing's margin rate, and when it filled (ns: funding instants before it are not owed).
   */
  perp?: PerpTerms & { ts_ns: number };
}

/** One funding instant of a perp listing on a venue, as the venue settled it. */
export interface FundingSettlement {
  venue: string;
  symbol: string;
  /** The funding instant, ns. */
  ts_ns: number;
  /** Rate of the interval, x 1e9 (positive: longs pay shorts). */
  rate_1e9: IntLike;
  /** The venue's mark at the instant, USD x 1e9. */
  mark_1e9: IntLike;
}

export type FillRejectReason =
  | 'invalid_fill_id'
  | 'invalid_side'
  | 'invalid_symbol'
  | 'invalid_amount'
  | 'invalid_fee_asset';

export type ApplyFillResult =
  | {
      status: 'applied';
      /** every row this fill changed (base, quote, fee asset), each once, as copies */
      rows: LedgerRow[];
      /** how much of `fill.reservation` this fill consumed (0 when none or unknown) */
      consumed_qty_1e8: bigint;
    }
  | { status: 'duplicate' }
  | { status: 'rejected'; reason: FillRejectReason };

/** USD mark x 1e9 of an asset (e.g. the consolidated NBBO mid of `<asset>-USD`), or undefined. */
export type MarkFn = (asset: string, instrument: Instrument) => number | undefined;

export interface PositionFilters {
  /** default: every venue */
  venues?: readonly string[];
  /** default: every kind */
  kinds?: readonly InstrumentKind[];
  /** default false: `closed` and `redeemed` rows are hidden (`resolved` rows always show) */
  include_closed?: boolean;
}

/** A row in the spec's JSON shape. */
export interface PositionView {
  id: number;
  venue: string;
  instrument: Instrument;
  qty_1e8: ExactInt;
  locked_qty_1e8: ExactInt;
  available_qty_1e8: ExactInt;
  entry_price_usd_1e9: ExactInt;
  /** absent on fiat rows (spec: fiat rows omit the price-mark fields) */
  current_price_usd_1e9?: ExactInt;
  current_value_usd_1e9: ExactInt;
  unrealized_pnl_usd_1e9: ExactInt;
  realized_pnl_usd_1e9: ExactInt;
  fees_usd_1e9: ExactInt;
  lifecycle: Lifecycle;
  transferable: boolean;
  settled: boolean;
  /** only on event-contract rows: null before settlement */
  settled_mark_usd_1e9?: ExactInt | null;
  /** Perp rows (docs/positions-and-tca.md, "Perpetuals"): the margin locked on the quote row, maintenance, leverage, liquidation, funding. */
  initial_margin_usd_1e9?: ExactInt;
  maintenance_margin_usd_1e9?: ExactInt;
  leverage?: number;
  liquidation_price_1e9?: ExactInt | null;
  margin_state?: 'ok' | 'below_maintenance';
  funding_usd_1e9?: ExactInt;
  is_sandbox: boolean;
}

export interface PositionTotals {
  nav_usd_1e9: ExactInt;
  cash_usd_1e9: ExactInt;
  unrealized_pnl_usd_1e9: ExactInt;
  realized_pnl_usd_1e9: ExactInt;
  fees_usd_1e9: ExactInt;
  num_positions: number;
}

export interface PositionsView {
  positions: PositionView[];
  totals: PositionTotals;
}

// --- Snapshot ---------------------------------------------------------------------------------

export const LEDGER_SNAPSHOT_VERSION = 1;

export interface LedgerRowSnapshot {
  id: number;
  venue: string;
  instrument: Instrument;
  qty_1e8: string;
  locked_qty_1e8: string;
  entry_price_usd_1e9: string;
  realized_pnl_usd_1e9: string;
  fees_usd_1e9: string;
  lifecycle: Lifecycle;
  settled: boolean;
  settled_mark_usd_1e9: string | null;
  /** Perp rows only (absent: 0). */
  margin_qty_1e8?: string;
  funding_usd_1e9?: string;
  imr_bps?: number;
  funding_through_ns?: number;
}

export interface ReservationSnapshot {
  id: number;
  row_id: number;
  remaining_qty_1e8: string;
}

/** Plain JSON: bigints as decimal strings, rows in id order. */
export interface LedgerSnapshot {
  version: typeof LEDGER_SNAPSHOT_VERSION;
  mode: Mode;
  next_row_id: number;
  next_reservation_id: number;
  rows: LedgerRowSnapshot[];
  reservations: ReservationSnapshot[];
  /** every fill id applied, in application order */
  fill_ids: string[];
}

export type RestoreResult = { ok: true } | { ok: false; reason: string };

// --- Integer helpers ----------------------------------------------------------------------------

const ZERO = 0n;
const QTY_SCALE = 100_000_000n;
const PRICE_SCALE = 1_000_000_000n;
const ONE_USD = 1_000_000_000n;

/** n / d rounded toward -infinity (d > 0). */
export function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== ZERO && n < ZERO ? q - 1n : q;
}

/** n / d rounded toward +infinity (d > 0). */
export function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== ZERO && n > ZERO ? q + 1n : q;
}

function abs(x: bigint): bigint {
  return x < ZERO ? -x : x;
}

/** A safe-integer number or any bigint, as bigint; undefined for anything else. */
function toBig(x: unknown): bigint | undefined {
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number' && Number.isSafeInteger(x)) return BigInt(x);
  return undefined;
}

function isLive(state: LifecycleState): boolean {
  return state === 'active' || state === 'resolved';
}

function transferableOf(instrument: Instrument): boolean {
  return instrument.kind === 'fiat' || instrument.kind === 'crypto';
}

// --- The ledger -----------------------------------------------------------------------------------

export class Ledger {
  readonly mode: Mode;
  /** venue -> instrument key -> row */
  private venues = new Map<string, Map<string, Row>>();
  /** every row in id (creation) order */
  private ordered: Row[] = [];
  private reservations = new Map<number, Reservation>();
  /**
   * The ids of the last FILL_ID_WINDOW fills applied, oldest first. A replay after a restart
   * presents only fills after the checkpoint's watermark (ledgers.ts), so this guards live
   * booking, where a repeat is recent; kept whole, it grew by every fill for ever (an unbounded
   * set in every router, found by the soak).
   */
  private fillIds = new RecentSet<string>(FILL_ID_WINDOW);
  private nextRowId = 1;
  private nextReservationId = 1;

  constructor(mode: Mode = 'live') {
    this.mode = mode;
  }

  /** A ledger in the snapshot's mode and state, or undefined when the snapshot is invalid. */
  static fromSnapshot(snapshot: unknown): Ledger | undefined {
    const parsed = parseSnapshot(snapshot);
    if (typeof parsed === 'string') return undefined;
    const ledger = new Ledger(parsed.mode);
    ledger.install(parsed);
    return ledger;
  }

  // --- reads ---

  row(venue: string, instrument: Instrument): LedgerRow | undefined {
    const row = this.venues.get(venue)?.get(instrumentKey(instrument));
    return row === undefined ? undefined : copyRow(row);
  }

  /** Spot shorthand for `row(venue, instrumentForAsset(asset))`. */
  asset(venue: string, asset: string): LedgerRow | undefined {
    const row = this.venues.get(venue)?.get(asset);
    return row === undefined ? undefined : copyRow(row);
  }

  /** Every row in id order, copies. */
  rows(): LedgerRow[] {
    return this.ordered.map(copyRow);
  }

  /** The venues this ledger holds any row on: in sandbox mode, the venues an order may use (balances stand in for credentials). */
  venueSet(): Set<string> {
    return new Set(this.venues.keys());
  }

  /** qty - locked of a spot asset (or of any instrument's row); 0 when there is no row. */
  available(venue: string, asset: string | Instrument): bigint {
    const row = this.venues.get(venue)?.get(typeof asset === 'string' ? asset : instrumentKey(asset));
    return row === undefined ? ZERO : row.qty - row.locked;
  }

  hasFill(fillId: string): boolean {
    return this.fillIds.has(fillId);
  }

  get fillCount(): number {
    return this.fillIds.size;
  }

  /** Rows held, closed ones included. */
  get rowCount(): number {
    return this.ordered.length;
  }

  /** Unconsumed quantity of a reservation, or undefined when it does not exist. */
  reservation(id: number): bigint | undefined {
    return this.reservations.get(id)?.remaining;
  }

  // --- seeding (venue balance polls) ---

  /**
   * Sets each asset's qty to the venue's balance. A new row (or one that was flat) takes its
   * entry price from $1 for USD and stablecoins, else from `mark_usd_1e9` (0 when absent); a
   * row that already holds a position keeps its cost basis. A zero balance for an asset with no
   * row creates nothing. Locked quantities (our reservations) are untouched. Returns the changed
   * rows; balances with a bad asset or amount are skipped and listed in `skipped`.
   */
  seed(venue: string, balances: readonly SeedBalance[]): { rows: LedgerRow[]; skipped: string[] } {
    const changed: Row[] = [];
    const skipped: string[] = [];
    for (const b of balances) {
      const qty = toBig(b.qty_1e8);
      const mark = b.mark_usd_1e9 === undefined ? ZERO : toBig(b.mark_usd_1e9);
      if (typeof b.asset !== 'string' || b.asset.length === 0 || qty === undefined || mark === undefined || mark < ZERO) {
        skipped.push(String(b.asset));
        continue;
      }
      const existing = this.venues.get(venue)?.get(b.asset);
      if (existing === undefined && qty === ZERO) continue;
      if (existing !== undefined && existing.qty === qty) continue;
      const row = existing ?? this.createRow(venue, instrumentForAsset(b.asset), b.asset);
      if (row.qty === ZERO) row.entry = isDollarAsset(b.asset) ? ONE_USD : mark;
      row.qty = qty;
      settleLifecycle(row);
      changed.push(row);
    }
    return { rows: changed.map(copyRow), skipped };
  }

  // --- stated positions (the sandbox endpoints) ---

  /**
   * Sets the row of `instrument` on `venue`, any kind, to `qty_1e8` at `entry_price_usd_1e9`,
   * creating it when missing: a position the client states (POST /v1/sandbox/positions), not
   * one traded into. Realized PnL, fees and the locked quantity stay (the row's history and its
   * working orders); qty 0 closes the row, anything else makes it active. Undefined, with
   * nothing changed, for an amount that is not an integer, a negative entry price, an empty
   * name, or a spot instrument of the other kind than its asset's (`instrumentForAsset`: a spot
   * row is keyed by its bare asset, so `crypto` USD would take the fiat row's place).
   * A stated perp owes no funding instant before `at_ns` (when it was stated): without it the
   * funding clock would charge it the venue's whole past history at its next tick.
   */
  setPosition(venue: string, instrument: Instrument, qty_1e8: IntLike, entry_price_usd_1e9: IntLike, at_ns = 0): LedgerRow | undefined {
    const qty = toBig(qty_1e8);
    const entry = toBig(entry_price_usd_1e9);
    if (qty === undefined || entry === undefined || entry < ZERO || typeof venue !== 'string' || venue.length === 0) return undefined;
    const checked = parseInstrument(instrument);
    if (checked === undefined) return undefined;
    if ((checked.kind === 'fiat' || checked.kind === 'crypto') && instrumentForAsset(markAssetOf(checked)).kind !== checked.kind) return undefined;
    const key = instrumentKey(checked);
    const row = this.venues.get(venue)?.get(key) ?? this.createRow(venue, checked, key);
    row.qty = qty;
    row.entry = entry;
    if (checked.kind === 'perp') row.fundingThroughNs = Math.max(row.fundingThroughNs, at_ns);
    settleLifecycle(row);
    return copyRow(row);
  }

  /**
   * Deletes every row and every reservation (a sandbox reset, or a write that replaces the
   * portfolio). Ids go on counting, so a row id is never reused; the fill ids are kept, so a
   * fill seen before is still booked once. Returns how many rows were deleted.
   */
  clear(): number {
    const deleted = this.ordered.length;
    this.venues = new Map();
    this.ordered = [];
    this.reservations = new Map();
    return deleted;
  }

  /**
   * Tokens sent out of the venue (a wallet withdrawal): the row's qty goes down at its entry
   * price, nothing realized. False, with nothing changed, for an amount that is not a positive
   * integer or more than is available (qty - locked).
   */
  transferOut(venue: string, asset: string, qty_1e8: IntLike): LedgerRow | false {
    const qty = toBig(qty_1e8);
    const row = this.venues.get(venue)?.get(asset);
    if (qty === undefined || qty <= ZERO || row === undefined || row.qty - row.locked < qty) return false;
    row.qty -= qty;
    settleLifecycle(row);
    return copyRow(row);
  }

  // --- reservations (pre-trade risk) ---

  /**
   * Locks `qty_1e8` of an asset for an open order. False when the amount is not a positive
   * integer or exceeds what is available (qty - locked): two orders cannot spend the same cash.
   */
  reserve(venue: string, asset: string | Instrument, qty_1e8: IntLike): number | false {
    const qty = toBig(qty_1e8);
    if (qty === undefined || qty <= ZERO) return false;
    const row = this.venues.get(venue)?.get(typeof asset === 'string' ? asset : instrumentKey(asset));
    if (row === undefined || row.qty - row.locked < qty) return false;
    row.locked += qty;
    const id = this.nextReservationId++;
    this.reservations.set(id, { id, row, remaining: qty });
    return id;
  }

  /**
   * Spends up to `qty_1e8` of a reservation (a fill happened): the reservation and the row's
   * locked qty shrink by the same amount, never below 0. Returns what remains reserved, or
   * false for an unknown id or a bad amount. A reservation lives until `release`.
   */
  consume(id: number, qty_1e8: IntLike): bigint | false {
    const res = this.reservations.get(id);
    const qty = toBig(qty_1e8);
    if (res === undefined || qty === undefined || qty < ZERO) return false;
    const take = qty < res.remaining ? qty : res.remaining;
    res.remaining -= take;
    res.row.locked -= take;
    return res.remaining;
  }

  /** Ends a reservation, unlocking what it still held. Returns that amount, or false if unknown. */
  release(id: number): bigint | false {
    const res = this.reservations.get(id);
    if (res === undefined) return false;
    res.row.locked -= res.remaining;
    this.reservations.delete(id);
    return res.remaining;
  }

  // --- fills ---

  applyFill(fill: SpotFill): ApplyFillResult {
    if (typeof fill.fill_id !== 'string' || fill.fill_id.length === 0) return { status: 'rejected', reason: 'invalid_fill_id' };
    if (this.fillIds.has(fill.fill_id)) return { status: 'duplicate' };
    if (fill.side !== 'buy' && fill.side !== 'sell') return { status: 'rejected', reason: 'invalid_side' };
    if (fill.perp !== undefined) return this.applyPerpFill(fill, fill.perp);
    // An event-contract fill names its contract and its cash; a spot fill its BASE-QUOTE pair.
    const contract = fill.contract === undefined ? undefined : parseInstrument(fill.contract);
    if (fill.contract !== undefined && (contract?.kind !== 'event_contract' || typeof fill.cash !== 'string' || fill.cash.length === 0)) return { status: 'rejected', reason: 'invalid_symbol' };
    const parts = contract !== undefined ? { base: instrumentKey(contract), quote: fill.cash! } : parseSymbol(fill.symbol);
    if (parts === undefined || parts.base === parts.quote) return { status: 'rejected', reason: 'invalid_symbol' };
    const qty = toBig(fill.qty_1e8);
    const price = toBig(fill.price_1e9);
    const fee = toBig(fill.fee_1e9);
    const feeQty = toBig(fill.fee_qty_1e8);
    const quoteUsdIn = toBig(fill.quote_usd_1e9);
    if (
      qty === undefined || qty <= ZERO ||
      price === undefined || price <= ZERO ||
      fee === undefined || feeQty === undefined ||
      quoteUsdIn === undefined || quoteUsdIn <= ZERO
    ) {
      return { status: 'rejected', reason: 'invalid_amount' };
    }
    if (feeQty !== ZERO && (typeof fill.fee_asset !== 'string' || fill.fee_asset.length === 0)) {
      return { status: 'rejected', reason: 'invalid_fee_asset' };
    }

    const { base, quote } = parts;
    const buy = fill.side === 'buy';
    // $1 quotes are booked at exactly $1 so USD value is conserved across the two legs.
    const quoteUsd = isDollarAsset(quote) ? ONE_USD : quoteUsdIn;
    // Quote amount in qty_1e8: price_1e9 x qty_1e8 / 1e9, rounded against the client.
    const gross = price * qty;
    const quoteAmt = buy ? ceilDiv(gross, PRICE_SCALE) : floorDiv(gross, PRICE_SCALE);

    const venue = fill.venue;
    const baseRow = contract === undefined ? this.rowFor(venue, base) : (this.venues.get(venue)?.get(base) ?? this.createRow(venue, contract, base));
    const quoteRow = this.rowFor(venue, quote);
    const res = fill.reservation === undefined ? undefined : this.reservations.get(fill.reservation);
    let debited = ZERO; // what this fill took from the reserved row

    // 1. base leg at USD price = price x quote_usd / 1e9 (exact fraction, one rounding).
    const baseDelta = buy ? qty : -qty;
    trade(baseRow, baseDelta, price * quoteUsd, PRICE_SCALE);
    if (res !== undefined && res.row === baseRow && baseDelta < ZERO) debited -= baseDelta;
    // 2. quote leg at USD price = quote_usd.
    const quoteDelta = buy ? -quoteAmt : quoteAmt;
    trade(quoteRow, quoteDelta, quoteUsd, 1n);
    if (res !== undefined && res.row === quoteRow && quoteDelta < ZERO) debited -= quoteDelta;
    // 3. fee leg: a quantity change only; its USD value goes on the base row.
    const feeRow = feeQty === ZERO ? undefined : this.feeLeg(venue, fill.fee_asset, fee, feeQty);
    if (feeRow !== undefined && res !== undefined && res.row === feeRow && feeQty > ZERO) debited += feeQty;
    baseRow.fees += fee;

    // 4. reservation: spend what the fill took from the reserved row, up to what is left.
    let consumed = ZERO;
    if (res !== undefined && debited > ZERO) {
      consumed = debited < res.remaining ? debited : res.remaining;
      res.remaining -= consumed;
      res.row.locked -= consumed;
    }

    this.fillIds.add(fill.fill_id);
    const changed: Row[] = [baseRow, quoteRow];
    if (feeRow !== undefined && feeRow !== baseRow && feeRow !== quoteRow) changed.push(feeRow);
    for (const row of changed) settleLifecycle(row);
    return { status: 'applied', rows: changed.map(copyRow), consumed_qty_1e8: consumed };
  }

  // --- perpetuals (docs/positions-and-tca.md, "Perpetuals") ---

  /**
   * A perp fill: the signed position moves at the fill's price (average entry; realized PnL on a
   * reduction or flip, settled into the quote balance), the fee is paid as on spot, and the
   * position's initial margin is re-locked on the quote row. No notional changes hands. What
   * the fill took from the quote row (margin added, a loss, the fee) spends its reservation.
   */
  private applyPerpFill(fill: SpotFill, terms: PerpTerms & { ts_ns: number }): ApplyFillResult {
    const parts = parseSymbol(fill.symbol);
    if (parts === undefined || !isDollarAsset(parts.quote)) return { status: 'rejected', reason: 'invalid_symbol' };
    const qty = toBig(fill.qty_1e8);
    const price = toBig(fill.price_1e9);
    const fee = toBig(fill.fee_1e9);
    const feeQty = toBig(fill.fee_qty_1e8);
    if (qty === undefined || qty <= ZERO || price === undefined || price <= ZERO || fee === undefined || feeQty === undefined || !(terms.imr_bps > 0 && terms.imr_bps <= 10_000)) {
      return { status: 'rejected', reason: 'invalid_amount' };
    }
    if (feeQty !== ZERO && (typeof fill.fee_asset !== 'string' || fill.fee_asset.length === 0)) return { status: 'rejected', reason: 'invalid_fee_asset' };
    const venue = fill.venue;
    const instrument: Instrument = { kind: 'perp', symbol: fill.symbol, base: parts.base };
    const key = instrumentKey(instrument);
    const row = this.venues.get(venue)?.get(key) ?? this.createRow(venue, instrument, key);
    const quoteRow = this.rowFor(venue, parts.quote);
    const res = fill.reservation === undefined ? undefined : this.reservations.get(fill.reservation);
    // Funding instants before a position opened are not owed by it.
    if (row.qty === ZERO) row.fundingThroughNs = Math.max(row.fundingThroughNs, terms.ts_ns);
    const realizedBefore = row.realized;
    trade(row, fill.side === 'buy' ? qty : -qty, price * ONE_USD, PRICE_SCALE);
    const pnl = settleUsd1e8(row.realized - realizedBefore);
    trade(quoteRow, pnl, ONE_USD, 1n);
    let debited = pnl < ZERO ? -pnl : ZERO;
    const feeRow = feeQty === ZERO ? undefined : this.feeLeg(venue, fill.fee_asset, fee, feeQty);
    if (feeRow === quoteRow && feeQty > ZERO) debited += feeQty;
    row.fees += fee;
    row.imrBps = terms.imr_bps;
    const margin = initialMargin1e8(row.qty, row.entry, terms.imr_bps);
    quoteRow.locked += margin - row.margin;
    if (margin > row.margin) debited += margin - row.margin;
    row.margin = margin;
    let consumed = ZERO;
    if (res !== undefined && res.row === quoteRow && debited > ZERO) {
      consumed = debited < res.remaining ? debited : res.remaining;
      res.remaining -= consumed;
      res.row.locked -= consumed;
    }
    this.fillIds.add(fill.fill_id);
    const changed: Row[] = [row, quoteRow];
    if (feeRow !== undefined && feeRow !== quoteRow) changed.push(feeRow);
    for (const r of changed) settleLifecycle(r);
    return { status: 'applied', rows: changed.map(copyRow), consumed_qty_1e8: consumed };
  }

  /**
   * A funding instant of a perp listing: the venue's position there, if open and not yet
   * settled for this instant, pays (or receives) qty x mark x rate, exactly once: into its
   * realized PnL and its funding total, out of (into) the quote balance. Returns the row and
   * the payment (USD x 1e9, positive when paid), or undefined when nothing was owed.
   */
  accrueFunding(s: FundingSettlement): { row: LedgerRow; paid_usd_1e9: bigint } | undefined {
    const parts = parseSymbol(s.symbol);
    const rate = toBig(s.rate_1e9);
    const mark = toBig(s.mark_1e9);
    if (parts === undefined || rate === undefined || mark === undefined || mark <= ZERO) return undefined;
    const row = this.venues.get(s.venue)?.get(instrumentKey({ kind: 'perp', symbol: s.symbol, base: parts.base }));
    if (row === undefined || s.ts_ns <= row.fundingThroughNs) return undefined;
    row.fundingThroughNs = s.ts_ns;
    if (row.qty === ZERO) return undefined;
    const paid = fundingPayment1e9(row.qty, mark, rate);
    row.realized -= paid;
    row.funding -= paid;
    const quoteRow = this.rowFor(s.venue, parts.quote);
    trade(quoteRow, settleUsd1e8(-paid), ONE_USD, 1n);
    settleLifecycle(quoteRow);
    return { row: copyRow(row), paid_usd_1e9: paid };
  }

  /** Open perp positions as (venue, symbol, the last funding instant settled), for the funding clock. */
  openPerps(): { venue: string; symbol: string; funding_through_ns: number }[] {
    const out: { venue: string; symbol: string; funding_through_ns: number }[] = [];
    for (const row of this.ordered) if (row.instrument.kind === 'perp' && row.qty !== ZERO) out.push({ venue: row.venue, symbol: row.instrument.symbol, funding_through_ns: row.fundingThroughNs });
    return out;
  }

  // --- event contracts: resolution and redemption (spec, Position lifecycle) ---

  /**
   * A market resolved: every active event-contract row whose outcome `outcomeOf` knows (won or
   * lost, and when; undefined: not resolved, or another market) becomes `resolved` at
   * once: settled, its settled mark $1 or 0, its economic value qty x that mark. Rows already
   * settled, and closed ones (nothing held), are left. Returns the changed rows.
   */
  resolveContracts(outcomeOf: (contract: EventContractInstrument, venue: string) => ContractOutcome | undefined): LedgerRow[] {
    const changed: Row[] = [];
    for (const row of this.ordered) {
      const inst = row.instrument;
      if (inst.kind !== 'event_contract' || row.settled || row.lifecycle.state !== 'active') continue;
      const outcome = outcomeOf(inst, row.venue);
      if (outcome === undefined) continue;
      const mark = outcome.won ? ONE_USD : ZERO;
      row.settled = true;
      row.settledMark = mark;
      row.lifecycle = { state: 'resolved', resolved_at: outcome.resolved_at_ns, economic_value_usd_1e9: Number(floorDiv(row.qty * mark, QTY_SCALE)) };
      changed.push(row);
    }
    return changed.map(copyRow);
  }

  /**
   * Redeems the resolved rows `matches` selects: each pays its economic value into the venue's
   * `cash` row, its contracts are gone (qty 0), the difference to its cost basis is realized,
   * and it becomes `redeemed` with what it received. Returns the redeemed rows (a loser pays 0).
   */
  redeemContracts(matches: (contract: EventContractInstrument, venue: string) => boolean, cash: (venue: string) => string, redeemed_at_ns: number): LedgerRow[] {
    const changed: Row[] = [];
    for (const row of [...this.ordered]) {
      const inst = row.instrument;
      if (inst.kind !== 'event_contract' || row.lifecycle.state !== 'resolved' || !matches(inst, row.venue)) continue;
      const { resolved_at, economic_value_usd_1e9 } = row.lifecycle;
      const value = BigInt(economic_value_usd_1e9);
      const cashRow = this.rowFor(row.venue, cash(row.venue));
      trade(cashRow, floorDiv(value, PRICE_SCALE / QTY_SCALE), ONE_USD, 1n);
      settleLifecycle(cashRow);
      row.realized += value - ceilDiv(row.qty * row.entry, QTY_SCALE);
      row.qty = ZERO;
      row.lifecycle = { state: 'redeemed', resolved_at, economic_value_usd_1e9, redeemed_at: redeemed_at_ns, cash_received_usd_1e9: economic_value_usd_1e9 };
      changed.push(row, cashRow);
    }
    return changed.map(copyRow);
  }

  // --- the API view ---

  /**
   * The spec's `{positions, totals}` over the rows that pass the filters, in id order. Prices:
   * USD and stablecoins 1e9; other rows `marks(asset)` when it is a positive safe integer, else
   * the entry price; settled event contracts their settled mark.
   */
  view(marks: MarkFn, filters: PositionFilters = {}): PositionsView {
    const venues = filters.venues === undefined ? undefined : new Set(filters.venues);
    const kinds = filters.kinds === undefined ? undefined : new Set<string>(filters.kinds);
    const includeClosed = filters.include_closed === true;
    const positions: PositionView[] = [];
    let nav = ZERO;
    let cash = ZERO;
    let unrealized = ZERO;
    let realized = ZERO;
    let fees = ZERO;
    for (const row of this.ordered) {
      if (venues !== undefined && !venues.has(row.venue)) continue;
      if (kinds !== undefined && !kinds.has(row.instrument.kind)) continue;
      if (!includeClosed && !isLive(row.lifecycle.state)) continue;
      const price = markOf(row, marks);
      const inst = row.instrument;
      // Value rounded toward -inf, entry value toward +inf: unrealized never flatters the client.
      const value = floorDiv(row.qty * price, QTY_SCALE);
      const upnl = value - ceilDiv(row.qty * row.entry, QTY_SCALE);
      // A perp adds its equity to NAV, not its notional: none of it was paid for.
      nav += inst.kind === 'perp' ? upnl : value;
      unrealized += upnl;
      realized += row.realized;
      fees += row.fees;
      if (inst.kind === 'fiat' || (inst.kind === 'crypto' && STABLE_SET.has(inst.symbol))) cash += value;
      const view: PositionView = {
        id: row.id,
        venue: row.venue,
        instrument: { ...inst },
        qty_1e8: exactInt(row.qty),
        locked_qty_1e8: exactInt(row.locked),
        available_qty_1e8: exactInt(row.qty - row.locked),
        entry_price_usd_1e9: exactInt(row.entry),
        current_value_usd_1e9: exactInt(value),
        unrealized_pnl_usd_1e9: exactInt(upnl),
        realized_pnl_usd_1e9: exactInt(row.realized),
        fees_usd_1e9: exactInt(row.fees),
        lifecycle: { ...row.lifecycle },
        transferable: transferableOf(inst),
        settled: row.settled,
        is_sandbox: this.mode === 'sandbox',
      };
      if (inst.kind !== 'fiat') view.current_price_usd_1e9 = exactInt(price);
      if (inst.kind === 'event_contract') view.settled_mark_usd_1e9 = row.settledMark === null ? null : exactInt(row.settledMark);
      if (inst.kind === 'perp') perpFields(view, row, price);
      positions.push(view);
    }
    return {
      positions,
      totals: {
        nav_usd_1e9: exactInt(nav),
        cash_usd_1e9: exactInt(cash),
        unrealized_pnl_usd_1e9: exactInt(unrealized),
        realized_pnl_usd_1e9: exactInt(realized),
        fees_usd_1e9: exactInt(fees),
        num_positions: positions.length,
      },
    };
  }

  // --- persistence ---

  /** `withFillIds: false` leaves the fill-id window out (a checkpoint: its watermark does that job). */
  snapshot(options: { withFillIds?: boolean } = {}): LedgerSnapshot {
    return {
      version: LEDGER_SNAPSHOT_VERSION,
      mode: this.mode,
      next_row_id: this.nextRowId,
      next_reservation_id: this.nextReservationId,
      rows: this.ordered.map((r) => ({
        id: r.id,
        venue: r.venue,
        instrument: { ...r.instrument },
        qty_1e8: r.qty.toString(),
        locked_qty_1e8: r.locked.toString(),
        entry_price_usd_1e9: r.entry.toString(),
        realized_pnl_usd_1e9: r.realized.toString(),
        fees_usd_1e9: r.fees.toString(),
        lifecycle: { ...r.lifecycle },
        settled: r.settled,
        settled_mark_usd_1e9: r.settledMark === null ? null : r.settledMark.toString(),
        ...(r.instrument.kind === 'perp' ? { margin_qty_1e8: r.margin.toString(), funding_usd_1e9: r.funding.toString(), imr_bps: r.imrBps, funding_through_ns: r.fundingThroughNs } : {}),
      })),
      reservations: [...this.reservations.values()].map((r) => ({
        id: r.id,
        row_id: r.row.id,
        remaining_qty_1e8: r.remaining.toString(),
      })),
      fill_ids: options.withFillIds === false ? [] : [...this.fillIds.keys()],
    };
  }

  /**
   * Replaces the whole state with a snapshot (for example `JSON.parse` of one read from LMDB).
   * Validates everything first; on failure the ledger is unchanged. The snapshot must be of this
   * ledger's mode (a sandbox snapshot never becomes live state).
   */
  restore(snapshot: unknown): RestoreResult {
    const parsed = parseSnapshot(snapshot);
    if (typeof parsed === 'string') return { ok: false, reason: parsed };
    if (parsed.mode !== this.mode) return { ok: false, reason: `snapshot is ${parsed.mode}, ledger is ${this.mode}` };
    this.install(parsed);
    return { ok: true };
  }

  // --- internals ---

  private install(parsed: ParsedState): void {
    this.venues = parsed.venues;
    this.ordered = parsed.ordered;
    this.reservations = parsed.reservations;
    this.fillIds = parsed.fillIds;
    this.nextRowId = parsed.nextRowId;
    this.nextReservationId = parsed.nextReservationId;
  }

  /**
   * A fill's fee leg: the fee asset's qty goes down by the fee (its USD value is summed on the
   * traded row by the caller). A row the fee opens, or finds flat, has no cost basis but the
   * fee's own price: |fee_usd| / |fee_qty| ($1 for a $1 asset).
   */
  private feeLeg(venue: string, asset: string, fee: bigint, feeQty: bigint): Row {
    const row = this.rowFor(venue, asset);
    if (row.qty === ZERO) row.entry = isDollarAsset(asset) ? ONE_USD : floorDiv(abs(fee) * QTY_SCALE, abs(feeQty));
    row.qty -= feeQty;
    return row;
  }

  private rowFor(venue: string, asset: string): Row {
    return this.venues.get(venue)?.get(asset) ?? this.createRow(venue, instrumentForAsset(asset), asset);
  }

  private createRow(venue: string, instrument: Instrument, key: string): Row {
    const row: Row = {
      id: this.nextRowId++,
      venue,
      instrument,
      key,
      qty: ZERO,
      locked: ZERO,
      entry: ZERO,
      realized: ZERO,
      fees: ZERO,
      lifecycle: { state: 'active' },
      settled: false,
      settledMark: null,
      margin: ZERO,
      funding: ZERO,
      imrBps: 0,
      fundingThroughNs: 0,
    };
    let byKey = this.venues.get(venue);
    if (byKey === undefined) {
      byKey = new Map();
      this.venues.set(venue, byKey);
    }
    byKey.set(key, row);
    this.ordered.push(row);
    return row;
  }
}

/**
 * Books a signed quantity change at a USD price of `pxNum / pxDen` (x 1e9) with average cost:
 * - opening or adding (same sign, or from flat): entry = weighted average of the old entry and
 *   the price, rounded against the holder (up for a long, down for a short);
 * - reducing: realized += sign(qty) x closed x (price - entry) / 1e8, rounded toward -inf; entry
 *   unchanged; the part that flips through zero opens at the price.
 * A long is the spot case; shorts arrive with perps (and as the trace of a venue overselling).
 */
function trade(row: Row, delta: bigint, pxNum: bigint, pxDen: bigint): void {
  if (delta === ZERO) return;
  const q = row.qty;
  if (q === ZERO || q > ZERO === delta > ZERO) {
    const aq = abs(q);
    const ad = abs(delta);
    const num = aq * row.entry * pxDen + ad * pxNum;
    const den = (aq + ad) * pxDen;
    row.entry = delta > ZERO ? ceilDiv(num, den) : floorDiv(num, den);
    row.qty = q + delta;
    return;
  }
  const aq = abs(q);
  const ad = abs(delta);
  const closed = ad < aq ? ad : aq;
  const sign = q > ZERO ? 1n : -1n;
  row.realized += floorDiv(sign * closed * (pxNum - row.entry * pxDen), QTY_SCALE * pxDen);
  row.qty = q + delta;
  if (ad > aq) row.entry = row.qty > ZERO ? ceilDiv(pxNum, pxDen) : floorDiv(pxNum, pxDen);
}

/**
 * qty 0 closes a row; a closed row that holds something again is active. A resolved or redeemed
 * event contract keeps its state (its outcome is history: a redeem zeroes the qty and the row
 * is `redeemed`, not `closed`).
 */
function settleLifecycle(row: Row): void {
  const state = row.lifecycle.state;
  if (state === 'resolved' || state === 'redeemed') return;
  if (row.qty === ZERO) {
    if (state !== 'closed') row.lifecycle = { state: 'closed' };
  } else if (state === 'closed') {
    row.lifecycle = { state: 'active' };
  }
}

function markOf(row: Row, marks: MarkFn): bigint {
  const inst = row.instrument;
  if (inst.kind === 'fiat' && inst.code === 'USD') return ONE_USD;
  if (inst.kind === 'crypto' && STABLE_SET.has(inst.symbol)) return ONE_USD;
  if (inst.kind === 'event_contract' && row.settled && row.settledMark !== null) return row.settledMark;
  const m = marks(markAssetOf(inst), inst);
  const floor = inst.kind === 'event_contract' ? 0 : 1; // an event contract can trade at 0
  return typeof m === 'number' && Number.isSafeInteger(m) && m >= floor ? BigInt(m) : row.entry;
}

/** The margin read-out of a perp row at `mark` (docs/positions-and-tca.md, "Perpetuals"). */
function perpFields(view: PositionView, row: Row, mark: bigint): void {
  const mmr = maintenanceBps(row.imrBps);
  const margin = quoteUsd1e9(row.margin);
  const liquidation = liquidationPrice1e9(row.qty, row.entry, margin, mmr);
  view.initial_margin_usd_1e9 = exactInt(margin);
  view.maintenance_margin_usd_1e9 = exactInt(maintenanceMargin1e9(row.qty, mark, mmr));
  view.leverage = row.imrBps > 0 ? Math.round(10_000 / row.imrBps) : 0;
  view.liquidation_price_1e9 = liquidation === null ? null : exactInt(liquidation);
  view.margin_state = belowMaintenance(row.qty, mark, liquidation) ? 'below_maintenance' : 'ok';
  view.funding_usd_1e9 = exactInt(row.funding);
}

function copyRow(r: Row): LedgerRow {
  return {
    id: r.id,
    venue: r.venue,
    instrument: { ...r.instrument },
    qty_1e8: r.qty,
    locked_qty_1e8: r.locked,
    available_qty_1e8: r.qty - r.locked,
    entry_price_usd_1e9: r.entry,
    realized_pnl_usd_1e9: r.realized,
    fees_usd_1e9: r.fees,
    lifecycle: { ...r.lifecycle },
    transferable: transferableOf(r.instrument),
    settled: r.settled,
    settled_mark_usd_1e9: r.settledMark,
    margin_qty_1e8: r.margin,
    funding_usd_1e9: r.funding,
  };
}

// --- Snapshot parsing ---------------------------------------------------------------------------

const BIGINT_TEXT = /^-?(0|[1-9][0-9]*)$/;

function bigOf(x: unknown): bigint | undefined {
  return typeof x === 'string' && BIGINT_TEXT.test(x) ? BigInt(x) : undefined;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isPosInt(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x > 0;
}

function isStr(x: unknown): x is string {
  return typeof x === 'string' && x.length > 0;
}

function isNullableStr(x: unknown): x is string | null {
  return x === null || typeof x === 'string';
}

function isNullableNum(x: unknown): x is number | null {
  return x === null || (typeof x === 'number' && Number.isFinite(x));
}

function parseInstrument(x: unknown): Instrument | undefined {
  if (!isRecord(x)) return undefined;
  switch (x.kind) {
    case 'fiat':
      return isStr(x.code) ? { kind: 'fiat', code: x.code } : undefined;
    case 'crypto':
      return isStr(x.symbol) ? { kind: 'crypto', symbol: x.symbol } : undefined;
    case 'perp':
      return isStr(x.symbol) && isStr(x.base) ? { kind: 'perp', symbol: x.symbol, base: x.base } : undefined;
    case 'event_contract':
      return isStr(x.market_slug) && typeof x.outcome === 'string' && isNullableStr(x.token_id) && isNullableNum(x.expiry_ts)
        ? { kind: 'event_contract', market_slug: x.market_slug, outcome: x.outcome, token_id: x.token_id, expiry_ts: x.expiry_ts }
        : undefined;
    default:
      return undefined;
  }
}

function num(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

function parseLifecycle(x: unknown): Lifecycle | undefined {
  if (!isRecord(x)) return undefined;
  switch (x.state) {
    case 'active':
    case 'closed':
      return { state: x.state };
    case 'resolved':
      return num(x.resolved_at) && num(x.economic_value_usd_1e9)
        ? { state: 'resolved', resolved_at: x.resolved_at, economic_value_usd_1e9: x.economic_value_usd_1e9 }
        : undefined;
    case 'redeemed':
      return num(x.resolved_at) && num(x.economic_value_usd_1e9) && num(x.redeemed_at) && num(x.cash_received_usd_1e9)
        ? {
            state: 'redeemed',
            resolved_at: x.resolved_at,
            economic_value_usd_1e9: x.economic_value_usd_1e9,
            redeemed_at: x.redeemed_at,
            cash_received_usd_1e9: x.cash_received_usd_1e9,
          }
        : undefined;
    default:
      return undefined;
  }
}

interface ParsedState {
  mode: Mode;
  venues: Map<string, Map<string, Row>>;
  ordered: Row[];
  reservations: Map<number, Reservation>;
  fillIds: RecentSet<string>;
  nextRowId: number;
  nextReservationId: number;
}

function parseSnapshot(s: unknown): ParsedState | string {
  if (!isRecord(s)) return 'not an object';
  if (s.version !== LEDGER_SNAPSHOT_VERSION) return `unsupported version ${String(s.version)}`;
  if (s.mode !== 'live' && s.mode !== 'sandbox') return 'bad mode';
  if (!isPosInt(s.next_row_id) || !isPosInt(s.next_reservation_id)) return 'bad id counters';
  if (!Array.isArray(s.rows) || !Array.isArray(s.reservations) || !Array.isArray(s.fill_ids)) return 'missing arrays';
  const venues = new Map<string, Map<string, Row>>();
  const ordered: Row[] = [];
  const byId = new Map<number, Row>();
  for (const r of s.rows as unknown[]) {
    if (!isRecord(r) || !isPosInt(r.id) || !isStr(r.venue)) return 'bad row';
    const instrument = parseInstrument(r.instrument);
    const lifecycle = parseLifecycle(r.lifecycle);
    const qty = bigOf(r.qty_1e8);
    const locked = bigOf(r.locked_qty_1e8);
    const entry = bigOf(r.entry_price_usd_1e9);
    const realized = bigOf(r.realized_pnl_usd_1e9);
    const fees = bigOf(r.fees_usd_1e9);
    const settledMark = r.settled_mark_usd_1e9 === null ? null : bigOf(r.settled_mark_usd_1e9);
    if (
      instrument === undefined || lifecycle === undefined || qty === undefined || locked === undefined || locked < ZERO ||
      entry === undefined || realized === undefined || fees === undefined || settledMark === undefined ||
      typeof r.settled !== 'boolean'
    ) {
      return `bad row ${r.id}`;
    }
    if (r.id >= s.next_row_id || byId.has(r.id)) return `bad row id ${r.id}`;
    const key = instrumentKey(instrument);
    let byKey = venues.get(r.venue);
    if (byKey === undefined) {
      byKey = new Map();
      venues.set(r.venue, byKey);
    }
    if (byKey.has(key)) return `duplicate row ${r.venue} ${key}`;
    const margin = r.margin_qty_1e8 === undefined ? ZERO : bigOf(r.margin_qty_1e8);
    const funding = r.funding_usd_1e9 === undefined ? ZERO : bigOf(r.funding_usd_1e9);
    const imrBps = r.imr_bps ?? 0;
    const fundingThroughNs = r.funding_through_ns ?? 0;
    if (margin === undefined || margin < ZERO || funding === undefined || typeof imrBps !== 'number' || !(imrBps >= 0 && imrBps <= 10_000) || !Number.isSafeInteger(fundingThroughNs)) return `bad perp row ${r.id}`;
    const row: Row = { id: r.id, venue: r.venue, instrument, key, qty, locked, entry, realized, fees, lifecycle, settled: r.settled, settledMark, margin, funding, imrBps, fundingThroughNs: fundingThroughNs as number };
    byKey.set(key, row);
    byId.set(r.id, row);
    ordered.push(row);
  }
  ordered.sort((a, b) => a.id - b.id);
  const reservations = new Map<number, Reservation>();
  const reservedByRow = new Map<Row, bigint>();
  for (const x of s.reservations as unknown[]) {
    if (!isRecord(x) || !isPosInt(x.id) || !isPosInt(x.row_id)) return 'bad reservation';
    const row = byId.get(x.row_id);
    const remaining = bigOf(x.remaining_qty_1e8);
    if (row === undefined || remaining === undefined || remaining < ZERO) return `bad reservation ${x.id}`;
    if (x.id >= s.next_reservation_id || reservations.has(x.id)) return `bad reservation id ${x.id}`;
    reservations.set(x.id, { id: x.id, row, remaining });
    reservedByRow.set(row, (reservedByRow.get(row) ?? ZERO) + remaining);
  }
  // Locked covers at least the open reservations and the margin of the venue's perps.
  for (const row of ordered) if (row.margin > ZERO) {
    const quote = parseSymbol((row.instrument as { symbol: string }).symbol)?.quote;
    const quoteRow = quote === undefined ? undefined : venues.get(row.venue)?.get(quote);
    if (quoteRow === undefined) return `perp row ${row.id} has margin but no quote row`;
    reservedByRow.set(quoteRow, (reservedByRow.get(quoteRow) ?? ZERO) + row.margin);
  }
  for (const [row, reserved] of reservedByRow) if (row.locked < reserved) return `row ${row.id} locks less than its reservations and margins`;
  const fillIds = new RecentSet<string>(FILL_ID_WINDOW);
  for (const id of s.fill_ids as unknown[]) {
    if (!isStr(id)) return 'bad fill id';
    fillIds.add(id);
  }
  return {
    mode: s.mode,
    venues,
    ordered,
    reservations,
    fillIds,
    nextRowId: s.next_row_id,
    nextReservationId: s.next_reservation_id,
  };
}
