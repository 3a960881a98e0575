// A leg's fill as the durable FillRecord, and a FillRecord as the positions ledger books it.
import type { ChildExecution, DexFillFacts } from '../actors/edge/messages.ts';
import { edgeSpec, perpImrBps } from '../domain/venues.ts';
import type { SpotFill } from './ledger/ledger.ts';
import { parseSymbol } from '../domain/market.ts';
import type { ChildOrder, FillRecord, OrderRecord } from '../domain/orders.ts';
import { PRICE_SCALE } from '../domain/units.ts';
import { legOn } from './prediction-entry.ts';
import { SINGLE_NODE_REGION } from './order-record.ts';

/** One fill of a leg's answer (or a maker fill) as the FillRecord with the id `id`, booked at `tsNs`. */
export function fillRecord(
  id: number,
  tsNs: number,
  order: Pick<OrderRecord, 'node_order_id' | 'symbol' | 'side' | 'instrument_type' | 'prediction_legs' | 'lineage_deployment_id' | 'home_region'>,
  child: Pick<ChildOrder, 'venue' | 'edge_id'>,
  result: Pick<ChildExecution, 'maker_bps' | 'taker_bps'>,
  f: ChildExecution['fills'][number],
  answerIsMaker: boolean,
): FillRecord {
  // The venue's own word wins over the kind of answer (a GTC that rested and filled before its placement was read back).
  const isMaker = f.is_maker ?? answerIsMaker;
  // A prediction fill is of its venue's leg (an equivalent on another venue has its own symbol), paid in that venue's cash.
  const leg = legOn(order.prediction_legs, child.venue);
  const quote = leg?.cash ?? (f.dex !== undefined ? parseSymbol(f.dex.pair)!.quote : parseSymbol(order.symbol)!.quote);
  const record: FillRecord = {
    id,
    fill_id: `fil_${id.toString(36)}`,
    node_order_id: order.node_order_id,
    venue: child.venue,
    symbol: leg?.symbol ?? order.symbol,
    side: order.side,
    instrument_type: order.instrument_type,
    qty_1e8: f.qty_1e8,
    price_1e9: f.price_1e9,
    fee_1e9: f.fee_1e9,
    ts_unix_ns: tsNs,
    commission_asset: quote,
    exchange_ts_ns: f.ts_ns,
    execution_region: executionRegion(order.home_region, child.edge_id, f.region),
    fee_breakdown: {
      commission_1e9: f.fee_1e9,
      lp_fee_1e9: 0,
      gas_1e9: 0,
      priority_fee_1e9: 0,
      mev_tip_1e9: 0,
      funding_1e9: 0,
      rebate_1e9: 0,
      hop_fees_1e9: 0,
      commission_asset: quote,
    },
    is_maker: isMaker,
    maker_fee_bps_applied: isMaker ? result.maker_bps : null,
    taker_fee_bps_applied: isMaker ? null : result.taker_bps,
    trade_id: f.trade_id,
    venue_reported_cum_fee_1e9: f.cum_fee_1e9,
    lineage_deployment_id: order.lineage_deployment_id,
  };
  if (leg !== undefined) record.instrument = { ...leg.instrument };
  if (f.dex !== undefined) dexFill(record, f.dex);
  else if (f.commission !== undefined) {
    // A live venue took its commission in another asset (a buy's base, BNB): debited there.
    record.commission_asset = f.commission.asset;
    record.commission_qty_1e8 = f.commission.qty_1e8;
    record.fee_breakdown.commission_asset = f.commission.asset;
  }
  return record;
}

/**
 * Where a fill executed: a remote edge's fill names its node's region; a local edge runs in the
 * order's home region. A single node (home `local`) has no regions: the venue's own location
 * from the catalog.
 */
function executionRegion(home: string | null, edge_id: string, remote: string | undefined): string {
  if (remote !== undefined) return remote;
  if (home !== null && home !== SINGLE_NODE_REGION) return home;
  return edgeSpec(edge_id)?.region ?? 'unknown';
}

/**
 * A pool leg's fill (dex-orders.ts): the pool's pair (the order may be `ETH-USD` across venues
 * and pools), the LP fee inside the price and shown apart, the gas as the fee, paid in ETH.
 */
function dexFill(record: FillRecord, dex: DexFillFacts): void {
  record.symbol = dex.pair;
  record.commission_asset = 'ETH';
  record.commission_qty_1e8 = dex.gas_native_1e8;
  record.execution_region = record.venue;
  record.taker_fee_bps_applied = dex.fee_bps;
  record.fee_breakdown = { ...record.fee_breakdown, commission_1e9: 0, lp_fee_1e9: dex.lp_fee_1e9, gas_1e9: dex.gas_1e9, priority_fee_1e9: dex.priority_fee_1e9, hop_fees_1e9: 0, commission_asset: 'ETH' };
}

/** The asset a fill is paid in: its pair's quote, or a prediction fill's cash (its commission asset). */
export function fillQuote(fill: FillRecord): string {
  return fill.instrument !== undefined ? fill.commission_asset : parseSymbol(fill.symbol)!.quote;
}

/** The asset a fill's fee is paid in and how much of it: the quote (the USD fee as its units), or the commission asset a DEX fill's gas is paid in. */
function feePaid(fill: FillRecord, quote: string): { fee_asset: string; fee_qty_1e8: number } {
  if (fill.commission_qty_1e8 !== undefined) return { fee_asset: fill.commission_asset, fee_qty_1e8: fill.commission_qty_1e8 };
  // USD 1e9 to quote units 1e8, rounded up against the client; quotes here are USD-pegged.
  return { fee_asset: quote, fee_qty_1e8: Math.ceil(fill.fee_1e9 / 10) };
}

/** A durable fill as the ledger books it (the same mapping live and on replay). */
export function ledgerFill(fill: FillRecord, quote: string = fillQuote(fill)): SpotFill {
  return {
    ...(fill.instrument !== undefined ? { contract: fill.instrument, cash: quote } : {}),
    ...(fill.instrument_type === 'perp' ? { perp: { imr_bps: perpImrBps(fill.venue, parseSymbol(fill.symbol)!.base) ?? 0, ts_ns: fill.ts_unix_ns } } : {}),
    fill_id: fill.fill_id,
    venue: fill.venue,
    symbol: fill.symbol,
    side: fill.side,
    qty_1e8: fill.qty_1e8,
    price_1e9: fill.price_1e9,
    fee_1e9: fill.fee_1e9,
    ...feePaid(fill, quote),
    quote_usd_1e9: PRICE_SCALE,
  };
}
