import type { Level } from '../../domain/market.ts';
import type { PredictionVenue } from '../../domain/prediction/catalog.ts';
import { compileBinaryFee, type BinaryFeeCurve } from '../../domain/prediction/fees.ts';
import type { PredictionMarket } from '../../domain/prediction/catalog.ts';
import { marketFeeComponents } from '../../domain/venues.ts';
import { PREDICTION_RULES } from '../../domain/prediction/order-leg.ts';
import { wallClockNs } from '../../domain/units.ts';
import { ChildJournal } from '../edge/child-journal.ts';
import type { ChildExecution, EdgeMessage } from '../edge/messages.ts';
import { pricedFill } from '../edge/reports.ts';
import { SandboxLegs, type MutableSandboxBook } from '../edge/sandbox-legs.ts';

type Execute = Extract<EdgeMessage, { t: 'Execute' }>;

/** One leg's book now, and the fee curve of its market; undefined when the leg is unknown here. */
export interface LegQuote {
  bids: readonly Level[];
  asks: readonly Level[];
  /** Trading now (outside trading hours the venue refuses orders). */
  open: boolean;
  curve: BinaryFeeCurve;
  /** The instant the book is quoted for: the venue refreshes it once a bucket. */
  bucket: number;
}

export interface PredictionLegHost {
  venue: PredictionVenue;
  edge_id: string;
  /** The venue's one-way order latency, ms. */
  latencyMs: number;
  quote(symbol: string, now_ms: number): LegQuote | undefined;
  schedule(ms: number, fn: () => void): void;
}

/** Each market's fee curve, compiled once while it is listed. */
export class MarketCurves {
  private readonly curves = new Map<string, BinaryFeeCurve>();

  of(m: PredictionMarket): BinaryFeeCurve {
    let curve = this.curves.get(m.market_id);
    if (curve === undefined) {
      curve = compileBinaryFee(marketFeeComponents(m));
      this.curves.set(m.market_id, curve);
    }
    return curve;
  }

  forget(market_id: string): void {
    this.curves.delete(market_id);
  }
}

/** Refusals a prediction venue answers with (`ChildExecution.reason`). */
const NOT_LISTED = 'not_listed';
const MARKET_CLOSED = 'market_closed';
const BELOW_MIN = 'below_min_qty';
const NOT_RECEIVED = 'reconciled_as_not_received';

/**
 * Child orders on a prediction venue: immediate-or-cancel against the leg's book, one fill per
 * level taken, each charged the market's binary_quadratic fee (ticker-style ceiled to the cent
 * per fill). The venue refreshes a book once a second; what a child takes is gone from that
 * second's book for the next one, so two orders in one second do not take the same contracts.
 * Sandbox children are executed by the same adversarial venue as the spot edges' (`SandboxLegs`),
 * against the book at arrival, and priced with the same fee curve. Every answer is journaled for
 * `Reconcile`.
 */
export class PredictionLegs {
  private readonly journal = new ChildJournal<ChildExecution>();
  /** symbol -> what live children took from the book of `bucket` (price -> qty). */
  private readonly taken = new Map<string, { bucket: number; at: Map<number, number> }>();
  private readonly sandbox: SandboxLegs;
  private tradeSeq = 0;
  private readonly tradePrefix = `${Date.now().toString(36)}-`;

  constructor(private readonly host: PredictionLegHost) {
    this.sandbox = new SandboxLegs({
      spec: { venue: host.venue, edge_id: host.edge_id, taker_bps: 0, maker_bps: 0 },
      arrivalMs: host.latencyMs,
      bookInto: (symbol, b) => this.bookInto(symbol, b),
      rules: (symbol) => (this.host.quote(symbol, Date.now()) === undefined ? undefined : PREDICTION_RULES),
      nowNs: () => Date.now() * 1_000_000,
      schedule: host.schedule,
      // Sandbox legs on a prediction venue never rest (GTC is refused before routing).
      tell: () => undefined,
    });
  }

  /** A child order; resolves with the answer, or `undefined` when the answer is lost (sandbox profile). */
  execute(m: Execute): Promise<ChildExecution | undefined> {
    if (this.journal.refused(m.child_id)) return Promise.resolve(this.answer(m.child_id, false, NOT_RECEIVED, [], null));
    if (m.sandbox) {
      return this.sandbox.execute(m.sandbox, m.child_id, m.symbol, m.side, m.qty_1e8, m.limit_price_1e9).then(({ answer, lost }) => {
        const curve = this.host.quote(m.symbol, Date.now())?.curve ?? null;
        const result = this.answer(m.child_id, answer.ok, answer.reason, answer.fills, curve);
        this.journal.record(m.child_id, result);
        return lost ? undefined : result;
      });
    }
    return new Promise((resolve) =>
      this.host.schedule(this.host.latencyMs, () => {
        const result = this.live(m);
        this.journal.record(m.child_id, result);
        resolve(result);
      }),
    );
  }

  /** What is known of a child this edge executed (a sandbox one on a live edge), without refusing it when nothing is. */
  known(childId: string): ReturnType<ChildJournal<ChildExecution>['peek']> {
    return this.journal.peek(childId);
  }

  reconcile(childId: string): ReturnType<ChildJournal<ChildExecution>['reconcile']> {
    return this.journal.reconcile(childId);
  }

  private live(m: Execute): ChildExecution {
    const now = Date.now();
    const quote = this.host.quote(m.symbol, now);
    if (quote === undefined) return this.answer(m.child_id, false, NOT_LISTED, [], null);
    if (!quote.open) return this.answer(m.child_id, false, MARKET_CLOSED, [], quote.curve);
    const lot = PREDICTION_RULES.lot_1e8;
    if (m.qty_1e8 < PREDICTION_RULES.min_qty_1e8 || m.qty_1e8 % lot !== 0) return this.answer(m.child_id, false, BELOW_MIN, [], quote.curve);
    const buy = m.side === 'buy';
    const levels = buy ? quote.asks : quote.bids;
    let taken = this.taken.get(m.symbol);
    if (taken === undefined || taken.bucket !== quote.bucket) {
      taken = { bucket: quote.bucket, at: new Map() };
      this.taken.set(m.symbol, taken);
    }
    const fills: { price_1e9: number; qty_1e8: number; trade_id: string; ts_ns: number }[] = [];
    let left = m.qty_1e8;
    const ts = wallClockNs();
    for (const level of levels) {
      if (left <= 0) break;
      const p = level.price_1e9;
      if (m.limit_price_1e9 !== null && (buy ? p > m.limit_price_1e9 : p < m.limit_price_1e9)) break;
      const shown = level.qty_1e8 - (taken.at.get(p) ?? 0);
      const q = Math.min(left, Math.floor(shown / lot) * lot);
      if (q <= 0) continue;
      taken.at.set(p, (taken.at.get(p) ?? 0) + q);
      left -= q;
      fills.push({ price_1e9: p, qty_1e8: q, trade_id: `${this.host.venue}-${this.tradePrefix}${++this.tradeSeq}`, ts_ns: ts });
    }
    return this.answer(m.child_id, true, fills.length === 0 ? 'no_liquidity' : null, fills, quote.curve);
  }

  /** A child's answer with each fill's binary_quadratic fee (the venue's rounding, per fill). */
  private answer(child_id: string, ok: boolean, reason: string | null, fills: readonly { price_1e9: number; qty_1e8: number; trade_id: string; ts_ns: number }[], curve: BinaryFeeCurve | null): ChildExecution {
    let cum = 0;
    return {
      child_id,
      venue: this.host.venue,
      edge_id: this.host.edge_id,
      ok,
      reason,
      fills: fills.map((f) => {
        const fee = curve === null ? 0 : curve.takerFeeUsd1e9(f.qty_1e8, f.price_1e9);
        cum += fee;
        return pricedFill(f, fee, cum);
      }),
      taker_bps: curve?.at_mid_bps ?? 0,
      maker_bps: 0,
      ack_ns: wallClockNs(),
    };
  }

  /** The leg's book now, as the sandbox venue reads it at arrival (a closed market shows none). */
  private bookInto(symbol: string, b: MutableSandboxBook): void {
    const quote = this.host.quote(symbol, Date.now());
    const open = quote !== undefined && quote.open;
    b.bidCount = open ? copy(quote.bids, b.bidsPx, b.bidsQty) : 0;
    b.askCount = open ? copy(quote.asks, b.asksPx, b.asksQty) : 0;
    b.connected = true;
  }
}

function copy(levels: readonly Level[], px: Float64Array, qty: Float64Array): number {
  const n = Math.min(levels.length, px.length);
  for (let i = 0; i < n; i++) {
    px[i] = levels[i]!.price_1e9;
    qty[i] = levels[i]!.qty_1e8;
  }
  return n;
}
