import { DDSketch } from '@datadog/sketches-js';
import { ExecCounts, mergeSketch, SKETCH_RELATIVE_ACCURACY, type StoredExecCounts } from './exec-counts.ts';
import { WireReader, WireWriter } from '../../engine/wire.ts';
import { decodeSketch, encodeSketch, readSketch, writeSketch, type StoredSketch } from './sketch-codec.ts';

/**
 * TCA aggregates kept as orders complete: one bucket per (client, mode, UTC hour, kind, symbol,
 * routing version, venue), so a query over a month reads buckets, never orders. Pure: no I/O.
 *
 * Averages are notional-weighted (weight = the order's filled notional in USD). Percentiles of
 * the implementation shortfall come from a DDSketch (@datadog/sketches-js) weighted the same way:
 * mergeable across buckets, with a relative error of SKETCH_RELATIVE_ACCURACY on the value it
 * returns (a p95 of 20 bps is within 0.2 bps of a shortfall at that weighted rank).
 */
export { SKETCH_RELATIVE_ACCURACY };

export const HOUR_MS = 3_600_000;

/** How an order's TCA was observed (docs/analytics.md). */
export type Provenance = 'direct' | 'reconstructed' | 'no_benchmark';
export const PROVENANCES: readonly Provenance[] = ['direct', 'reconstructed', 'no_benchmark'];

/** Prices in bps of the arrival mid, or prediction contracts in probability bps: never averaged together. */
export type TcaKind = 'price' | 'prediction';

/** One completed order's contribution, whole (`venue` '') or its slice on one venue. */
export interface TcaSample {
  hour_ms: number;
  kind: TcaKind;
  symbol: string;
  routing_version: number;
  /** '' = the order whole; else the order's fills on this venue */
  venue: string;
  notional_usd_1e9: number;
  shortfall_bps: number;
  spread_bps: number;
  fee_bps: number;
  impact_bps: number;
  /** null: no best-single-venue benchmark (and always for a venue slice) */
  savings_bps: number | null;
  savings_usd_1e9: number | null;
  fees_usd_1e9: number;
  provenance: Provenance;
  /** the order whole: its id and side, for the best and worst orders of a report */
  order?: { node_order_id: string; side: 'buy' | 'sell' };
}

/**
 * An order at an extreme of a bucket, ranked by what its shortfall cost in USD (shortfall bps x
 * filled notional): a large order a few bps off costs more than a tiny one far off.
 */
export interface OrderExtreme {
  node_order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  routing_version: number;
  hour_ms: number;
  notional_usd_1e9: number;
  shortfall_bps: number;
  /** shortfall x notional, USD 1e9 (negative: better than the arrival mid) */
  shortfall_cost_usd_1e9: number;
  savings_bps: number | null;
}

/** How many best and worst orders a bucket keeps (a merge keeps the extremes of both: exact). */
export const EXTREMES_KEPT = 5;

/** The binary form's version (TcaBucket.write). */
const BUCKET_FORMAT = 1;
const scratchWriter = new WireWriter();
const scratchReader = new WireReader();

function readExtremes(r: WireReader): OrderExtreme[] {
  const n = r.u8();
  const list: OrderExtreme[] = [];
  for (let i = 0; i < n; i++) {
    const node_order_id = r.str();
    const symbol = r.str();
    const side = r.u8() === 0 ? 'buy' : 'sell';
    list.push({ node_order_id, symbol, side, routing_version: r.f64(), hour_ms: r.f64(), notional_usd_1e9: r.f64(), shortfall_bps: r.f64(), shortfall_cost_usd_1e9: r.f64(), savings_bps: r.optF64() });
  }
  return list;
}

/** A bucket as stored: plain fields, exact sums as decimal strings, the sketch's occupied bins (sketch-codec.ts; protobuf bytes in buckets written before). */
export interface StoredTcaBucket {
  orders: number;
  notional_usd_1e9: string;
  weight: number;
  w_shortfall: number;
  w_spread: number;
  w_fee: number;
  w_impact: number;
  w_shortfall_sq: number;
  w_sq: number;
  benchmarked: number;
  benchmark_weight: number;
  w_savings: number;
  wins: number;
  savings_usd_1e9: string;
  fees_usd_1e9: string;
  provenance: Record<Provenance, number>;
  sketch: StoredSketch | Uint8Array;
  /** absent in buckets written before they were kept */
  best?: OrderExtreme[];
  worst?: OrderExtreme[];
  /** execution counters (exec-counts.ts); absent in buckets written before they were kept */
  exec?: StoredExecCounts;
}

export class TcaBucket {
  orders = 0;
  /** exact: the sum of the orders' filled notional, USD 1e9 */
  notional_usd_1e9 = 0n;
  /** the same in USD as a float: the weight of the averages */
  weight = 0;
  w_shortfall = 0;
  w_spread = 0;
  w_fee = 0;
  w_impact = 0;
  /** Σ w·shortfall² and Σ w²: the weighted variance and effective sample size behind a confidence interval */
  w_shortfall_sq = 0;
  w_sq = 0;
  /** orders with a best-single-venue benchmark, their weight and weighted savings */
  benchmarked = 0;
  benchmark_weight = 0;
  w_savings = 0;
  /** benchmarked orders whose savings were positive */
  wins = 0;
  savings_usd_1e9 = 0n;
  fees_usd_1e9 = 0n;
  provenance: Record<Provenance, number> = { direct: 0, reconstructed: 0, no_benchmark: 0 };
  sketch = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });
  /** every ended order of the row (with or without fills) and, on a venue row, its legs there */
  exec = new ExecCounts();
  /** the whole orders of the row that cost least and most (lowest and highest shortfall cost first) */
  best: OrderExtreme[] = [];
  worst: OrderExtreme[] = [];

  add(s: TcaSample): void {
    const w = s.notional_usd_1e9 / 1e9;
    this.orders++;
    this.notional_usd_1e9 += BigInt(s.notional_usd_1e9);
    this.fees_usd_1e9 += BigInt(s.fees_usd_1e9);
    this.provenance[s.provenance]++;
    if (w <= 0) return;
    this.weight += w;
    this.w_shortfall += w * s.shortfall_bps;
    this.w_spread += w * s.spread_bps;
    this.w_fee += w * s.fee_bps;
    this.w_impact += w * s.impact_bps;
    this.w_shortfall_sq += w * s.shortfall_bps * s.shortfall_bps;
    this.w_sq += w * w;
    this.sketch.accept(s.shortfall_bps, w);
    if (s.order !== undefined && (mayKeep(this.best, s, 1) || mayKeep(this.worst, s, -1))) {
      const e: OrderExtreme = {
        node_order_id: s.order.node_order_id,
        symbol: s.symbol,
        side: s.order.side,
        routing_version: s.routing_version,
        hour_ms: s.hour_ms,
        notional_usd_1e9: s.notional_usd_1e9,
        shortfall_bps: s.shortfall_bps,
        shortfall_cost_usd_1e9: Math.round((s.shortfall_bps * s.notional_usd_1e9) / 10_000),
        savings_bps: s.savings_bps,
      };
      keepExtremes(this.best, [e], 1);
      keepExtremes(this.worst, [e], -1);
    }
    if (s.savings_bps !== null) {
      this.benchmarked++;
      this.benchmark_weight += w;
      this.w_savings += w * s.savings_bps;
      if (s.savings_bps > 0) this.wins++;
      this.savings_usd_1e9 += BigInt(s.savings_usd_1e9 ?? 0);
    }
  }

  merge(other: TcaBucket): void {
    this.orders += other.orders;
    this.notional_usd_1e9 += other.notional_usd_1e9;
    this.weight += other.weight;
    this.w_shortfall += other.w_shortfall;
    this.w_spread += other.w_spread;
    this.w_fee += other.w_fee;
    this.w_impact += other.w_impact;
    this.w_shortfall_sq += other.w_shortfall_sq;
    this.w_sq += other.w_sq;
    this.benchmarked += other.benchmarked;
    this.benchmark_weight += other.benchmark_weight;
    this.w_savings += other.w_savings;
    this.wins += other.wins;
    this.savings_usd_1e9 += other.savings_usd_1e9;
    this.fees_usd_1e9 += other.fees_usd_1e9;
    for (const p of PROVENANCES) this.provenance[p] += other.provenance[p];
    mergeSketch(this.sketch, other.sketch);
    this.exec.merge(other.exec);
    keepExtremes(this.best, other.best, 1);
    keepExtremes(this.worst, other.worst, -1);
  }

  /**
   * The binary form, stored and carried in router deltas (engine/wire.ts encodings): u8
   * BUCKET_FORMAT; the sums as f64 in field order (orders .. wins, then the three provenance
   * counts); the exact sums as decimal text; the shortfall sketch (sketch-codec.ts); the
   * execution counts (exec-counts.ts); the best then the worst orders: u8 n, then per order
   * str id, str symbol, u8 side (0 buy), f64 routing version, hour, notional, shortfall, cost,
   * f64? savings. A delta is merged and its bucket written 20 times a second per busy router:
   * msgpack's object form spent most of that decoding and encoding maps.
   */
  write(w: WireWriter): void {
    w.u8(BUCKET_FORMAT).f64(this.orders).f64(this.weight).f64(this.w_shortfall).f64(this.w_spread).f64(this.w_fee).f64(this.w_impact);
    w.f64(this.w_shortfall_sq).f64(this.w_sq).f64(this.benchmarked).f64(this.benchmark_weight).f64(this.w_savings).f64(this.wins);
    w.f64(this.provenance.direct).f64(this.provenance.reconstructed).f64(this.provenance.no_benchmark);
    w.str(String(this.notional_usd_1e9)).str(String(this.savings_usd_1e9)).str(String(this.fees_usd_1e9));
    writeSketch(w, this.sketch);
    this.exec.write(w);
    for (const list of [this.best, this.worst]) {
      w.u8(list.length);
      for (const e of list) {
        w.str(e.node_order_id).str(e.symbol).u8(e.side === 'buy' ? 0 : 1);
        w.f64(e.routing_version).f64(e.hour_ms).f64(e.notional_usd_1e9).f64(e.shortfall_bps).f64(e.shortfall_cost_usd_1e9).optF64(e.savings_bps);
      }
    }
  }

  static read(r: WireReader): TcaBucket {
    const format = r.u8();
    if (format !== BUCKET_FORMAT) throw new RangeError(`TCA bucket: unknown format ${format}`);
    const b = new TcaBucket();
    b.orders = r.f64();
    b.weight = r.f64();
    b.w_shortfall = r.f64();
    b.w_spread = r.f64();
    b.w_fee = r.f64();
    b.w_impact = r.f64();
    b.w_shortfall_sq = r.f64();
    b.w_sq = r.f64();
    b.benchmarked = r.f64();
    b.benchmark_weight = r.f64();
    b.w_savings = r.f64();
    b.wins = r.f64();
    b.provenance = { direct: r.f64(), reconstructed: r.f64(), no_benchmark: r.f64() };
    b.notional_usd_1e9 = BigInt(r.str());
    b.savings_usd_1e9 = BigInt(r.str());
    b.fees_usd_1e9 = BigInt(r.str());
    b.sketch = readSketch(r, SKETCH_RELATIVE_ACCURACY);
    b.exec = ExecCounts.read(r);
    b.best = readExtremes(r);
    b.worst = readExtremes(r);
    return b;
  }

  /** The bucket's binary form, in its own bytes. */
  encode(): Uint8Array {
    this.write(scratchWriter.reset());
    return scratchWriter.bytes().slice();
  }

  /** A stored bucket: the binary form, or the object form buckets were written in before it. */
  static fromValue(value: Uint8Array | Record<string, unknown>): TcaBucket {
    return value instanceof Uint8Array ? TcaBucket.read(scratchReader.reset(value)) : TcaBucket.fromStored(value as unknown as StoredTcaBucket);
  }

  /**
   * The object form buckets were stored in before the binary one, field by field (V8 here runs
   * rest and spread copies of this object tens of times slower than literals). Read by
   * `fromStored`; written only to test that such buckets are still read.
   */
  toStored(): StoredTcaBucket {
    return {
      orders: this.orders,
      weight: this.weight,
      w_shortfall: this.w_shortfall,
      w_spread: this.w_spread,
      w_fee: this.w_fee,
      w_impact: this.w_impact,
      w_shortfall_sq: this.w_shortfall_sq,
      w_sq: this.w_sq,
      benchmarked: this.benchmarked,
      benchmark_weight: this.benchmark_weight,
      w_savings: this.w_savings,
      wins: this.wins,
      best: this.best.slice(),
      worst: this.worst.slice(),
      exec: this.exec.toStored(),
      notional_usd_1e9: String(this.notional_usd_1e9),
      savings_usd_1e9: String(this.savings_usd_1e9),
      fees_usd_1e9: String(this.fees_usd_1e9),
      provenance: { direct: this.provenance.direct, reconstructed: this.provenance.reconstructed, no_benchmark: this.provenance.no_benchmark },
      sketch: encodeSketch(this.sketch),
    };
  }

  static fromStored(s: StoredTcaBucket): TcaBucket {
    const b = new TcaBucket();
    b.orders = s.orders;
    b.weight = s.weight;
    b.w_shortfall = s.w_shortfall;
    b.w_spread = s.w_spread;
    b.w_fee = s.w_fee;
    b.w_impact = s.w_impact;
    b.w_shortfall_sq = s.w_shortfall_sq;
    b.w_sq = s.w_sq;
    b.benchmarked = s.benchmarked;
    b.benchmark_weight = s.benchmark_weight;
    b.w_savings = s.w_savings;
    b.wins = s.wins;
    b.best = s.best ?? [];
    b.worst = s.worst ?? [];
    if (s.exec !== undefined) b.exec = ExecCounts.fromStored(s.exec);
    b.notional_usd_1e9 = BigInt(s.notional_usd_1e9);
    b.savings_usd_1e9 = BigInt(s.savings_usd_1e9);
    b.fees_usd_1e9 = BigInt(s.fees_usd_1e9);
    const p = s.provenance;
    b.provenance = { direct: p.direct ?? 0, reconstructed: p.reconstructed ?? 0, no_benchmark: p.no_benchmark ?? 0 };
    b.sketch = decodeSketch(s.sketch, SKETCH_RELATIVE_ACCURACY);
    return b;
  }

  /**
   * The weighted mean shortfall and its standard error: the weighted variance over the effective
   * sample size (Kish: (Σw)² / Σw²). Null below two orders.
   */
  shortfallMean(): { mean: number; standard_error: number; effective_n: number } | null {
    if (this.orders < 2 || this.weight <= 0 || this.w_sq <= 0) return null;
    const mean = this.w_shortfall / this.weight;
    const variance = Math.max(0, this.w_shortfall_sq / this.weight - mean * mean);
    const effective_n = (this.weight * this.weight) / this.w_sq;
    return { mean, standard_error: Math.sqrt(variance / Math.max(1, effective_n - 1)), effective_n };
  }

  /** The figures a client reads (bps rounded to 1e-4, like an order's TCA). */
  summary(): TcaSummary {
    const avg = (sum: number, weight: number) => (weight > 0 ? round4(sum / weight) : null);
    const at = (q: number) => (this.sketch.count > 0 ? round4(this.sketch.getValueAtQuantile(q)) : null);
    return {
      orders: this.orders,
      notional_usd_1e9: this.notional_usd_1e9,
      avg_implementation_shortfall_bps: avg(this.w_shortfall, this.weight),
      avg_spread_cost_bps: avg(this.w_spread, this.weight),
      avg_fee_bps: avg(this.w_fee, this.weight),
      avg_impact_bps: avg(this.w_impact, this.weight),
      avg_savings_bps: avg(this.w_savings, this.benchmark_weight),
      shortfall_percentiles_bps: { p50: at(0.5), p75: at(0.75), p95: at(0.95), p99: at(0.99) },
      total_savings_usd_1e9: this.savings_usd_1e9,
      fees_usd_1e9: this.fees_usd_1e9,
      benchmarked_orders: this.benchmarked,
      win_rate: this.benchmarked > 0 ? round4(this.wins / this.benchmarked) : null,
      provenance: { ...this.provenance },
    };
  }
}

export interface TcaSummary {
  orders: number;
  notional_usd_1e9: bigint;
  avg_implementation_shortfall_bps: number | null;
  avg_spread_cost_bps: number | null;
  avg_fee_bps: number | null;
  avg_impact_bps: number | null;
  avg_savings_bps: number | null;
  shortfall_percentiles_bps: { p50: number | null; p75: number | null; p95: number | null; p99: number | null };
  total_savings_usd_1e9: bigint;
  fees_usd_1e9: bigint;
  benchmarked_orders: number;
  win_rate: number | null;
  provenance: Record<Provenance, number>;
}

/**
 * Whether an order's sample could enter a full list of extremes (`dir` as keepExtremes): most
 * orders cannot, and are turned away before an extreme is built or a list sorted.
 */
function mayKeep(list: readonly OrderExtreme[], s: TcaSample, dir: 1 | -1): boolean {
  if (list.length < EXTREMES_KEPT) return true;
  const cost = Math.round((s.shortfall_bps * s.notional_usd_1e9) / 10_000);
  // A tie with the last goes by order id in keepExtremes: let it through.
  return dir * (cost - list[EXTREMES_KEPT - 1]!.shortfall_cost_usd_1e9) <= 0;
}

/**
 * Adds `more` to a list of extremes kept in order (`dir` 1: lowest cost first; -1: highest
 * first), keeping EXTREMES_KEPT; ties go to the lower order id, so a merge is order-independent.
 */
function keepExtremes(list: OrderExtreme[], more: readonly OrderExtreme[], dir: 1 | -1): void {
  if (more.length === 0) return;
  for (const e of more) if (!list.some((x) => x.node_order_id === e.node_order_id)) list.push(e);
  list.sort((a, b) => dir * (a.shortfall_cost_usd_1e9 - b.shortfall_cost_usd_1e9) || (a.node_order_id < b.node_order_id ? -1 : a.node_order_id > b.node_order_id ? 1 : 0));
  if (list.length > EXTREMES_KEPT) list.length = EXTREMES_KEPT;
}

/** Rounded to 1e-4, like an order's TCA figures. */
export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

export function hourOf(unixMs: number): number {
  return Math.floor(unixMs / HOUR_MS) * HOUR_MS;
}
