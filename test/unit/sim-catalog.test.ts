/**
 * The simulated venues' catalog: ten venues and their edges, the listing universe the issue asks
 * for (>= 25 spot pairs in USD/USDT/USDC, perps on hyperliquid and >= 2 spot exchanges under the
 * shared canonical symbol, uneven listings, a cold set), valid matching rules, fee rows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PERP_VENUES, PREDICTION_VENUES, SPOT_VENUES, VENUES, parseSymbol } from '../../domain/market.ts';
import {
  EDGES,
  edgeSpec,
  edges,
  edgesListing,
  feeRowOf,
  listingOf,
  listingsOf,
  rulesOf,
  symbolsOf,
  venues,
} from '../../domain/venues.ts';
import { underlyingSpec } from '../../actors/edge/sim/catalog.ts';

describe('sim catalog', () => {
  it('has the ten venues, each with at least one edge named by the convention', () => {
    assert.deepEqual(venues().map((v) => v.venue).sort(), [...VENUES].sort());
    for (const v of VENUES) assert.ok(EDGES.some((e) => e.venue === v), v);
    for (const e of EDGES) {
      const spotToo = EDGES.some((x) => x.venue === e.venue && x.instrument_type === 'spot');
      const expected = e.instrument_type === 'perp' && spotToo ? `venue-edge-${e.venue}-perp` : `venue-edge-${e.venue}`;
      assert.equal(e.edge_id, expected);
      assert.ok(['na', 'eu', 'ap'].includes(e.region), e.edge_id);
    }
    assert.equal(new Set(EDGES.map((e) => e.edge_id)).size, EDGES.length, 'edge ids unique');
    assert.equal(edgeSpec('venue-edge-hyperliquid')?.instrument_type, 'perp');
    assert.equal(edges().length, EDGES.length);
    assert.deepEqual(Object.keys(edges()[0]!).sort(), ['edge_id', 'instrument_type', 'region', 'supports_algo_runtime', 'venue']);
  });

  it('lists >= 25 spot pairs over USD, USDT and USDC, and not every venue lists every pair', () => {
    const spot = symbolsOf('spot');
    assert.ok(spot.length >= 25, `${spot.length} spot pairs`);
    const quotes = new Set(spot.map((s) => parseSymbol(s)!.quote));
    assert.deepEqual([...quotes].sort(), ['USD', 'USDC', 'USDT']);
    for (const base of ['BTC', 'ETH', 'SOL']) assert.ok(spot.some((s) => s.startsWith(`${base}-`)), base);
    for (const v of SPOT_VENUES) assert.ok(listingsOf(`venue-edge-${v}`).length >= 10, v);
    const partial = spot.filter((s) => edgesListing(s, 'spot').length < SPOT_VENUES.length);
    assert.ok(partial.length > spot.length / 2, 'most pairs are on a subset of the venues');
    assert.ok(spot.some((s) => edgesListing(s, 'spot').length === 1), 'some pair is on one venue only');
    // Realistic quote habits: coinbase, kraken, bitstamp quote USD; binance and okx do not.
    for (const v of ['coinbase', 'kraken', 'bitstamp']) assert.ok(listingOf(`venue-edge-${v}`, 'BTC-USD'), v);
    for (const v of ['binance', 'okx', 'bybit', 'kucoin']) {
      assert.equal(listingOf(`venue-edge-${v}`, 'BTC-USD'), undefined, v);
      assert.ok(listingOf(`venue-edge-${v}`, 'BTC-USDT'), v);
      assert.ok(listingOf(`venue-edge-${v}`, 'BTC-USDC'), v);
    }
  });

  it('has perps on hyperliquid and on >= 2 spot exchanges, sharing the canonical symbol with spot', () => {
    for (const v of PERP_VENUES) assert.ok(listingsOf(`venue-edge-${v}`).length > 0, v);
    const perpEdgesOfSpotVenues = EDGES.filter((e) => e.instrument_type === 'perp' && (SPOT_VENUES as readonly string[]).includes(e.venue));
    assert.ok(perpEdgesOfSpotVenues.length >= 2);
    for (const e of perpEdgesOfSpotVenues) {
      assert.ok(e.edge_id.endsWith('-perp'));
      assert.ok(e.funding !== null);
      const spot = edgeSpec(`venue-edge-${e.venue}`)!;
      assert.ok(e.listings.some((l) => spot.listings.some((s) => s.symbol === l.symbol)), `${e.edge_id} shares a symbol with spot`);
    }
    assert.ok(listingOf('venue-edge-binance-perp', 'BTC-USDT') && listingOf('venue-edge-binance', 'BTC-USDT'));
    assert.ok(symbolsOf('perp').includes('BTC-USDT'));
  });

  it('lists no prediction markets yet, but the prediction venues have edges', () => {
    for (const v of PREDICTION_VENUES) {
      const e = edgeSpec(`venue-edge-${v}`)!;
      assert.equal(e.instrument_type, 'prediction');
      assert.equal(e.listings.length, 0);
    }
  });

  it('gives every listing valid integer matching rules and a known underlying', () => {
    for (const e of EDGES) {
      for (const l of e.listings) {
        const r = l.rules;
        const where = `${e.edge_id} ${l.symbol}`;
        for (const x of [r.tick_1e9, r.lot_1e8, r.min_qty_1e8, r.min_notional_1e9]) assert.ok(Number.isSafeInteger(x) && x >= 0, where);
        assert.ok(r.tick_1e9 >= 1 && r.lot_1e8 >= 1, where);
        assert.equal(r.min_qty_1e8 % r.lot_1e8, 0, where);
        const u = underlyingSpec(l.base)!;
        assert.ok(u, where);
        // The tick is at most ~1 bps of the price and the lot at most ~$100.
        assert.ok((r.tick_1e9 / (u.ref_usd * 1e9)) * 1e4 <= 1.1, `${where} tick`);
        assert.ok((r.lot_1e8 / 1e8) * u.ref_usd <= 100, `${where} lot`);
        assert.deepEqual(rulesOf(e.edge_id, l.symbol), r);
      }
    }
    // Spot-checks against public venue habits: binance BTC 0.01 / 0.00001, hyperliquid 5 s.f.
    assert.deepEqual(rulesOf('venue-edge-binance', 'BTC-USDT'), { tick_1e9: 10_000_000, lot_1e8: 1_000, min_qty_1e8: 1_000, min_notional_1e9: 5_000_000_000 });
    assert.equal(rulesOf('venue-edge-hyperliquid', 'BTC-USDC')!.tick_1e9, 1_000_000_000);
    assert.equal(rulesOf('venue-edge-coinbase', 'BTC-USD')!.lot_1e8, 1);
  });

  it('subscribes the liquid listings and leaves a few cold ones on most edges', () => {
    const cold = EDGES.flatMap((e) => e.listings.filter((l) => !l.subscribed).map((l) => `${e.edge_id} ${l.symbol}`));
    assert.ok(cold.length >= 5, cold.join(', '));
    for (const e of EDGES.filter((x) => x.listings.length > 0)) {
      const subscribed = e.listings.filter((l) => l.subscribed).length;
      assert.ok(subscribed >= 5 && subscribed <= 30, `${e.edge_id}: ${subscribed}`);
      assert.ok(e.listings.find((l) => l.symbol.startsWith('BTC-'))!.subscribed, `${e.edge_id} BTC subscribed`);
    }
  });

  it('answers fee rows with integer bps and matching formulas', () => {
    for (const v of VENUES) {
      const row = feeRowOf(v)!;
      assert.equal(row.venue, v);
      assert.ok(Number.isInteger(row.maker_bps) && Number.isInteger(row.taker_bps), v);
      assert.ok(row.maker_bps! >= 0 && row.taker_bps! >= row.maker_bps!, v);
      if (row.fee_model === 'linear') {
        assert.deepEqual(row.components, {});
        assert.equal(row.formula.taker_fee_usd, `qty * price * ${row.taker_bps} / 10000`);
      }
    }
    assert.equal(feeRowOf('kalshi')!.fee_model, 'binary_quadratic');
    assert.equal(feeRowOf('kalshi')!.components.rate_bps, 2 * feeRowOf('kalshi')!.taker_bps!);
    assert.equal(feeRowOf('kalshi')!.formula.maker_fee_usd, '0');
    assert.deepEqual([feeRowOf('binance')!.taker_bps, feeRowOf('binance', 'perp')!.taker_bps], [10, 5]);
    assert.deepEqual([feeRowOf('hyperliquid')!.maker_bps, feeRowOf('hyperliquid')!.taker_bps], [2, 5]);
    assert.equal(feeRowOf('nowhere'), undefined);
  });
});
