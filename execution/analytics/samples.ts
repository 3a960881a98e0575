import { isTerminal, type OrderRecord } from '../../domain/orders.ts';
import { sizeBucket, type EndedStatus, type LegCountSample, type OrderCountSample } from './exec-counts.ts';
import type { TcaReport } from '../tca/tca.ts';
import { hourOf, type Provenance, type TcaSample } from './tca-bucket.ts';

const NS_PER_MS = 1_000_000;

/**
 * How an order's TCA was observed: `reconstructed` when its legs were reconciled with the venues
 * (an answer lost, or the order closed after a restart) rather than seen as they came; otherwise
 * `direct`, or `no_benchmark` when no single venue could have filled it to compare against.
 */
export function provenanceOf(order: Pick<OrderRecord, 'reconciliation_state'>, tca: Pick<TcaReport, 'best_single_venue'>): Provenance {
  if (order.reconciliation_state === 'reconciled' || order.reconciliation_state === 'reconciling') return 'reconstructed';
  return tca.best_single_venue === null ? 'no_benchmark' : 'direct';
}

/**
 * What a completed order adds to the aggregates: itself whole (venue '') and its slice on each
 * venue it filled on. Empty when it has no TCA (nothing filled). Bucketed by the UTC hour it
 * completed in. Prediction orders are `prediction` samples in probability bps.
 */
export function tcaSamples(order: Pick<OrderRecord, 'node_order_id' | 'symbol' | 'side' | 'routing_version' | 'reconciliation_state' | 'updated_unix_ns' | 'tca'>): TcaSample[] {
  const tca = order.tca as TcaReport | null;
  if (tca === null || tca.filled_qty_1e8 <= 0 || !(tca.notional_usd_1e9 > 0)) return [];
  const hour_ms = hourOf(Math.floor(order.updated_unix_ns / NS_PER_MS));
  const kind = tca.is_prediction ? 'prediction' : 'price';
  const provenance = provenanceOf(order, tca);
  const sign = order.side === 'buy' ? 1 : -1;
  const mid = tca.arrival_mid_1e9;
  // Literal objects, not `{ ...base }`: V8 here clones a spread object with a double field
  // (hour_ms) about 50x slower than it builds a literal (bench/analytics.bench.ts, docs/analytics.md).
  const symbol = order.symbol;
  const routing_version = order.routing_version;
  const samples: TcaSample[] = [
    {
      hour_ms,
      kind,
      symbol,
      routing_version,
      provenance,
      venue: '',
      notional_usd_1e9: tca.notional_usd_1e9,
      shortfall_bps: tca.is_prediction ? tca.probability_slippage_bps : tca.implementation_shortfall_bps,
      spread_bps: tca.spread_cost_bps,
      fee_bps: tca.fee_bps,
      impact_bps: tca.impact_bps,
      savings_bps: tca.savings_vs_best_single_venue_bps,
      savings_usd_1e9: tca.savings_usd_1e9,
      fees_usd_1e9: tca.fees_usd_1e9,
      order: { node_order_id: order.node_order_id, side: order.side },
    },
  ];
  for (const v of tca.venues) {
    const notional = Math.round(tca.notional_usd_1e9 * v.share);
    if (notional <= 0 || !(mid > 0)) continue;
    // A prediction price is a probability in 1e9 units: its slippage is in probability bps.
    const shortfall = tca.is_prediction ? (sign * (v.vwap_1e9 - mid) * 10_000) / 1e9 : (sign * (v.vwap_1e9 - mid) * 10_000) / mid;
    samples.push({
      hour_ms,
      kind,
      symbol,
      routing_version,
      provenance,
      venue: v.venue,
      notional_usd_1e9: notional,
      shortfall_bps: shortfall,
      spread_bps: tca.spread_cost_bps,
      fee_bps: (v.fee_1e9 * 10_000) / notional,
      impact_bps: shortfall - tca.spread_cost_bps,
      savings_bps: null,
      savings_usd_1e9: null,
      fees_usd_1e9: v.fee_1e9,
    });
  }
  return samples;
}

/** An ended order's execution counts: its own row (venue '') and each leg it sent, on its venue's row. */
export interface ExecSample {
  hour_ms: number;
  kind: 'price' | 'prediction';
  symbol: string;
  routing_version: number;
  venue: string;
  order?: OrderCountSample;
  leg?: LegCountSample;
}

type EndedOrder = Pick<OrderRecord, 'symbol' | 'status' | 'instrument_type' | 'routing_version' | 'created_unix_ns' | 'updated_unix_ns' | 'filled_qty_1e8' | 'children' | 'fill_ids' | 'tca'>;

export function execSamples(order: EndedOrder): ExecSample[] {
  if (!isTerminal(order.status)) return [];
  const tca = order.tca as TcaReport | null;
  const hour_ms = hourOf(Math.floor(order.updated_unix_ns / NS_PER_MS));
  const kind = order.instrument_type === 'prediction' ? 'prediction' : 'price';
  const symbol = order.symbol;
  const routing_version = order.routing_version;
  // Both instants on the legs' clock (wallClockNs): created_unix_ns is Date.now's, and the two
  // drift apart by milliseconds over a run, so an ack spans the legs leaving to the first answer.
  let firstSent = Infinity;
  let firstAnswer = Infinity;
  for (const c of order.children) {
    if (c.sent_unix_ns !== undefined && c.sent_unix_ns < firstSent) firstSent = c.sent_unix_ns;
    if (c.answered_unix_ns !== undefined && c.answered_unix_ns < firstAnswer) firstAnswer = c.answered_unix_ns;
  }
  const samples: ExecSample[] = [
    {
      hour_ms,
      kind,
      symbol,
      routing_version,
      venue: '',
      order: {
        status: order.status as EndedStatus,
        filled: order.filled_qty_1e8 > 0,
        fills: order.fill_ids.length,
        volume_usd_1e9: tca?.notional_usd_1e9 ?? 0,
        ack_ms: firstAnswer === Infinity || firstSent === Infinity ? null : (firstAnswer - firstSent) / NS_PER_MS,
        first_fill_ms: tca?.time_to_first_fill_ms ?? null,
        completion_ms: tca?.execution_time_ms ?? Math.max(0, order.updated_unix_ns - order.created_unix_ns) / NS_PER_MS,
      },
    },
  ];
  const mid = tca?.arrival_mid_1e9 ?? 0;
  for (const c of order.children) {
    // A leg refused before it left (no balance for it) was never sent to the venue.
    if (c.sent_unix_ns === undefined) continue;
    const price = c.limit_price_1e9 ?? mid;
    samples.push({
      hour_ms,
      kind,
      symbol,
      routing_version,
      venue: c.venue,
      leg: {
        acked: c.answered_unix_ns !== undefined,
        filled: c.filled_qty_1e8 > 0,
        rejected: c.status === 'rejected',
        ack_ms: c.answered_unix_ns === undefined ? null : (c.answered_unix_ns - c.sent_unix_ns) / NS_PER_MS,
        size: sizeBucket(Math.round((c.qty_1e8 / 1e8) * price)),
      },
    });
  }
  return samples;
}
