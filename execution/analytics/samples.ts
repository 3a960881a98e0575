import type { OrderRecord } from '../../domain/orders.ts';
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
export function tcaSamples(order: Pick<OrderRecord, 'symbol' | 'side' | 'routing_version' | 'reconciliation_state' | 'updated_unix_ns' | 'tca'>): TcaSample[] {
  const tca = order.tca as TcaReport | null;
  if (tca === null || tca.filled_qty_1e8 <= 0 || !(tca.notional_usd_1e9 > 0)) return [];
  const hour_ms = hourOf(Math.floor(order.updated_unix_ns / NS_PER_MS));
  const kind = tca.is_prediction ? 'prediction' : 'price';
  const provenance = provenanceOf(order, tca);
  const sign = order.side === 'buy' ? 1 : -1;
  const mid = tca.arrival_mid_1e9;
  const base = { hour_ms, kind, symbol: order.symbol, routing_version: order.routing_version, provenance } as const;
  const samples: TcaSample[] = [
    {
      ...base,
      venue: '',
      notional_usd_1e9: tca.notional_usd_1e9,
      shortfall_bps: tca.is_prediction ? tca.probability_slippage_bps : tca.implementation_shortfall_bps,
      spread_bps: tca.spread_cost_bps,
      fee_bps: tca.fee_bps,
      impact_bps: tca.impact_bps,
      savings_bps: tca.savings_vs_best_single_venue_bps,
      savings_usd_1e9: tca.savings_usd_1e9,
      fees_usd_1e9: tca.fees_usd_1e9,
    },
  ];
  for (const v of tca.venues) {
    const notional = Math.round(tca.notional_usd_1e9 * v.share);
    if (notional <= 0 || !(mid > 0)) continue;
    // A prediction price is a probability in 1e9 units: its slippage is in probability bps.
    const shortfall = tca.is_prediction ? (sign * (v.vwap_1e9 - mid) * 10_000) / 1e9 : (sign * (v.vwap_1e9 - mid) * 10_000) / mid;
    samples.push({
      ...base,
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
