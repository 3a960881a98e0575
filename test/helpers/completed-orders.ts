/**
 * A completed order as the journal stage folds it, deterministic in `i`: filled (one in nine
 * rejected, one in five cancelled), one in eleven reconciled, a shortfall spread over -5..15 bps,
 * one leg in three never sent on the third venue, one in seven never answered. Used by the TCA
 * aggregates tests and bench/analytics.bench.ts.
 */
export function completedOrder(i: number, completedMs: number, rv: 1 | 2 | 3, symbol: string, venues: readonly string[]) {
  const notional = (1 + (i % 7)) * 1_000e9;
  const shares = venues.map((_, k) => (k + 1) / ((venues.length * (venues.length + 1)) / 2));
  const updated = completedMs * 1e6;
  const rejected = i % 9 === 4;
  return {
    node_order_id: `ord-${i}`,
    symbol,
    side: (i % 2 === 0 ? 'buy' : 'sell') as 'buy' | 'sell',
    routing_version: rv,
    reconciliation_state: (i % 11 === 0 ? 'reconciled' : 'in_sync') as 'reconciled' | 'in_sync',
    status: (rejected ? 'REJECTED' : i % 5 === 0 ? 'CANCELLED' : 'COMPLETED') as 'REJECTED' | 'CANCELLED' | 'COMPLETED',
    instrument_type: 'spot' as const,
    created_unix_ns: updated - (3 + (i % 40)) * 1e6,
    updated_unix_ns: updated,
    filled_qty_1e8: rejected ? 0 : 1e7,
    fill_ids: rejected ? [] : venues.map((_, k) => i * 10 + k),
    children: venues.map((venue, k) => ({
      child_id: `o${i}-${k}`,
      venue,
      edge_id: venue,
      qty_1e8: 1e7,
      limit_price_1e9: 50_000e9 * (1 + k),
      filled_qty_1e8: rejected ? 0 : 1e7,
      status: (rejected ? 'rejected' : 'filled') as 'rejected' | 'filled',
      reason: null,
      fee_1e9: 0,
      venue_reported_cum_fee_1e9: 0,
      ...(k === 2 && i % 3 === 0 ? {} : { sent_unix_ns: updated - 2e6, ...(i % 7 === 6 ? {} : { answered_unix_ns: updated - 2e6 + (k + 1) * 250_000 + i * 1_000 }) }),
    })),
    tca: rejected ? null : {
      filled_qty_1e8: 1e7,
      notional_usd_1e9: notional,
      arrival_mid_1e9: 50_000e9,
      implementation_shortfall_bps: ((i * 37) % 200) / 10 - 5,
      spread_cost_bps: 0.5,
      impact_bps: ((i * 37) % 200) / 10 - 5.5,
      fee_bps: 5,
      savings_vs_best_single_venue_bps: i % 4 === 0 ? null : ((i * 13) % 50) / 10 - 1,
      savings_usd_1e9: i % 4 === 0 ? null : i * 1_000,
      fees_usd_1e9: notional / 2_000,
      best_single_venue: i % 4 === 0 ? null : { venue: venues[0] },
      is_prediction: false,
      probability_slippage_bps: 0,
      venues: venues.map((venue, k) => ({ venue, qty_1e8: 0, vwap_1e9: 50_000e9 + i * 1e6 * (k + 1), fee_1e9: Math.round((notional * shares[k]!) / 2_000), share: shares[k]! })),
    },
  };
}
