import { DDSketch } from '@datadog/sketches-js';
import type { WireReader, WireWriter } from '../../engine/wire.ts';
import { decodeSketch, encodeSketch, readSketch, writeSketch, type StoredSketch } from './sketch-codec.ts';

/**
 * Execution counters kept beside the TCA figures in each hourly bucket (pure): for the order row
 * (`venue` ''), every order that ended, by status, with its fills and latencies; for a venue
 * row, the order's legs on that venue: sent, acknowledged, filled, rejected, ack latency, by
 * size (docs/analytics.md has the size edges and the venue quality score).
 */
export const SIZE_BUCKETS = ['small', 'medium', 'large'] as const;
export type SizeBucket = (typeof SIZE_BUCKETS)[number];
/** A leg's notional below $10,000 is small, below $100,000 medium, else large (USD 1e9). */
export const SIZE_EDGES_USD_1E9 = { small: 10_000e9, medium: 100_000e9 } as const;

export function sizeBucket(notionalUsd1e9: number): SizeBucket {
  return notionalUsd1e9 < SIZE_EDGES_USD_1E9.small ? 'small' : notionalUsd1e9 < SIZE_EDGES_USD_1E9.medium ? 'medium' : 'large';
}

export type EndedStatus = 'COMPLETED' | 'CANCELLED' | 'REJECTED' | 'UNRESOLVED';

/** What an ended order adds to its order row. */
export interface OrderCountSample {
  status: EndedStatus;
  filled: boolean;
  fills: number;
  volume_usd_1e9: number;
  /** its legs left -> the first venue's answer, ms; null when no leg was answered */
  ack_ms: number | null;
  first_fill_ms: number | null;
  completion_ms: number;
}

/** What one leg adds to its venue's row. */
export interface LegCountSample {
  /** the venue answered (filled, rested, cancelled or refused it); false: lost, in doubt */
  acked: boolean;
  filled: boolean;
  rejected: boolean;
  ack_ms: number | null;
  size: SizeBucket;
}

interface SizeCounts {
  sent: number;
  filled: number;
  rejected: number;
}

/** The relative error of every sketch here (see tca-bucket.ts). */
export const SKETCH_RELATIVE_ACCURACY = 0.01;

const newSketch = () => new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });

export class ExecCounts {
  orders = 0;
  completed = 0;
  cancelled = 0;
  rejected = 0;
  unresolved = 0;
  /** orders with at least one fill */
  filled = 0;
  fills = 0;
  volume_usd_1e9 = 0n;
  completion_ms_sum = 0;
  ack = newSketch();
  first_fill = newSketch();
  completion = newSketch();
  legs_sent = 0;
  legs_acked = 0;
  legs_filled = 0;
  legs_rejected = 0;
  leg_ack_ms_sum = 0;
  leg_acks_timed = 0;
  sizes: Record<SizeBucket, SizeCounts> = { small: { sent: 0, filled: 0, rejected: 0 }, medium: { sent: 0, filled: 0, rejected: 0 }, large: { sent: 0, filled: 0, rejected: 0 } };

  addOrder(s: OrderCountSample): void {
    this.orders++;
    if (s.status === 'COMPLETED') this.completed++;
    else if (s.status === 'CANCELLED') this.cancelled++;
    else if (s.status === 'REJECTED') this.rejected++;
    else this.unresolved++;
    if (s.filled) this.filled++;
    this.fills += s.fills;
    this.volume_usd_1e9 += BigInt(s.volume_usd_1e9);
    this.completion_ms_sum += s.completion_ms;
    if (s.ack_ms !== null) this.ack.accept(Math.max(0, s.ack_ms));
    if (s.first_fill_ms !== null) this.first_fill.accept(Math.max(0, s.first_fill_ms));
    this.completion.accept(Math.max(0, s.completion_ms));
  }

  addLeg(s: LegCountSample): void {
    this.legs_sent++;
    const size = this.sizes[s.size];
    size.sent++;
    if (s.acked) this.legs_acked++;
    if (s.filled) {
      this.legs_filled++;
      size.filled++;
    }
    if (s.rejected) {
      this.legs_rejected++;
      size.rejected++;
    }
    if (s.ack_ms !== null) {
      this.leg_ack_ms_sum += Math.max(0, s.ack_ms);
      this.leg_acks_timed++;
    }
  }

  merge(o: ExecCounts): void {
    this.orders += o.orders;
    this.completed += o.completed;
    this.cancelled += o.cancelled;
    this.rejected += o.rejected;
    this.unresolved += o.unresolved;
    this.filled += o.filled;
    this.fills += o.fills;
    this.volume_usd_1e9 += o.volume_usd_1e9;
    this.completion_ms_sum += o.completion_ms_sum;
    mergeSketch(this.ack, o.ack);
    mergeSketch(this.first_fill, o.first_fill);
    mergeSketch(this.completion, o.completion);
    this.legs_sent += o.legs_sent;
    this.legs_acked += o.legs_acked;
    this.legs_filled += o.legs_filled;
    this.legs_rejected += o.legs_rejected;
    this.leg_ack_ms_sum += o.leg_ack_ms_sum;
    this.leg_acks_timed += o.leg_acks_timed;
    for (const b of SIZE_BUCKETS) {
      this.sizes[b].sent += o.sizes[b].sent;
      this.sizes[b].filled += o.sizes[b].filled;
      this.sizes[b].rejected += o.sizes[b].rejected;
    }
  }

  /** The figures a client reads: counts, rates (to 1e-4), latency percentiles (ms, to 0.01). */
  summary() {
    const rate = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 10_000) / 10_000 : null);
    return {
      orders: {
        submitted: this.orders,
        completed: this.completed,
        cancelled: this.cancelled,
        rejected: this.rejected,
        unresolved: this.unresolved,
        filled: this.filled,
        fill_rate: rate(this.filled, this.orders),
        reject_rate: rate(this.rejected, this.orders),
      },
      fills: { count: this.fills, volume_usd_1e9: this.volume_usd_1e9 },
      latency_ms: { ack: latencyPercentiles(this.ack), first_fill: latencyPercentiles(this.first_fill), completion: latencyPercentiles(this.completion) },
      avg_execution_time_ms: this.orders > 0 ? Math.round((this.completion_ms_sum / this.orders) * 100) / 100 : null,
      legs: {
        sent: this.legs_sent,
        acked: this.legs_acked,
        filled: this.legs_filled,
        rejected: this.legs_rejected,
        ack_rate: rate(this.legs_acked, this.legs_sent),
        fill_rate: rate(this.legs_filled, this.legs_sent),
        reject_rate: rate(this.legs_rejected, this.legs_sent),
        avg_ack_ms: this.leg_acks_timed > 0 ? Math.round((this.leg_ack_ms_sum / this.leg_acks_timed) * 100) / 100 : null,
      },
      sizes: copySizes(this.sizes),
    };
  }

  /** The binary form, inside a bucket's (TcaBucket.write): the counts as f64 in field order, the volume as decimal text, the three sketches. */
  write(w: WireWriter): void {
    w.f64(this.orders).f64(this.completed).f64(this.cancelled).f64(this.rejected).f64(this.unresolved).f64(this.filled).f64(this.fills);
    w.f64(this.completion_ms_sum).f64(this.legs_sent).f64(this.legs_acked).f64(this.legs_filled).f64(this.legs_rejected).f64(this.leg_ack_ms_sum).f64(this.leg_acks_timed);
    for (const b of SIZE_BUCKETS) w.f64(this.sizes[b].sent).f64(this.sizes[b].filled).f64(this.sizes[b].rejected);
    w.str(String(this.volume_usd_1e9));
    writeSketch(w, this.ack);
    writeSketch(w, this.first_fill);
    writeSketch(w, this.completion);
  }

  static read(r: WireReader): ExecCounts {
    const c = new ExecCounts();
    c.orders = r.f64();
    c.completed = r.f64();
    c.cancelled = r.f64();
    c.rejected = r.f64();
    c.unresolved = r.f64();
    c.filled = r.f64();
    c.fills = r.f64();
    c.completion_ms_sum = r.f64();
    c.legs_sent = r.f64();
    c.legs_acked = r.f64();
    c.legs_filled = r.f64();
    c.legs_rejected = r.f64();
    c.leg_ack_ms_sum = r.f64();
    c.leg_acks_timed = r.f64();
    for (const b of SIZE_BUCKETS) c.sizes[b] = { sent: r.f64(), filled: r.f64(), rejected: r.f64() };
    c.volume_usd_1e9 = BigInt(r.str());
    c.ack = readSketch(r, SKETCH_RELATIVE_ACCURACY);
    c.first_fill = readSketch(r, SKETCH_RELATIVE_ACCURACY);
    c.completion = readSketch(r, SKETCH_RELATIVE_ACCURACY);
    return c;
  }

  /** The object form buckets were stored in before the binary one, field by field (rest and spread copies are slow here). */
  toStored(): StoredExecCounts {
    return {
      orders: this.orders,
      completed: this.completed,
      cancelled: this.cancelled,
      rejected: this.rejected,
      unresolved: this.unresolved,
      filled: this.filled,
      fills: this.fills,
      completion_ms_sum: this.completion_ms_sum,
      legs_sent: this.legs_sent,
      legs_acked: this.legs_acked,
      legs_filled: this.legs_filled,
      legs_rejected: this.legs_rejected,
      leg_ack_ms_sum: this.leg_ack_ms_sum,
      leg_acks_timed: this.leg_acks_timed,
      volume_usd_1e9: String(this.volume_usd_1e9),
      sizes: copySizes(this.sizes),
      ack: encodeSketch(this.ack),
      first_fill: encodeSketch(this.first_fill),
      completion: encodeSketch(this.completion),
    };
  }

  static fromStored(s: StoredExecCounts): ExecCounts {
    const c = new ExecCounts();
    c.orders = s.orders;
    c.completed = s.completed;
    c.cancelled = s.cancelled;
    c.rejected = s.rejected;
    c.unresolved = s.unresolved;
    c.filled = s.filled;
    c.fills = s.fills;
    c.completion_ms_sum = s.completion_ms_sum;
    c.legs_sent = s.legs_sent;
    c.legs_acked = s.legs_acked;
    c.legs_filled = s.legs_filled;
    c.legs_rejected = s.legs_rejected;
    c.leg_ack_ms_sum = s.leg_ack_ms_sum;
    c.leg_acks_timed = s.leg_acks_timed;
    c.volume_usd_1e9 = BigInt(s.volume_usd_1e9);
    c.sizes = copySizes(s.sizes);
    c.ack = decodeSketch(s.ack, SKETCH_RELATIVE_ACCURACY);
    c.first_fill = decodeSketch(s.first_fill, SKETCH_RELATIVE_ACCURACY);
    c.completion = decodeSketch(s.completion, SKETCH_RELATIVE_ACCURACY);
    return c;
  }
}

/** Execution counts as stored: plain counts, the volume as a decimal string, the sketches' stored form. */
export interface StoredExecCounts {
  orders: number;
  completed: number;
  cancelled: number;
  rejected: number;
  unresolved: number;
  filled: number;
  fills: number;
  completion_ms_sum: number;
  legs_sent: number;
  legs_acked: number;
  legs_filled: number;
  legs_rejected: number;
  leg_ack_ms_sum: number;
  leg_acks_timed: number;
  volume_usd_1e9: string;
  sizes: Record<SizeBucket, SizeCounts>;
  ack: StoredSketch | Uint8Array;
  first_fill: StoredSketch | Uint8Array;
  completion: StoredSketch | Uint8Array;
}

/** A copy of the size counts (structuredClone costs microseconds per call, and this runs on every bucket write). */
function copySizes(s: Record<SizeBucket, SizeCounts>): Record<SizeBucket, SizeCounts> {
  return { small: { ...s.small }, medium: { ...s.medium }, large: { ...s.large } };
}

/**
 * DDSketch.merge, plus the negative store: @datadog/sketches-js 2.1.1's merge folds the positive
 * store only (an empty sketch copies both), so negative values (fills better than the mid) were
 * lost. The property test "merging buckets equals adding every sample to one" caught it.
 */
export function mergeSketch(into: DDSketch, other: DDSketch): void {
  if (other.count === 0) return;
  const wasEmpty = into.count === 0;
  into.merge(other);
  if (!wasEmpty) into.negativeStore.merge(other.negativeStore);
}

/** p50/p95/p99 of a latency sketch, ms rounded to 0.01; nulls when empty. */
export function latencyPercentiles(s: DDSketch): { p50: number | null; p95: number | null; p99: number | null } {
  const at = (q: number) => (s.count > 0 ? Math.round(s.getValueAtQuantile(q) * 100) / 100 : null);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
