/**
 * The live Kalshi adapter's pure core: request signing headers, the catalog (events, markets,
 * price grids, fees), the books (REST and the `orderbook_delta` stream, its per-subscription
 * sequence), orders on the V2 endpoints, fills, cancels, balances, positions, errors and limits.
 *
 * Samples, by source:
 *   - docs.kalshi.com, read from its mirror github.com/ammario/kalshi-docs (commit 59e4f721,
 *     August 2026), printed verbatim there: the REST orderbook example (getting_started/
 *     orderbook_responses) and its spread calculation; the `orderbook_snapshot` and
 *     `orderbook_delta` examples (websockets/orderbook-updates); the `subscribed`, `ok`,
 *     `unsubscribed` answers and the `update_subscription`/`unsubscribe` commands
 *     (websockets/websocket-connection); the WebSocket error example (quick_start_websockets);
 *     the Create Order (V2) request and answer, Cancel Order (V2) answer, Batch Cancel (V2)
 *     request and answer (api-reference/orders/*-v2); `GET /account/limits` and the 429 body and
 *     the Premier bucket walk-through (getting_started/rate_limits); the fee_rounding worked
 *     examples; the price level structure table (getting_started/fixed_point_migration).
 *   - Answers captured from production and printed in public repositories (not Kalshi's docs):
 *     the legacy-format market, exchange status, balance, positions, order and fill examples of
 *     lucas-j-zheng/kalshi-agent docs/KALSHI_API.md ("Tested against production API",
 *     2025-11-27), the 401 body of mbs4816-create/Footbe-Trader AUTH_ISSUE_DIAGNOSIS.md, and the
 *     legacy `orderbook` shape of velcrafting/codex-skills.
 *   - Fee figures computed by hand from the fee schedule's formula (0.07 x C x P x (1 - P), maker
 *     0.0175); market rows built from the OpenAPI Market schema's fields; anything else marked
 *     "not from the docs" is made up for the case it tests.
 */
import assert from 'node:assert/strict';
import { constants, generateKeyPairSync, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { binaryTakerFeeUsd1e9 } from '../../domain/prediction/fees.ts';
import { classifySymbol } from '../../domain/prediction/symbols.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { krakenClientOrderId } from '../../actors/edge/live/kraken/codec.ts';
import { VenueLimits } from '../../actors/edge/live/venue-limits.ts';
import { KalshiBookStream, KalshiBookSync, legLevels, mirrorChanges, PRICE_ONE, type KalshiStreamMessage, type MarketOutcome, type NoPricing } from '../../actors/edge/live/kalshi/book-sync.ts';
import {
  accountProbeOf,
  batchCancelBody,
  batchCancelMax,
  BALANCE_PRECISION_1E9,
  cancelPath,
  cashBalance,
  childOfKalshi,
  clientOrderLookupPath,
  createOrderBody,
  createOrderOutcome,
  decodeAccountLimits,
  decodeBalance,
  decodeBatchCancel,
  decodeCancel,
  decodeEventsPage,
  decodeExchangeStatus,
  decodeFills,
  decodeMarket,
  decodeMarketsPage,
  decodeOrder,
  decodeOrderbook,
  decodeOrders,
  decodePositions,
  decodeSeriesFees,
  decodeWsMessage,
  eventsPath,
  fillCharges,
  fillRevenue1e9,
  fillsCover,
  fillsPath,
  findByChildId,
  finestStep,
  formatCount,
  formatDollars,
  isOnGrid,
  kalshiAuthHeaders,
  kalshiClientOrderId,
  kalshiError,
  kalshiFeeComponents,
  kalshiKeyOf,
  kalshiLimitRules,
  kalshiTradeFee1e9,
  kalshiWsHeaders,
  legPrice,
  legReportOf,
  legSymbol,
  marketPhase,
  marketsPath,
  openEventsPath,
  orderbookPath,
  orderPath,
  ordersPath,
  orderTerms,
  ownOpenOrders,
  parseLegSymbol,
  positionBalances,
  PRICE_LEVEL_STRUCTURES,
  priceBandsOf,
  priceOnGrid,
  predictionEventOf,
  requestCost,
  restingOrdersPath,
  settledReportOf,
  subscribeCommand,
  takerRateBps,
  tierBuckets,
  tradingActive,
  unsubscribeCommand,
  updateSubscriptionCommand,
  type KalshiEvent,
  type PriceBand,
} from '../../actors/edge/live/kalshi/codec.ts';

const CENT = 10_000_000;
const CONTRACT = 100_000_000;
const CHILD = 'ord_0mwz4ka3500001oq-2';

// ---------------------------------------------------------------------------------------------

describe('Kalshi signing headers', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = { keyId: 'a952bcbe-ec3b-4b5b-b8f9-11dae589608c', privateKey };
  // PSS is randomized: a signature is checked against the public key, never compared to a fixed one.
  const verifies = (message: string, signature: string) =>
    verify('sha256', Buffer.from(message), { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, Buffer.from(signature, 'base64'));

  it('signs timestamp + METHOD + the path from /trade-api/ without its query, in the three headers', () => {
    const h = kalshiAuthHeaders(key, 1703123456789, 'delete', '/trade-api/v2/portfolio/events/orders/3b23c1c7?market_ticker=HIGHNY-24JAN01-T60');
    assert.deepEqual(Object.keys(h), ['KALSHI-ACCESS-KEY', 'KALSHI-ACCESS-TIMESTAMP', 'KALSHI-ACCESS-SIGNATURE']);
    assert.equal(h['KALSHI-ACCESS-KEY'], key.keyId);
    assert.equal(h['KALSHI-ACCESS-TIMESTAMP'], '1703123456789');
    const signature = h['KALSHI-ACCESS-SIGNATURE']!;
    assert.ok(verifies('1703123456789DELETE/trade-api/v2/portfolio/events/orders/3b23c1c7', signature));
    assert.ok(!verifies('1703123456789DELETE/trade-api/v2/portfolio/events/orders/3b23c1c7?market_ticker=HIGHNY-24JAN01-T60', signature), 'not with the query');
    assert.ok(!verifies('1703123456789DELETE/portfolio/events/orders/3b23c1c7', signature), 'the path from the API root, not from v2');
  });

  it('signs the WebSocket handshake as GET /trade-api/ws/v2', () => {
    const h = kalshiWsHeaders(key, 1703123456790);
    assert.equal(h['KALSHI-ACCESS-TIMESTAMP'], '1703123456790');
    assert.ok(verifies('1703123456790GET/trade-api/ws/v2', h['KALSHI-ACCESS-SIGNATURE']!));
  });

  it('refuses a path the venue could never verify, and a timestamp that is not ms', () => {
    assert.throws(() => kalshiAuthHeaders(key, 1703123456789, 'GET', '/portfolio/balance'), RangeError);
    assert.throws(() => kalshiAuthHeaders(key, 1703123456.789, 'GET', '/trade-api/v2/portfolio/balance'), RangeError);
  });

  it('parses the stored credential once: key id and PEM', () => {
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const parsed = kalshiKeyOf({ api_key: key.keyId, api_secret: pem });
    const h = kalshiAuthHeaders(parsed, 1, 'GET', '/trade-api/v2/portfolio/balance');
    assert.ok(verifies('1GET/trade-api/v2/portfolio/balance', h['KALSHI-ACCESS-SIGNATURE']!));
  });
});

describe('Kalshi legs and client order ids', () => {
  it('names legs <ticker>:YES|NO, as the catalog does, and reads them back', () => {
    assert.equal(legSymbol('KXHIGHNY-24JAN01-T60', 'NO'), 'KXHIGHNY-24JAN01-T60:NO');
    assert.deepEqual(parseLegSymbol('KXBTCD-25AUG0517-T114999.99:YES'), { ticker: 'KXBTCD-25AUG0517-T114999.99', leg: 'YES' });
    assert.equal(parseLegSymbol('KXHIGHNY-24JAN01-T60'), undefined);
    assert.equal(parseLegSymbol('kxhighny:YES'), undefined);
    assert.equal(parseLegSymbol(':NO'), undefined);
  });

  it("packs the child id into Kraken's UUID, the leg into the tag's last bit, and reads both back", () => {
    const yes = kalshiClientOrderId(CHILD, 'YES')!;
    const no = kalshiClientOrderId(CHILD, 'NO')!;
    assert.equal(yes, krakenClientOrderId(CHILD));
    assert.match(yes, /^5e9ce[0-9a-f]{3}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(no, `5e9cf${yes.slice(5)}`);
    assert.deepEqual(childOfKalshi(yes), { child_id: CHILD, leg: 'YES' });
    assert.deepEqual(childOfKalshi(no.toUpperCase()), { child_id: CHILD, leg: 'NO' }, 'either case');
    assert.equal(childOfKalshi('8c35ecb3-328f-4f52-8c7c-0f4b9862f8d1'), undefined, "the docs' example id is not ours");
    assert.equal(kalshiClientOrderId('not-a-child', 'YES'), undefined);
  });

  it('round-trips every child id of the store shape, on both legs (property)', () => {
    const base36 = fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyz');
    const base62 = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    const child = fc
      .tuple(fc.string({ unit: base36, minLength: 13, maxLength: 13 }), fc.string({ unit: base62, minLength: 3, maxLength: 3 }), fc.integer({ min: 0, max: 65535 }))
      .map(([t, s, n]) => `ord_${t}${s}-${n}`);
    fc.assert(
      fc.property(child, fc.constantFrom('YES' as const, 'NO' as const), (id, leg) => {
        const cid = kalshiClientOrderId(id, leg)!;
        assert.deepEqual(childOfKalshi(cid), { child_id: id, leg });
        assert.notEqual(cid, kalshiClientOrderId(id, leg === 'YES' ? 'NO' : 'YES'));
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('Kalshi price grids', () => {
  it("reads the docs' structure table: bands, finest step", () => {
    const tapered = priceBandsOf('tapered_deci_cent')!;
    assert.deepEqual(tapered, [
      { start_1e9: 0, end_1e9: 100_000_000, step_1e9: 1_000_000 },
      { start_1e9: 100_000_000, end_1e9: 900_000_000, step_1e9: 10_000_000 },
      { start_1e9: 900_000_000, end_1e9: PRICE_ONE, step_1e9: 1_000_000 },
    ]);
    assert.equal(finestStep(tapered), 1_000_000);
    assert.equal(finestStep(priceBandsOf('center_deci_edge_centi_cent')!), 100_000);
    assert.equal(priceBandsOf('some_future_structure'), undefined);
    // Every structure the table names reads, and whole cents are valid in all of them ("Whole-cent prices are valid in every structure").
    for (const name of Object.keys(PRICE_LEVEL_STRUCTURES)) {
      const bands = priceBandsOf(name)!;
      for (let c = 1; c <= 99; c++) assert.ok(isOnGrid(bands, c * CENT), `${name} ${c}c`);
    }
  });

  it('knows what is on the grid: not $0, not $1, not between ticks', () => {
    const tapered = priceBandsOf('tapered_deci_cent')!;
    assert.ok(isOnGrid(tapered, 55_000_000), '$0.055 in the fine edge band');
    assert.ok(!isOnGrid(tapered, 155_000_000), '$0.155 in the whole-cent center');
    assert.ok(isOnGrid(tapered, 100_000_000), 'a band edge');
    assert.ok(!isOnGrid(tapered, 0));
    assert.ok(!isOnGrid(tapered, PRICE_ONE));
  });

  it('rounds to the grid, down or up, never onto $0 or $1', () => {
    const tapered = priceBandsOf('tapered_deci_cent')!;
    assert.equal(priceOnGrid(tapered, 155_000_000, 'down'), 150_000_000);
    assert.equal(priceOnGrid(tapered, 155_000_000, 'up'), 160_000_000);
    assert.equal(priceOnGrid(tapered, 55_500_000, 'down'), 55_000_000);
    assert.equal(priceOnGrid(tapered, 999_500_000, 'down'), 999_000_000);
    assert.equal(priceOnGrid(tapered, 999_500_000, 'up'), undefined, '$1 is no price');
    const combos = priceBandsOf('center_deci_edge_centi_cent')!;
    assert.equal(priceOnGrid(combos, 50_000, 'up'), 100_000);
    assert.equal(priceOnGrid(combos, 50_000, 'down'), undefined, '$0 is no price');
  });

  it('rounds to the nearest grid price on the right side (property)', () => {
    const names = Object.keys(PRICE_LEVEL_STRUCTURES);
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.integer({ min: 1, max: PRICE_ONE - 1 }), fc.constantFrom('down' as const, 'up' as const), (name, price, dir) => {
        const bands = priceBandsOf(name)!;
        const p = priceOnGrid(bands, price, dir);
        if (p === undefined) {
          assert.ok(dir === 'down' ? price < finestStep(bands) : price > PRICE_ONE - finestStep(bands));
          return;
        }
        assert.ok(isOnGrid(bands, p));
        assert.ok(dir === 'down' ? p <= price : p >= price);
        // Nothing on the grid between the price and its rounding (grid prices are multiples of $0.0001).
        const [lo, hi] = dir === 'down' ? [p, price] : [price, p];
        for (let x = Math.floor(lo / 100_000) * 100_000 + 100_000; x < hi; x += 100_000) if (x !== p) assert.ok(!isOnGrid(bands, x), `${x} between`);
      }),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

/** Not from the docs: a row with the OpenAPI Market schema's fields, as the fixed-point API answers. */
function marketRow(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ticker: 'KXHIGHNY-24JAN01-T60',
    event_ticker: 'KXHIGHNY-24JAN01',
    market_type: 'binary',
    title: 'Will the high temp in NYC be >60° on Jan 1, 2024?',
    yes_sub_title: '61° or above',
    no_sub_title: '60° or below',
    created_time: '2023-12-30T15:00:00Z',
    updated_time: '2023-12-31T10:00:00Z',
    open_time: '2023-12-31T15:00:00Z',
    close_time: '2024-01-02T04:59:00Z',
    expected_expiration_time: '2024-01-02T15:00:00Z',
    latest_expiration_time: '2024-01-09T15:00:00Z',
    settlement_timer_seconds: 3600,
    status: 'active',
    notional_value_dollars: '1.0000',
    yes_bid_dollars: '0.4200',
    yes_ask_dollars: '0.4400',
    no_bid_dollars: '0.5600',
    no_ask_dollars: '0.5800',
    yes_bid_size_fp: '13.00',
    yes_ask_size_fp: '17.00',
    last_price_dollars: '0.4300',
    previous_yes_bid_dollars: '0.4000',
    previous_yes_ask_dollars: '0.4500',
    previous_price_dollars: '0.4100',
    volume_fp: '125000.00',
    volume_24h_fp: '3100.50',
    open_interest_fp: '50000.00',
    result: '',
    can_close_early: true,
    expiration_value: '',
    rules_primary: 'If the highest temperature recorded in Central Park, New York for January 1, 2024 is greater than 60°, then the market resolves to Yes.',
    rules_secondary: '',
    price_level_structure: 'tapered_deci_cent',
    price_ranges: [
      { start: '0.0000', end: '0.1000', step: '0.0010' },
      { start: '0.1000', end: '0.9000', step: '0.0100' },
      { start: '0.9000', end: '1.0000', step: '0.0010' },
    ],
    exchange_index: 0,
    ...over,
  };
}

describe('Kalshi catalog', () => {
  it('reads a fixed-point market row into engine units', () => {
    const m = decodeMarket(marketRow())!;
    assert.deepEqual(
      [m.ticker, m.event_ticker, m.status, m.phase, m.trading, m.result, m.tick_1e9, m.bands.length, m.price_level_structure],
      ['KXHIGHNY-24JAN01-T60', 'KXHIGHNY-24JAN01', 'active', 'open', true, null, 1_000_000, 3, 'tapered_deci_cent'],
    );
    assert.deepEqual([m.yes_bid_1e9, m.yes_ask_1e9, m.no_bid_1e9, m.no_ask_1e9, m.last_price_1e9], [420_000_000, 440_000_000, 560_000_000, 580_000_000, 430_000_000]);
    assert.deepEqual([m.volume_1e8, m.volume_24h_1e8, m.open_interest_1e8, m.notional_1e9], [12_500_000_000_000, 310_050_000_000, 5_000_000_000_000, PRICE_ONE]);
    assert.deepEqual([m.created_ms, m.open_ms, m.close_ms, m.latest_expiration_ms, m.settlement_ms, m.settlement_timer_s], [Date.parse('2023-12-30T15:00:00Z'), Date.parse('2023-12-31T15:00:00Z'), Date.parse('2024-01-02T04:59:00Z'), Date.parse('2024-01-09T15:00:00Z'), null, 3600]);
    // An empty side is $0 (bids) or $1 (asks): no quote.
    const empty = decodeMarket(marketRow({ yes_bid_dollars: '0.0000', yes_ask_dollars: '1.0000' }))!;
    assert.deepEqual([empty.yes_bid_1e9, empty.yes_ask_1e9], [null, null]);
    assert.equal(decodeMarket(marketRow({ price_ranges: [{ start: '0.00', end: '1.00', step: '0.015' }] })), undefined, 'a step that does not divide its band');
    assert.equal(decodeMarket(marketRow({ volume_fp: '1.2e3' })), undefined, 'a count that is not a plain decimal');
    assert.equal(decodeMarket(marketRow({ price_ranges: undefined, price_level_structure: 'center_quint_edge_quint_cent' }))!.tick_1e9, 2_000_000, 'the named structure when no ranges');
  });

  it("reads a legacy integer-cents market row (a production answer of 2025, as printed in kalshi-agent's notes)", () => {
    // Its `event_ticker` is left out of that abridged print; the schema requires it.
    const row = { ticker: 'KXELONMARS-99', event_ticker: 'KXELONMARS-99', title: 'Will Elon Musk visit Mars before Aug 1, 2099?', status: 'active', yes_bid: 8, yes_ask: 10, yes_bid_dollars: '0.0800', yes_ask_dollars: '0.1000', no_bid: 90, no_ask: 92, last_price: 8, volume: 19920, open_interest: 13169, close_time: '2099-08-01T04:59:00Z', rules_primary: 'If Elon Musk visits Mars before the earlier of his death or Aug 1, 2099, then the market resolves to Yes.' };
    const m = decodeMarket(row)!;
    assert.deepEqual([m.yes_bid_1e9, m.yes_ask_1e9, m.no_bid_1e9, m.no_ask_1e9, m.last_price_1e9], [80_000_000, 100_000_000, 900_000_000, 920_000_000, 80_000_000]);
    assert.deepEqual([m.volume_1e8, m.open_interest_1e8, m.tick_1e9, m.market_type], [1_992_000_000_000, 1_316_900_000_000, CENT, 'binary']);
    assert.equal(decodeMarket({ ...row, tick_size: 5 })!.tick_1e9, 5 * CENT, 'the legacy tick in cents');
  });

  it('maps every documented status onto the catalog phases', () => {
    const phases = ['initialized', 'active', 'inactive', 'closed', 'determined', 'disputed', 'amended', 'finalized'].map(marketPhase);
    assert.deepEqual(phases, ['initialized', 'open', 'open', 'closed', 'determined', 'determined', 'determined', 'settled']);
    assert.deepEqual(['unopened', 'open', 'settled'].map(marketPhase), ['initialized', 'open', 'settled'], 'the filter words of older answers');
    assert.equal(marketPhase('weird'), undefined);
    assert.equal(decodeMarket(marketRow({ status: 'inactive' }))!.trading, false, 'paused: not closed, but nothing trades');
  });

  it('pages events and markets by cursor, and names the rows it could not read', () => {
    assert.equal(openEventsPath(), '/trade-api/v2/events?limit=200&status=open&with_nested_markets=true');
    assert.equal(openEventsPath('abc=='), '/trade-api/v2/events?limit=200&status=open&with_nested_markets=true&cursor=abc%3D%3D');
    assert.equal(eventsPath({ tickers: ['A-1', 'B-2'], limit: 50 }), '/trade-api/v2/events?limit=50&tickers=A-1%2CB-2');
    assert.equal(marketsPath({ event_ticker: 'KXHIGHNY-24JAN01' }), '/trade-api/v2/markets?limit=1000&event_ticker=KXHIGHNY-24JAN01');
    const page = decodeEventsPage({
      events: [
        { event_ticker: 'KXHIGHNY-24JAN01', series_ticker: 'KXHIGHNY', sub_title: 'On Jan 1, 2024', title: 'Highest temperature in NYC on Jan 1, 2024?', collateral_return_type: 'MECNET', mutually_exclusive: true, available_on_brokers: false, settlement_sources: [], markets: [marketRow(), marketRow({ ticker: 'KXHIGHNY-24JAN01-B59.5', price_ranges: 'nonsense' })] },
      ],
      cursor: 'next-page',
    })!;
    assert.equal(page.cursor, 'next-page');
    assert.deepEqual(page.unreadable, []);
    assert.equal(page.events[0]!.markets.length, 2, 'a non-array price_ranges falls back to the structure');
    const bad = decodeEventsPage({ events: [{ event_ticker: 'E', markets: [marketRow({ ticker: 'E-1', yes_bid_dollars: 'x' }), marketRow({ ticker: 'E-2' })] }], cursor: '' })!;
    assert.deepEqual([bad.cursor, bad.unreadable, bad.events[0]!.markets.map((m) => m.ticker)], [null, ['E-1'], ['E-2']]);
    const markets = decodeMarketsPage({ markets: [marketRow()], cursor: '' })!;
    assert.deepEqual([markets.markets.length, markets.cursor], [1, null]);
    assert.equal(decodeEventsPage({ error: 'x' }), undefined);
  });

  it('lists an event as the prediction catalog does: legs, question, timeline, outcome, fee rate', () => {
    const observed = Date.parse('2024-01-03T12:00:00Z');
    const event: KalshiEvent = {
      event_ticker: 'KXHIGHNY-24JAN01',
      series_ticker: 'KXHIGHNY',
      title: 'Highest temperature in NYC on Jan 1, 2024?',
      sub_title: 'On Jan 1, 2024',
      category: 'Climate and Weather',
      mutually_exclusive: true,
      fee_override: null,
      exchange_index: 0,
      markets: [
        decodeMarket(marketRow({ ticker: 'KXHIGHNY-24JAN01-T60', yes_sub_title: '61° or above', status: 'determined', result: 'yes' }))!,
        decodeMarket(marketRow({ ticker: 'KXHIGHNY-24JAN01-B59.5', yes_sub_title: '59° to 60°', status: 'finalized', result: 'no', settlement_ts: '2024-01-02T18:00:00Z' }))!,
        decodeMarket(marketRow({ ticker: 'KXHIGHNY-24JAN01-T55', yes_sub_title: '54° or below', status: 'closed', rules_secondary: 'Source: NWS.' }))!,
        decodeMarket(marketRow({ ticker: 'KXHIGHNY-24JAN01-S', market_type: 'scalar' }))!,
      ],
    };
    const listed = predictionEventOf(event, { observed_ms: observed, seriesFee: (s) => (s === 'KXHIGHNY' ? { fee_type: 'quadratic', fee_multiplier: 0.5 } : undefined) });
    const e = listed.event;
    assert.deepEqual([e.venue, e.event_id, e.slug, e.multi, e.neg_risk, e.tags, e.url], ['kalshi', 'KXHIGHNY-24JAN01', 'KXHIGHNY-24JAN01', true, false, ['Climate and Weather'], 'https://kalshi.com/markets/kxhighny/kxhighny-24jan01']);
    assert.deepEqual(listed.skipped, ['KXHIGHNY-24JAN01-S'], 'a scalar market pays no $1/$0');
    assert.deepEqual(e.markets.map((m) => [m.market_id, m.yes_token_id, m.no_token_id, m.outcome_index, m.raw_outcome_name, m.fee_rate_bps]), [
      ['KXHIGHNY-24JAN01-T60', 'KXHIGHNY-24JAN01-T60:YES', 'KXHIGHNY-24JAN01-T60:NO', 0, '61° or above', 350],
      ['KXHIGHNY-24JAN01-B59.5', 'KXHIGHNY-24JAN01-B59.5:YES', 'KXHIGHNY-24JAN01-B59.5:NO', 1, '59° to 60°', 350],
      ['KXHIGHNY-24JAN01-T55', 'KXHIGHNY-24JAN01-T55:YES', 'KXHIGHNY-24JAN01-T55:NO', 2, '54° or below', 350],
    ]);
    assert.equal(e.markets[0]!.question, 'Highest temperature in NYC on Jan 1, 2024? - 61° or above');
    assert.equal(e.markets[2]!.description.endsWith('\n\nSource: NWS.'), true);
    assert.deepEqual(listed.yes_won, [true, false, null]);
    const close = Date.parse('2024-01-02T04:59:00Z');
    const settled = Date.parse('2024-01-02T18:00:00Z');
    assert.deepEqual(listed.resolved_ms, [observed, settled - 3_600_000, null], 'determined: first seen; finalized: settlement less its timer');
    assert.deepEqual(e.markets[1]!.timeline, { listed_ms: Date.parse('2023-12-30T15:00:00Z'), open_ms: Date.parse('2023-12-31T15:00:00Z'), close_ms: close, determined_ms: settled - 3_600_000, settled_ms: settled });
    assert.deepEqual(e.markets[2]!.timeline.determined_ms, Date.parse('2024-01-09T15:00:00Z'), 'undetermined: its latest expiration, so it is never called determined early');
    // The catalog's symbol rules take the legs as ticker legs.
    assert.deepEqual(classifySymbol(e.markets[0]!.no_token_id), { kind: 'ticker', ticker: 'KXHIGHNY-24JAN01-T60', leg: 'NO' });
    // A binary event: the title alone; the event's override beats the series.
    const single = predictionEventOf({ ...event, fee_override: { fee_type: 'quadratic', fee_multiplier: 1 }, markets: [event.markets[2]!] }, { observed_ms: observed, seriesFee: () => ({ fee_type: 'quadratic', fee_multiplier: 0.5 }) });
    assert.deepEqual([single.event.multi, single.event.markets[0]!.question, single.event.markets[0]!.raw_outcome_name, single.event.markets[0]!.fee_rate_bps], [false, event.title, null, 700]);
    assert.equal(predictionEventOf({ ...event, markets: [event.markets[2]!] }, { observed_ms: observed }).event.markets[0]!.fee_rate_bps, 700, "the venue's rate without a schedule");
  });

  it("reads series fee schedules and turns them into the catalog's taker rate", () => {
    const one = decodeSeriesFees({ series: { ticker: 'KXHIGHNY', frequency: 'daily', title: 'Highest temperature in NYC today?', category: 'Climate and Weather', tags: [], settlement_sources: [], contract_url: '', contract_terms_url: '', fee_type: 'quadratic_with_maker_fees', fee_multiplier: 1, additional_prohibitions: [] } })!;
    assert.deepEqual([...one], [['KXHIGHNY', { fee_type: 'quadratic_with_maker_fees', fee_multiplier: 1 }]]);
    const list = decodeSeriesFees({ series: [{ ticker: 'A', fee_type: 'quadratic', fee_multiplier: 0.5 }, { ticker: 'B', fee_type: 'flat', fee_multiplier: 1 }] })!;
    assert.deepEqual([takerRateBps(list.get('A')!), takerRateBps(list.get('B')!)], [350, null]);
    assert.equal(takerRateBps({ fee_type: 'quadratic_with_combo_maker_fees', fee_multiplier: 1 }), 700);
  });

  it("reads the exchange status (kalshi-agent's production answer; shards by the schema)", () => {
    const s = decodeExchangeStatus({ exchange_active: true, trading_active: true, exchange_estimated_resume_time: null })!;
    assert.deepEqual(s, { exchange_active: true, trading_active: true, resume_ms: null, shards: [] });
    assert.ok(tradingActive(s, 2), 'no breakdown: the top-level flags');
    const sharded = decodeExchangeStatus({
      exchange_active: true,
      trading_active: true,
      exchange_estimated_resume_time: '2026-08-24T16:30:00Z',
      exchange_index_statuses: [
        { exchange_index: 0, description: 'default', exchange_active: true, trading_active: true, intra_exchange_transfers_active: true },
        { exchange_index: 2, description: 'crypto', exchange_active: true, trading_active: false, intra_exchange_transfers_active: true },
      ],
    })!;
    assert.deepEqual([tradingActive(sharded, 0), tradingActive(sharded, 2), sharded.resume_ms], [true, false, Date.parse('2026-08-24T16:30:00Z')]);
    assert.equal(decodeExchangeStatus({ trading_active: true }), undefined);
  });
});

// ---------------------------------------------------------------------------------------------

/** The REST orderbook example of getting_started/orderbook_responses, verbatim. */
const DOCS_ORDERBOOK = {
  orderbook_fp: {
    yes_dollars: [['0.0100', '200.00'], ['0.1500', '100.00'], ['0.2000', '50.00'], ['0.2500', '20.00'], ['0.3000', '11.00'], ['0.3100', '10.00'], ['0.3200', '10.00'], ['0.3300', '11.00'], ['0.3400', '9.00'], ['0.3500', '11.00'], ['0.4100', '10.00'], ['0.4200', '13.00']],
    no_dollars: [['0.0100', '100.00'], ['0.1600', '3.00'], ['0.2500', '50.00'], ['0.2800', '19.00'], ['0.3600', '5.00'], ['0.3700', '50.00'], ['0.3800', '300.00'], ['0.4400', '29.00'], ['0.4500', '20.00'], ['0.5600', '17.00']],
  },
};
const DOCS_SNAPSHOT = '{"type":"orderbook_snapshot","sid":2,"seq":2,"msg":{"market_ticker":"FED-23DEC-T3.00","market_id":"9b0f6b43-5b68-4f9f-9f02-9a2d1b8ac1a1","yes_dollars_fp":[["0.0800","300.00"],["0.2200","333.00"]],"no_dollars_fp":[["0.5400","20.00"],["0.5600","146.00"]]}}';
const DOCS_DELTA = '{"type":"orderbook_delta","sid":2,"seq":3,"msg":{"market_ticker":"FED-23DEC-T3.00","market_id":"9b0f6b43-5b68-4f9f-9f02-9a2d1b8ac1a1","price_dollars":"0.960","delta_fp":"-54.00","side":"yes","ts":"2022-11-22T20:44:01Z","ts_ms":1669149841000}}';

function syncOn(): { book: L2Book; changes: number[]; sync: KalshiBookSync } {
  const book = new L2Book();
  const changes: number[] = [];
  return { book, changes, sync: new KalshiBookSync(book, changes) };
}

describe('Kalshi books', () => {
  it("turns the docs' REST orderbook into both legs: the docs' own spread, $0.44 - $0.42", () => {
    assert.equal(orderbookPath('KXHIGHNY-24JAN01-T60', 10), '/trade-api/v2/markets/KXHIGHNY-24JAN01-T60/orderbook?depth=10');
    assert.equal(orderbookPath('KXHIGHNY-24JAN01-T60'), '/trade-api/v2/markets/KXHIGHNY-24JAN01-T60/orderbook');
    const snap = decodeOrderbook(DOCS_ORDERBOOK, 'KXHIGHNY-24JAN01-T60')!;
    assert.equal(snap.noPricing, 'no-leg');
    const { book, sync } = syncOn();
    assert.equal(sync.onSnapshot(snap), 'synced');
    assert.deepEqual([book.best(Side.BID), book.best(Side.ASK)], [420_000_000, 440_000_000], 'best YES bid; best YES ask = $1 - the best NO bid $0.56');
    const legs = legLevels(book, 2);
    assert.deepEqual(legs.yes, { bids: [{ price_1e9: 420_000_000, qty_1e8: 1_300_000_000 }, { price_1e9: 410_000_000, qty_1e8: 1_000_000_000 }], asks: [{ price_1e9: 440_000_000, qty_1e8: 1_700_000_000 }, { price_1e9: 550_000_000, qty_1e8: 2_000_000_000 }] });
    assert.deepEqual(legs.no, { bids: [{ price_1e9: 560_000_000, qty_1e8: 1_700_000_000 }, { price_1e9: 450_000_000, qty_1e8: 2_000_000_000 }], asks: [{ price_1e9: 580_000_000, qty_1e8: 1_300_000_000 }, { price_1e9: 590_000_000, qty_1e8: 1_000_000_000 }] });
    assert.deepEqual([book.depth(Side.BID), book.depth(Side.ASK)], [12, 10]);
  });

  it('reads the legacy REST shape: integer cents and counts (velcrafting/codex-skills)', () => {
    const snap = decodeOrderbook({ orderbook: { yes: [[52, 1000], [51, 2500], [50, 5000]], no: [[48, 1000], [47, 2000], [46, 3000]] } }, 'KXBTC-25DEC31-B100000')!;
    assert.deepEqual(snap.yes, [520_000_000, 100_000_000_000, 510_000_000, 250_000_000_000, 500_000_000, 500_000_000_000]);
    assert.deepEqual(snap.no.slice(0, 2), [480_000_000, 100_000_000_000]);
    assert.deepEqual(decodeOrderbook({ orderbook: { yes: null, no: null } }, 'X'), { ticker: 'X', yes: [], no: [], noPricing: 'no-leg' }, 'empty sides as null');
    assert.equal(decodeOrderbook({ orderbook_fp: { yes_dollars: [['1.0000', '1.00']], no_dollars: [] } }, 'X'), undefined, 'a $1 bid is no level');
    assert.equal(decodeOrderbook({ orderbook_fp: { yes_dollars: [['0.5000', '-1.00']], no_dollars: [] } }, 'X'), undefined, 'a negative count');
    assert.equal(decodeOrderbook({ markets: [] }, 'X'), undefined);
  });

  it("decodes the docs' stream examples, NO levels as the subscription priced them", () => {
    const yesLeg = decodeWsMessage(DOCS_SNAPSHOT, 'yes-leg')!;
    assert.deepEqual(yesLeg, { kind: 'snapshot', sid: 2, seq: 2, data: { ticker: 'FED-23DEC-T3.00', yes: [80_000_000, 30_000_000_000, 220_000_000, 33_300_000_000], no: [540_000_000, 2_000_000_000, 560_000_000, 14_600_000_000], noPricing: 'yes-leg' } });
    const a = syncOn();
    a.sync.onSnapshot((yesLeg as Extract<KalshiStreamMessage, { kind: 'snapshot' }>).data);
    assert.deepEqual(a.book.flat(Side.ASK, 5), [540_000_000, 2_000_000_000, 560_000_000, 14_600_000_000], 'use_yes_price: already YES asks');
    const b = syncOn();
    b.sync.onSnapshot((decodeWsMessage(DOCS_SNAPSHOT, 'no-leg') as Extract<KalshiStreamMessage, { kind: 'snapshot' }>).data);
    assert.deepEqual(b.book.flat(Side.ASK, 5), [440_000_000, 14_600_000_000, 460_000_000, 2_000_000_000], 'the legacy default: NO prices, turned round');
    const delta = decodeWsMessage(DOCS_DELTA)!;
    assert.deepEqual(delta, { kind: 'delta', sid: 2, seq: 3, data: { ticker: 'FED-23DEC-T3.00', side: 'yes', price_1e9: 960_000_000, delta_1e8: -5_400_000_000, noPricing: 'yes-leg', ts_ms: 1669149841000, client_order_id: null } });
    // The docs' delta takes 54 contracts away at $0.96, where the docs' snapshot has none: not the same book.
    assert.equal(a.sync.onDelta((delta as Extract<KalshiStreamMessage, { kind: 'delta' }>).data), 'gap');
    assert.equal(a.sync.synced, false);
  });

  it('decodes the older stream shapes (cents, integer counts) and calls unreadable what does not read exactly (not from the docs)', () => {
    const old = decodeWsMessage('{"type":"orderbook_snapshot","sid":1,"seq":1,"msg":{"market_ticker":"X-1","yes":[[8,300],[22,333]],"no":[[54,20]]}}', 'no-leg');
    assert.deepEqual(old, { kind: 'snapshot', sid: 1, seq: 1, data: { ticker: 'X-1', yes: [80_000_000, 30_000_000_000, 220_000_000, 33_300_000_000], no: [540_000_000, 2_000_000_000], noPricing: 'no-leg' } });
    const dollars2025 = decodeWsMessage('{"type":"orderbook_snapshot","sid":1,"seq":1,"msg":{"market_ticker":"X-1","yes_dollars":[["0.080",300]],"yes":[[8,300]]}}')!;
    assert.deepEqual((dollars2025 as Extract<KalshiStreamMessage, { kind: 'snapshot' }>).data.yes, [80_000_000, 30_000_000_000]);
    const oldDelta = decodeWsMessage('{"type":"orderbook_delta","sid":1,"seq":2,"msg":{"market_ticker":"X-1","price":96,"delta":-54,"side":"no","client_order_id":"abc"}}', 'no-leg');
    assert.deepEqual(oldDelta, { kind: 'delta', sid: 1, seq: 2, data: { ticker: 'X-1', side: 'no', price_1e9: 960_000_000, delta_1e8: -5_400_000_000, noPricing: 'no-leg', ts_ms: null, client_order_id: 'abc' } });
    assert.deepEqual(decodeWsMessage('{"type":"orderbook_delta","sid":1,"seq":3,"msg":{"market_ticker":"X-1","price_dollars":"0.5","delta_fp":"1e2","side":"yes"}}'), { kind: 'unreadable', type: 'orderbook_delta', sid: 1, seq: 3, ticker: 'X-1' });
    assert.deepEqual(decodeWsMessage('{"type":"orderbook_delta","sid":1,"seq":4,"msg":{"market_ticker":"X-1","price_dollars":"0.0000","delta_fp":"1.00","side":"yes"}}'), { kind: 'unreadable', type: 'orderbook_delta', sid: 1, seq: 4, ticker: 'X-1' });
    assert.equal(decodeWsMessage('not json'), undefined);
    assert.deepEqual(decodeWsMessage('{"type":"ticker","sid":9,"seq":1,"msg":{}}'), { kind: 'other', type: 'ticker', sid: 9, seq: 1 });
  });

  it("decodes the docs' control messages and builds the docs' commands", () => {
    assert.deepEqual(decodeWsMessage('{"id":1,"type":"subscribed","msg":{"channel":"orderbook_delta","sid":1}}'), { kind: 'subscribed', id: 1, channel: 'orderbook_delta', sid: 1 });
    assert.deepEqual(decodeWsMessage('{"id":102,"sid":2,"seq":7,"type":"unsubscribed"}'), { kind: 'unsubscribed', id: 102, sid: 2, seq: 7 });
    assert.deepEqual(decodeWsMessage('{"id":123,"sid":456,"seq":222,"type":"ok","msg":{"market_tickers":["MARKET-1","MARKET-2","MARKET-3"]}}'), { kind: 'ok', id: 123, sid: 456, seq: 222, market_tickers: ['MARKET-1', 'MARKET-2', 'MARKET-3'] });
    assert.deepEqual(decodeWsMessage('{"id":123,"type":"error","msg":{"code":2,"msg":"Params required"}}'), { kind: 'error', id: 123, code: 2, message: 'Params required' });
    assert.equal(updateSubscriptionCommand(124, 456, 'add_markets', ['NEW-MARKET-1', 'NEW-MARKET-2']), '{"id":124,"cmd":"update_subscription","params":{"sids":[456],"market_tickers":["NEW-MARKET-1","NEW-MARKET-2"],"action":"add_markets"}}');
    assert.equal(updateSubscriptionCommand(125, 456, 'delete_markets', ['MARKET-TO-REMOVE-1', 'MARKET-TO-REMOVE-2']), '{"id":125,"cmd":"update_subscription","params":{"sids":[456],"market_tickers":["MARKET-TO-REMOVE-1","MARKET-TO-REMOVE-2"],"action":"delete_markets"}}');
    assert.equal(unsubscribeCommand(124, [1, 2]), '{"id":124,"cmd":"unsubscribe","params":{"sids":[1,2]}}');
    assert.equal(subscribeCommand(1, ['CPI-22DEC-TN0.1']), '{"id":1,"cmd":"subscribe","params":{"channels":["orderbook_delta"],"market_tickers":["CPI-22DEC-TN0.1"],"use_yes_price":true}}');
    assert.throws(() => subscribeCommand(1, []), RangeError);
    assert.throws(() => updateSubscriptionCommand(2, 1, 'get_snapshot', []), RangeError);
  });

  it('keeps a book from relative deltas: absolute levels published, exact to 0.01 contract, negative is a gap', () => {
    const { book, changes, sync } = syncOn();
    const d = (side: 'yes' | 'no', price: number, delta: number) => sync.onDelta({ ticker: 'X', side, price_1e9: price, delta_1e8: delta, noPricing: 'no-leg', ts_ms: null, client_order_id: null });
    assert.equal(d('yes', 400_000_000, 100_000_000), 'buffered', 'nothing to build on before the snapshot');
    assert.equal(sync.onSnapshot({ ticker: 'X', yes: [400_000_000, 1_000_000_000], no: [550_000_000, 200_000_000], noPricing: 'no-leg' }), 'synced');
    assert.deepEqual(changes, [], 'a sync publishes the whole book, not its levels');
    assert.equal(d('yes', 400_000_000, 1_000_000), 'applied');
    assert.equal(d('no', 550_000_000, -200_000_000), 'applied');
    assert.equal(d('yes', 410_000_000, 33_000_000), 'applied');
    assert.equal(d('yes', 410_000_000, 0), 'applied');
    assert.deepEqual(changes, [Side.BID, 400_000_000, 1_001_000_000, Side.ASK, 450_000_000, 0, Side.BID, 410_000_000, 33_000_000]);
    assert.deepEqual([book.flat(Side.BID, 5), book.depth(Side.ASK), sync.sizeAt(Side.BID, 410_000_000)], [[410_000_000, 33_000_000, 400_000_000, 1_001_000_000], 0, 33_000_000]);
    assert.equal(d('yes', 410_000_000, -33_000_001), 'gap', 'more taken away than the level holds');
    assert.deepEqual([sync.synced, book.depth(Side.BID)], [false, 0]);
    const noLeg: number[] = [];
    mirrorChanges([Side.BID, 400_000_000, 7, Side.ASK, 450_000_000, 0], noLeg);
    assert.deepEqual(noLeg, [Side.ASK, 600_000_000, 7, Side.BID, 550_000_000, 0]);
  });
});

describe('Kalshi book stream: one sequence per subscription', () => {
  const tickers = ['KXA-26JAN01-T1', 'KXB-26JAN01-T1'];
  function harness() {
    const syncs = new Map(tickers.map((t) => [t, syncOn()]));
    const stream = new KalshiBookStream((t) => syncs.get(t)?.sync);
    const push = (m: KalshiStreamMessage) => stream.onMessage(m).map((o) => `${o.ticker[2]}:${o.outcome}`);
    const snap = (sid: number, seq: number, t: number) => push({ kind: 'snapshot', sid, seq, data: { ticker: tickers[t]!, yes: [500_000_000, CONTRACT], no: [], noPricing: 'yes-leg' } });
    const delta = (sid: number, seq: number, t: number) => push({ kind: 'delta', sid, seq, data: { ticker: tickers[t]!, side: 'yes', price_1e9: 500_000_000, delta_1e8: CONTRACT, noPricing: 'yes-leg', ts_ms: null, client_order_id: null } });
    return { syncs, stream, push, snap, delta };
  }

  it('breaks every book of the subscription on a gap, and mends each with its snapshot', () => {
    const { syncs, stream, push, snap, delta } = harness();
    assert.deepEqual(push({ kind: 'subscribed', id: 1, channel: 'orderbook_delta', sid: 7 }), []);
    assert.deepEqual(snap(7, 1, 0), ['A:synced']);
    assert.deepEqual(snap(7, 2, 1), ['B:synced']);
    assert.deepEqual(delta(7, 3, 0), ['A:applied']);
    assert.deepEqual(delta(7, 3, 0), [], 'a repeat is dropped');
    assert.equal(syncs.get(tickers[0]!)!.sync.sizeAt(Side.BID, 500_000_000), 2 * CONTRACT, 'and not applied twice');
    assert.deepEqual(delta(7, 5, 1), ['A:gap', 'B:gap', 'B:buffered'], 'seq 4 is lost: it could have been either market');
    assert.deepEqual(push({ kind: 'ok', id: 2, sid: 7, seq: 6, market_tickers: null }), [], 'the get_snapshot answer takes its place in the count');
    assert.deepEqual(snap(7, 7, 0), ['A:synced']);
    assert.deepEqual(delta(7, 8, 1), ['B:buffered']);
    assert.deepEqual(snap(7, 9, 1), ['B:synced']);
    assert.deepEqual(delta(7, 10, 1), ['B:applied']);
    assert.equal(stream.sidOf(tickers[1]!), 7);
    assert.equal(stream.lastSeq(7), 10);
  });

  it('a snapshot that reveals the gap mends its own market; a count that runs backwards is a gap; other subscriptions are apart', () => {
    const { push, snap, delta } = harness();
    snap(7, 1, 0);
    snap(7, 2, 1);
    assert.deepEqual(snap(7, 9, 0), ['B:gap', 'A:synced']);
    snap(7, 10, 1);
    assert.deepEqual(delta(7, 1, 0), ['A:gap', 'B:gap', 'A:buffered'], 'the venue started the count again');
    assert.deepEqual(push({ kind: 'ok', id: 3, sid: 99, seq: 50, market_tickers: null }), [], 'another channel: not counted here');
    assert.deepEqual(delta(8, 40, 0), ['A:buffered'], "a new subscription's first message starts its count");
  });

  it('unsubscribe, unreadable messages and overflow errors break what they may have cost', () => {
    const { push, snap } = harness();
    snap(7, 1, 0);
    snap(7, 2, 1);
    assert.deepEqual(push({ kind: 'unreadable', type: 'orderbook_delta', sid: 7, seq: 3, ticker: tickers[1]! }), ['B:gap'], 'its own market only');
    assert.deepEqual(push({ kind: 'error', id: null, code: 2, message: 'Params required' }), []);
    assert.deepEqual(push({ kind: 'error', id: null, code: 25, message: 'Subscription buffer overflow' }), ['A:gap']);
    snap(7, 4, 0);
    assert.deepEqual(push({ kind: 'unsubscribed', id: 9, sid: 7, seq: 5 }), ['A:gap']);
    assert.deepEqual(push({ kind: 'unreadable', type: 'orderbook_snapshot', sid: null, seq: null, ticker: null }), []);
  });
});

/**
 * The stream against a naive model: a venue keeps each market's true YES and NO bids (NO in NO
 * prices), frames are written as the venue would (the fixed-point shapes, sides left out when
 * empty, NO levels priced as the subscription asked), some are lost, some repeated. The model
 * says which books must be whole (a snapshot delivered and no loss noticed since) and keeps its
 * own copy of each from what was delivered, in plain maps; the L2Book, the changes published
 * for it, and (with no loss pending) the venue's truth must all agree with it.
 */
describe('Kalshi book stream against a naive model (property)', () => {
  type Truth = { yes: Map<number, number>; no: Map<number, number> };
  const TICKERS = ['KXA-26JAN01-T1', 'KXB-26JAN01-T1', 'KXC-26JAN01-T1'];
  const levelsArb = fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 500 })), { maxLength: 6 });
  const opArb = fc.oneof(
    { weight: 6, arbitrary: fc.record({ t: fc.constant('delta' as const), m: fc.integer({ min: 0, max: 2 }), side: fc.constantFrom('yes' as const, 'no' as const), cents: fc.integer({ min: 1, max: 12 }), hundredths: fc.integer({ min: -400, max: 400 }) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('snap' as const), m: fc.integer({ min: 0, max: 2 }) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('lose' as const) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('dup' as const) }) },
  );
  const fpCount = (hundredths: number) => (hundredths < 0 ? '-' : '') + formatCount(Math.abs(hundredths) * 1_000_000);
  const yesBook = (yes: Map<number, number>, no: Map<number, number>) => {
    const bids = [...yes].map(([c, q]) => [c * CENT, q * 1_000_000] as const).sort((a, b) => b[0] - a[0]);
    const asks = [...no].map(([c, q]) => [PRICE_ONE - c * CENT, q * 1_000_000] as const).sort((a, b) => a[0] - b[0]);
    return { bids: bids.flat(), asks: asks.flat() };
  };

  it('agrees with the model after every delivered frame', () => {
    fc.assert(
      fc.property(fc.constantFrom<NoPricing>('yes-leg', 'no-leg'), fc.array(fc.tuple(levelsArb, levelsArb), { minLength: 3, maxLength: 3 }), fc.array(opArb, { maxLength: 120 }), (pricing, initial, ops) => {
        const truth: Truth[] = initial.map(([y, n]) => ({ yes: new Map(y), no: new Map(n) }));
        const feeds = TICKERS.map(() => syncOn());
        const byTicker = new Map(TICKERS.map((t, i) => [t, feeds[i]!]));
        const stream = new KalshiBookStream((t) => byTicker.get(t)?.sync);
        const published = TICKERS.map(() => new L2Book());
        // The model.
        const whole = [false, false, false];
        const copy: Truth[] = TICKERS.map(() => ({ yes: new Map(), no: new Map() }));
        let modelLast: number | null = null;
        let pendingLoss = false;
        let seq = 0;
        let dropNext = false;
        let lastDelivered: string | undefined;

        const deliver = (text: string) => {
          const frame = JSON.parse(text) as { type: string; seq: number; msg: { market_ticker: string; side?: 'yes' | 'no'; price_dollars?: string; delta_fp?: string } };
          const m = TICKERS.indexOf(frame.msg.market_ticker);
          const expected: MarketOutcome[] = [];
          if (modelLast !== null && frame.seq === modelLast) {
            // a repeat: nothing
          } else {
            if (modelLast !== null && frame.seq !== modelLast + 1) {
              for (let i = 0; i < 3; i++) if (whole[i] && !(frame.type === 'orderbook_snapshot' && i === m)) {
                whole[i] = false;
                expected.push({ ticker: TICKERS[i]!, outcome: 'gap' });
              }
              pendingLoss = false;
            }
            modelLast = frame.seq;
            if (frame.type === 'orderbook_snapshot') {
              whole[m] = true;
              copy[m] = { yes: new Map(sent.get(frame.seq)!.yes), no: new Map(sent.get(frame.seq)!.no) };
              expected.push({ ticker: TICKERS[m]!, outcome: 'synced' });
            } else if (!whole[m]) expected.push({ ticker: TICKERS[m]!, outcome: 'buffered' });
            else {
              const cents = Math.round(Number(frame.msg.price_dollars) * 100);
              const side = frame.msg.side!;
              const key = side === 'no' && pricing === 'yes-leg' ? 100 - cents : cents;
              const levels = side === 'yes' ? copy[m]!.yes : copy[m]!.no;
              const next = (levels.get(key) ?? 0) + Math.round(Number(frame.msg.delta_fp) * 100);
              if (next === 0) levels.delete(key);
              else levels.set(key, next);
              expected.push({ ticker: TICKERS[m]!, outcome: 'applied' });
            }
          }
          const outcomes = stream.onMessage(decodeWsMessage(text, pricing)!);
          // Gaps first (in any order), then the message's own outcome.
          const order = (list: MarketOutcome[]) => [...list].sort((a, b) => Number(a.outcome !== 'gap') - Number(b.outcome !== 'gap') || (a.outcome === 'gap' ? a.ticker.localeCompare(b.ticker) : 0));
          assert.deepEqual(order(outcomes), order(expected));
          assert.deepEqual(outcomes.map((o) => o.outcome !== 'gap'), expected.map((o) => o.outcome !== 'gap'));
          // What the edge does with the outcomes (BookFeeds.settle): publish whole, apply changes, drop on a gap.
          for (const o of outcomes) {
            const i = TICKERS.indexOf(o.ticker);
            const feed = feeds[i]!;
            if (o.outcome === 'synced') {
              published[i]!.clear();
              for (const s of [Side.BID, Side.ASK] as const) {
                const flat = feed.book.flat(s, 1000);
                for (let k = 0; k < flat.length; k += 2) published[i]!.set(s, flat[k]!, flat[k + 1]!);
              }
            } else if (o.outcome === 'applied') for (let k = 0; k < feed.changes.length; k += 3) published[i]!.set(feed.changes[k] as Side, feed.changes[k + 1]!, feed.changes[k + 2]!);
            if (o.outcome !== 'buffered') feed.changes.length = 0;
          }
          for (let i = 0; i < 3; i++) {
            const feed = feeds[i]!;
            assert.equal(feed.sync.synced, whole[i]);
            if (!whole[i]) continue;
            const model = yesBook(copy[i]!.yes, copy[i]!.no);
            assert.deepEqual([feed.book.flat(Side.BID, 1000), feed.book.flat(Side.ASK, 1000)], [model.bids, model.asks]);
            assert.deepEqual([published[i]!.flat(Side.BID, 1000), published[i]!.flat(Side.ASK, 1000)], [model.bids, model.asks]);
            if (!pendingLoss) {
              const venue = yesBook(truth[i]!.yes, truth[i]!.no);
              assert.deepEqual([model.bids, model.asks], [venue.bids, venue.asks], 'no loss pending: the venue\'s book');
            }
          }
          lastDelivered = text;
        };
        const sent = new Map<number, { yes: Map<number, number>; no: Map<number, number> }>();
        const send = (build: (seq: number) => string, state?: Truth) => {
          seq++;
          if (state !== undefined) sent.set(seq, { yes: new Map(state.yes), no: new Map(state.no) });
          const text = build(seq);
          if (dropNext) {
            dropNext = false;
            pendingLoss = true;
            return;
          }
          deliver(text);
        };
        const price = (side: 'yes' | 'no', cents: number) => formatDollars((side === 'no' && pricing === 'yes-leg' ? 100 - cents : cents) * CENT);

        for (const op of ops) {
          if (op.t === 'lose') dropNext = true;
          else if (op.t === 'dup') {
            if (lastDelivered !== undefined) deliver(lastDelivered);
          } else if (op.t === 'snap') {
            const t = truth[op.m]!;
            send((s) => {
              const msg: Record<string, unknown> = { market_ticker: TICKERS[op.m], market_id: '9b0f6b43-5b68-4f9f-9f02-9a2d1b8ac1a1' };
              if (t.yes.size > 0) msg['yes_dollars_fp'] = [...t.yes].map(([c, q]) => [price('yes', c), fpCount(q)]);
              if (t.no.size > 0) msg['no_dollars_fp'] = [...t.no].map(([c, q]) => [price('no', c), fpCount(q)]);
              return JSON.stringify({ type: 'orderbook_snapshot', sid: 7, seq: s, msg });
            }, t);
          } else {
            const levels = op.side === 'yes' ? truth[op.m]!.yes : truth[op.m]!.no;
            const have = levels.get(op.cents) ?? 0;
            // The venue never takes away more than a level holds.
            const delta = op.hundredths === 0 ? 1 : Math.max(op.hundredths, -have) || Math.abs(op.hundredths);
            const next = have + delta;
            if (next === 0) levels.delete(op.cents);
            else levels.set(op.cents, next);
            send((s) => JSON.stringify({ type: 'orderbook_delta', sid: 7, seq: s, msg: { market_ticker: TICKERS[op.m], market_id: 'x', price_dollars: price(op.side, op.cents), delta_fp: fpCount(delta), side: op.side, ts_ms: 1669149841000 } }));
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('Kalshi orders (V2)', () => {
  const cents = priceBandsOf('linear_cent')!;
  const tapered = priceBandsOf('tapered_deci_cent')!;

  it('sends each leg through the YES book, the limit to the grid toward the passive side', () => {
    const q = 1_000_500_000; // 10.005 contracts: 10.00 go
    assert.deepEqual(orderTerms(cents, 'YES', 'buy', q, 555_000_000), { ok: true, terms: { side: 'bid', yes_price_1e9: 550_000_000, count_1e8: 1_000_000_000 } });
    assert.deepEqual(orderTerms(cents, 'YES', 'sell', q, 555_000_000), { ok: true, terms: { side: 'ask', yes_price_1e9: 560_000_000, count_1e8: 1_000_000_000 } });
    // Buying NO at 0.555 is selling YES at 0.445, up to 0.45: NO at 0.55, within the limit.
    assert.deepEqual(orderTerms(cents, 'NO', 'buy', q, 555_000_000), { ok: true, terms: { side: 'ask', yes_price_1e9: 450_000_000, count_1e8: 1_000_000_000 } });
    assert.deepEqual(orderTerms(cents, 'NO', 'sell', q, 555_000_000), { ok: true, terms: { side: 'bid', yes_price_1e9: 440_000_000, count_1e8: 1_000_000_000 } });
    assert.deepEqual([legPrice('NO', 450_000_000), legPrice('NO', 440_000_000), legPrice('YES', 440_000_000)], [550_000_000, 560_000_000, 440_000_000]);
    assert.deepEqual(orderTerms(tapered, 'NO', 'buy', 5 * CONTRACT, 955_500_000), { ok: true, terms: { side: 'ask', yes_price_1e9: 45_000_000, count_1e8: 5 * CONTRACT } }, 'the fine edge band');
    assert.deepEqual(orderTerms(cents, 'YES', 'buy', CONTRACT, null), { ok: true, terms: { side: 'bid', yes_price_1e9: 990_000_000, count_1e8: CONTRACT } }, 'at any price: the last price before $1');
    assert.deepEqual(orderTerms(cents, 'NO', 'buy', CONTRACT, null), { ok: true, terms: { side: 'ask', yes_price_1e9: 10_000_000, count_1e8: CONTRACT } });
    assert.equal(orderTerms(cents, 'YES', 'buy', 999_999, 500_000_000).ok, false, 'below 0.01 contract');
    assert.equal(orderTerms(cents, 'YES', 'buy', CONTRACT, 5_000_000).ok, false, 'no cent price at or below half a cent');
    assert.equal(orderTerms(cents, 'YES', 'buy', CONTRACT, PRICE_ONE).ok, false);
    assert.equal(orderTerms(cents, 'YES', 'sell', CONTRACT, 0).ok, false);
  });

  it('never loosens a limit, and goes no further than the next grid price (property)', () => {
    const names = Object.keys(PRICE_LEVEL_STRUCTURES);
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.constantFrom('YES' as const, 'NO' as const), fc.constantFrom('buy' as const, 'sell' as const), fc.integer({ min: 1, max: PRICE_ONE - 1 }), fc.integer({ min: 1, max: 1e12 }), (name, leg, side, limit, qty) => {
        const bands: PriceBand[] = priceBandsOf(name)!;
        const r = orderTerms(bands, leg, side, qty, limit);
        if (!r.ok) return;
        const p = legPrice(leg, r.terms.yes_price_1e9);
        assert.ok(isOnGrid(bands, r.terms.yes_price_1e9));
        assert.ok(side === 'buy' ? p <= limit : p >= limit, `${side} ${leg} at ${p} for ${limit}`);
        assert.ok(Math.abs(p - limit) < finestStep(bands) * 10 + 1, 'within a band step');
        assert.ok(r.terms.count_1e8 <= qty && qty - r.terms.count_1e8 < 1_000_000 && r.terms.count_1e8 % 1_000_000 === 0);
      }),
      { numRuns: 500 },
    );
  });

  it("writes the create body with the docs' example's fields and formats", () => {
    const terms = orderTerms(cents, 'YES', 'buy', 10 * CONTRACT, 560_000_000);
    assert.ok(terms.ok);
    const body = createOrderBody('HIGHNY-24JAN01-T60', CHILD, 'YES', terms.terms, 'gtc', { exchange_index: 0 })!;
    assert.equal(body, `{"ticker":"HIGHNY-24JAN01-T60","client_order_id":"${kalshiClientOrderId(CHILD, 'YES')}","side":"bid","count":"10.00","price":"0.5600","time_in_force":"good_till_canceled","self_trade_prevention_type":"taker_at_cross","exchange_index":0}`);
    const ioc = JSON.parse(createOrderBody('HIGHNY-24JAN01-T60', CHILD, 'NO', { side: 'ask', yes_price_1e9: 45_000_000, count_1e8: 123_000_000 }, 'ioc')!) as Record<string, unknown>;
    assert.deepEqual([ioc['side'], ioc['count'], ioc['price'], ioc['time_in_force'], childOfKalshi(ioc['client_order_id'] as string)], ['ask', '1.23', '0.0450', 'immediate_or_cancel', { child_id: CHILD, leg: 'NO' }]);
    assert.equal(createOrderBody('X', 'someone-elses-id', 'YES', terms.terms, 'ioc'), undefined);
    assert.deepEqual([formatDollars(100_000), formatDollars(999_900_000), formatCount(1_000_000), formatCount(12_345_000_000)], ['0.0001', '0.9999', '0.01', '123.45']);
    assert.throws(() => formatDollars(50_000), RangeError);
    assert.throws(() => formatCount(500_000), RangeError);
  });

  it("reads the create answer: the docs' 201, a fill, and every refusal", () => {
    const docs = createOrderOutcome(201, { order_id: '3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', client_order_id: '8c35ecb3-328f-4f52-8c7c-0f4b9862f8d1', fill_count: '0.00', remaining_count: '10.00', ts_ms: 1715793600123 });
    assert.deepEqual(docs, { kind: 'placed', order_id: '3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', client_order_id: '8c35ecb3-328f-4f52-8c7c-0f4b9862f8d1', filled_1e8: 0, remaining_1e8: 10 * CONTRACT, avg_yes_price_1e9: null, avg_fee_1e9: null, ts_ms: 1715793600123 });
    assert.ok(docs.kind === 'placed');
    assert.deepEqual(settledReportOf(docs, 'gtc'), { ok: true, reason: null, fills: [], resting_qty_1e8: 10 * CONTRACT }, 'resting untouched');
    assert.deepEqual(settledReportOf({ ...docs, remaining_1e8: 0 }, 'ioc'), { ok: true, reason: null, fills: [], resting_qty_1e8: 0 }, 'an IOC that met nothing');
    // Not from the docs: an IOC that filled 4 of 10 (the remainder cancelled).
    const filled = createOrderOutcome(201, { order_id: 'o-2', fill_count: '4.00', remaining_count: '0.00', average_fill_price: '0.5525', average_fee_paid: '0.0175', ts_ms: 1 });
    assert.ok(filled.kind === 'placed');
    assert.deepEqual([filled.filled_1e8, filled.avg_yes_price_1e9, filled.avg_fee_1e9, settledReportOf(filled, 'ioc')], [4 * CONTRACT, 552_500_000, 17_500_000, undefined]);
    const kinds: [number, unknown, string][] = [
      [409, { error: { code: 'order_already_exists', message: 'order already exists' } }, 'exists'],
      [400, { error: { code: 'invalid_order', message: 'invalid order' } }, 'refused'],
      [400, { error: { code: 'available_balance_too_low', message: 'Insufficient available balance' } }, 'refused'],
      [401, { error: { code: 'authentication_error', message: 'authentication_error', details: 'rpc error: code = Unauthenticated desc = INCORRECT_API_KEY_SIGNATURE' } }, 'refused'],
      [429, { error: 'too many requests' }, 'refused'],
      [500, { code: 'internal_server_error', message: 'Internal server error' }, 'unknown'],
      [503, 'Service Unavailable', 'unknown'],
      [201, { order_id: '' }, 'unknown'],
      [201, { orders: [] }, 'unknown'],
    ];
    for (const [status, body, kind] of kinds) assert.equal(createOrderOutcome(status, body).kind, kind, `${status} ${JSON.stringify(body)}`);
    // A legacy `{order}` answer still reads.
    const legacy = createOrderOutcome(201, { order: { order_id: 'abc-123-def-456', ticker: 'PRES-2024-DJT', side: 'yes', action: 'buy', type: 'limit', status: 'resting', yes_price: 53, no_price: 47, initial_count: 100, remaining_count: 100, fill_count: 0, created_time: '2024-11-25T12:00:00Z' } });
    assert.deepEqual(legacy.kind === 'placed' ? [legacy.order_id, legacy.remaining_1e8] : legacy, ['abc-123-def-456', 100 * CONTRACT]);
  });
});

describe('Kalshi errors', () => {
  it('sorts answers into what they mean for a child', () => {
    const cases: [number, unknown, string, string][] = [
      [404, { error: { code: 'not_found', message: 'order not found' } }, 'no-such-order', 'kalshi 404 not_found: order not found'],
      [404, { code: 'market_not_found', message: 'market not found' }, 'refused', 'kalshi 404 market_not_found: market not found'],
      [409, { error: { code: 'order_already_exists', message: '' } }, 'exists', 'kalshi 409 order_already_exists'],
      [401, { error: { code: 'authentication_error', message: 'authentication_error', details: 'rpc error: code = Unauthenticated desc = INCORRECT_API_KEY_SIGNATURE' } }, 'auth', 'kalshi 401 authentication_error (rpc error: code = Unauthenticated desc = INCORRECT_API_KEY_SIGNATURE)'],
      [403, 'Forbidden', 'auth', 'kalshi 403: Forbidden'],
      [429, { error: 'too many requests' }, 'rate-limit', 'kalshi 429: too many requests'],
      [400, { error: { code: 'available_balance_too_low', message: 'Insufficient available balance' } }, 'funds', 'kalshi 400 available_balance_too_low: Insufficient available balance'],
      [400, { error: { code: 'INSUFFICIENT_BALANCE', message: '' } }, 'funds', 'kalshi 400 INSUFFICIENT_BALANCE'],
      [400, { error: { code: 'MARKET_INACTIVE', message: 'market inactive' } }, 'market-closed', 'kalshi 400 MARKET_INACTIVE: market inactive'],
      [400, { error: { code: 'trading_paused', message: '' } }, 'market-closed', 'kalshi 400 trading_paused'],
      [400, { error: { code: 'exchange_unavailable', message: 'could not confirm' } }, 'fate-unknown', 'kalshi 400 exchange_unavailable: could not confirm'],
      [504, undefined, 'fate-unknown', 'kalshi 504'],
      [400, { error: { code: 'bad_request', message: 'Please switch to the V2 endpoints' } }, 'deprecated', 'kalshi 400 bad_request: Please switch to the V2 endpoints'],
      [400, { error: { code: 'invalid_order_size', message: 'invalid order size' } }, 'refused', 'kalshi 400 invalid_order_size: invalid order size'],
    ];
    for (const [status, body, kind, reason] of cases) {
      const e = kalshiError(status, body)!;
      assert.deepEqual([e.kind, e.reason], [kind, reason], `${status} ${JSON.stringify(body)}`);
    }
    assert.equal(kalshiError(200, { order: {} }), undefined);
    assert.equal(kalshiError(201, {}), undefined);
  });
});

// ---------------------------------------------------------------------------------------------

/** Not from the docs: an order of ours with the current Order schema's fields, partly filled, on the NO leg. */
function orderRow(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_id: 'ee587a1c-8b87-4dcf-b721-9f6f790619fa',
    user_id: 'u-1',
    client_order_id: kalshiClientOrderId(CHILD, 'NO'),
    ticker: 'KXHIGHNY-24JAN01-T60',
    outcome_side: 'no',
    book_side: 'ask',
    type: 'limit',
    status: 'resting',
    yes_price_dollars: '0.4500',
    no_price_dollars: '0.5500',
    fill_count_fp: '4.00',
    remaining_count_fp: '6.00',
    initial_count_fp: '10.00',
    taker_fill_cost_dollars: '2.2000',
    maker_fill_cost_dollars: '0.0000',
    taker_fees_dollars: '0.0700',
    maker_fees_dollars: '0.000000',
    created_time: '2026-05-01T12:00:00.123456Z',
    exchange_index: 0,
    ...over,
  };
}

describe('Kalshi orders: reading', () => {
  it('reads an order of ours: its child, leg, counts and fees', () => {
    const o = decodeOrder({ order: orderRow() })!;
    assert.deepEqual(
      [o.child_id, o.leg, o.outcome_side, o.book_side, o.status, o.yes_price_1e9, o.no_price_1e9, o.initial_1e8, o.filled_1e8, o.remaining_1e8, o.resting_1e8, o.fees_1e9, o.created_ns],
      [CHILD, 'NO', 'no', 'ask', 'resting', 450_000_000, 550_000_000, 10 * CONTRACT, 4 * CONTRACT, 6 * CONTRACT, 6 * CONTRACT, 70_000_000, 1777636800123456000],
    );
    const cancelled = decodeOrder({ order: orderRow({ status: 'canceled' }) })!;
    assert.deepEqual([cancelled.remaining_1e8, cancelled.resting_1e8], [6 * CONTRACT, 0], 'what remains of a cancelled order does not rest');
    assert.equal(decodeOrder({ order: orderRow({ status: 'weird' }) }), undefined, 'an unknown status is not guessed at');
    assert.equal(orderPath('ee587a1c'), '/trade-api/v2/portfolio/orders/ee587a1c');
  });

  it("reads a legacy order (kalshi-agent's production answer): side/action, cents, integer counts", () => {
    const o = decodeOrder({ order: { order_id: 'abc-123-def-456', ticker: 'PRES-2024-DJT', side: 'yes', action: 'buy', type: 'limit', status: 'resting', yes_price: 53, no_price: 47, initial_count: 100, remaining_count: 100, fill_count: 0, created_time: '2024-11-25T12:00:00Z' } })!;
    assert.deepEqual([o.outcome_side, o.book_side, o.yes_price_1e9, o.no_price_1e9, o.resting_1e8, o.client_order_id, o.child_id], ['yes', 'bid', 530_000_000, 470_000_000, 100 * CONTRACT, null, null]);
    const sellNo = decodeOrder({ order: { order_id: 'x', ticker: 'T', side: 'no', action: 'sell', status: 'executed', no_price: 40, fill_count: 5, remaining_count: 0 } })!;
    assert.deepEqual([sellNo.outcome_side, sellNo.yes_price_1e9, sellNo.initial_1e8], ['yes', 600_000_000, 5 * CONTRACT], 'selling NO is long YES; the other price and the initial count derived');
  });

  it('walks order pages: ours found by child id, open ones named by leg symbol; one of ours unreadable spoils the page', () => {
    assert.equal(ordersPath({ ticker: 'T', status: 'resting' }), '/trade-api/v2/portfolio/orders?ticker=T&status=resting&limit=1000');
    assert.equal(clientOrderLookupPath('KXHIGHNY-24JAN01-T60', 1_777_636_800_500, 'c1'), '/trade-api/v2/portfolio/orders?ticker=KXHIGHNY-24JAN01-T60&min_ts=1777636740&limit=1000&cursor=c1');
    assert.equal(restingOrdersPath(), '/trade-api/v2/portfolio/orders?status=resting&limit=1000');
    const page = decodeOrders({ orders: [orderRow(), { order_id: 'hand', ticker: 'T', status: 'mystery', client_order_id: 'mine' }, orderRow({ order_id: 'o2', client_order_id: kalshiClientOrderId('ord_0mwz4ka3500001oq-3', 'YES'), outcome_side: 'yes', book_side: 'bid' })], cursor: 'next' })!;
    assert.deepEqual([page.orders.length, page.cursor], [2, 'next'], 'a foreign row that does not read is skipped');
    assert.equal(findByChildId(page.orders, CHILD)?.order_id, 'ee587a1c-8b87-4dcf-b721-9f6f790619fa');
    assert.equal(findByChildId(page.orders, 'ord_0mwz4ka3500001oq-9'), undefined);
    assert.deepEqual(ownOpenOrders(page.orders), [
      { child_id: CHILD, symbol: 'KXHIGHNY-24JAN01-T60:NO' },
      { child_id: 'ord_0mwz4ka3500001oq-3', symbol: 'KXHIGHNY-24JAN01-T60:YES' },
    ]);
    assert.equal(decodeOrders({ orders: [orderRow({ status: 'mystery' })], cursor: '' }), undefined);
    assert.deepEqual(decodeOrders({ orders: [], cursor: '' }), { orders: [], cursor: null });
  });

  it("reads fills at the child's leg price, the exact fee, oldest first", () => {
    assert.equal(fillsPath({ order_id: 'ee587a1c' }), '/trade-api/v2/portfolio/fills?order_id=ee587a1c&limit=1000');
    // Not from the docs: two fills of the NO child above (it sells YES at 0.45: NO at 0.55) and one of another order.
    const body = {
      fills: [
        { fill_id: 'f-2', trade_id: 'f-2', order_id: 'ee587a1c', ticker: 'KXHIGHNY-24JAN01-T60', market_ticker: 'KXHIGHNY-24JAN01-T60', outcome_side: 'no', book_side: 'ask', count_fp: '2.50', yes_price_dollars: '0.4500', no_price_dollars: '0.5500', is_taker: false, created_time: '2026-05-01T12:00:02Z', fee_cost: '0.001083', exchange_index: 0 },
        { fill_id: 'f-1', trade_id: 'f-1', order_id: 'ee587a1c', ticker: 'KXHIGHNY-24JAN01-T60', market_ticker: 'KXHIGHNY-24JAN01-T60', outcome_side: 'no', book_side: 'ask', count_fp: '1.50', yes_price_dollars: '0.4500', no_price_dollars: '0.5500', is_taker: true, created_time: '2026-05-01T12:00:01.5Z', fee_cost: '0.0260', exchange_index: 0 },
        { fill_id: 'g-1', order_id: 'other', ticker: 'T', count_fp: '1.00', yes_price_dollars: '0.1000', no_price_dollars: '0.9000', is_taker: true, fee_cost: '0.0100' },
      ],
      cursor: '',
    };
    const r = decodeFills(body, 'NO', { order_id: 'ee587a1c' })!;
    assert.deepEqual(r.fills, [
      { price_1e9: 550_000_000, qty_1e8: 150_000_000, trade_id: 'f-1', ts_ns: 1777636801500000000, fee_1e9: 26_000_000, is_maker: false },
      { price_1e9: 550_000_000, qty_1e8: 250_000_000, trade_id: 'f-2', ts_ns: 1777636802000000000, fee_1e9: 1_083_000, is_maker: true },
    ]);
    assert.equal(r.cursor, null);
    const order = decodeOrder({ order: orderRow() })!;
    assert.ok(fillsCover(order, r.fills));
    assert.deepEqual(legReportOf(order, r.fills), { ok: true, reason: null, fills: r.fills, resting_qty_1e8: 6 * CONTRACT });
    assert.equal(decodeFills(body, 'YES', { order_id: 'ee587a1c' })!.fills[0]!.price_1e9, 450_000_000, 'the same fill on the YES leg');
  });

  it("reads a legacy fill (kalshi-agent's production answer), its fee from the fallback when none is sent", () => {
    const body = { fills: [{ fill_id: 'fill-123', order_id: 'order-456', ticker: 'PRES-2024-DJT', side: 'yes', action: 'buy', count: 50, yes_price: 53, no_price: 47, is_taker: true, created_time: '2024-11-25T12:00:00Z' }] };
    assert.equal(decodeFills(body, 'YES'), undefined, 'no fee, no fallback: not booked');
    const c = kalshiFeeComponents({ fee_type: 'quadratic', fee_multiplier: 1 }, 'taker')!;
    const r = decodeFills(body, 'YES', { fallbackFee: (q, p) => kalshiTradeFee1e9(c, q, p, 'cent') })!;
    // 0.07 x 50 x 0.53 x 0.47 = $0.87185, up to $0.88.
    assert.deepEqual(r.fills, [{ price_1e9: 530_000_000, qty_1e8: 50 * CONTRACT, trade_id: 'fill-123', ts_ns: Date.parse('2024-11-25T12:00:00Z') * 1e6, fee_1e9: 880_000_000, is_maker: false }]);
  });
});

describe('Kalshi cancels (V2)', () => {
  it("builds the paths and bodies and reads the docs' answers", () => {
    assert.equal(cancelPath('3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', { market_ticker: 'HIGHNY-24JAN01-T60' }), '/trade-api/v2/portfolio/events/orders/3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d?market_ticker=HIGHNY-24JAN01-T60');
    assert.deepEqual(decodeCancel({ order_id: '3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', client_order_id: '8c35ecb3-328f-4f52-8c7c-0f4b9862f8d1', reduced_by: '10.00', ts_ms: 1715793660456 }), { order_id: '3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', client_order_id: '8c35ecb3-328f-4f52-8c7c-0f4b9862f8d1', reduced_by_1e8: 10 * CONTRACT, ts_ms: 1715793660456 });
    assert.deepEqual(decodeCancel({ order: { order_id: 'abc', client_order_id: 'c' }, reduced_by: 3, reduced_by_fp: '3.00' }), { order_id: 'abc', client_order_id: 'c', reduced_by_1e8: 3 * CONTRACT, ts_ms: null }, 'the legacy answer');
    assert.equal(decodeCancel({ reduced_by: '1.00' }), undefined);
    assert.equal(batchCancelBody([{ order_id: '3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', exchange_index: 0 }, { order_id: 'a6d6010d-6d5f-40a1-a7e7-5501386bb621', market_ticker: 'T' }]), '{"orders":[{"order_id":"3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d","exchange_index":0},{"order_id":"a6d6010d-6d5f-40a1-a7e7-5501386bb621","market_ticker":"T"}]}');
    assert.throws(() => batchCancelBody([]), RangeError);
    const docs = { orders: [{ order_id: '3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', client_order_id: '8c35ecb3-328f-4f52-8c7c-0f4b9862f8d1', reduced_by: '10.00', ts_ms: 1715793660456 }, { order_id: 'a6d6010d-6d5f-40a1-a7e7-5501386bb621', client_order_id: '2a0e3fc9-b593-4aa3-96e5-82f7f7566c2a', reduced_by: '5.00', ts_ms: 1715793660789 }] };
    assert.deepEqual(decodeBatchCancel(docs), [
      { order_id: '3b23c1c7-f4ef-4f0d-8b9a-9e53c61f1a0d', reduced_by_1e8: 10 * CONTRACT, error: null },
      { order_id: 'a6d6010d-6d5f-40a1-a7e7-5501386bb621', reduced_by_1e8: 5 * CONTRACT, error: null },
    ]);
    // Not from the docs: a row that errored (its reduced_by "Zero if the cancel errored").
    const errored = decodeBatchCancel({ orders: [{ order_id: 'gone', reduced_by: '0.00', ts_ms: null, error: { code: 'not_found', message: 'order not found' } }] })!;
    assert.deepEqual([errored[0]!.reduced_by_1e8, errored[0]!.error?.kind, errored[0]!.error?.reason], [0, 'no-such-order', 'kalshi not_found: order not found']);
    assert.deepEqual([batchCancelMax(100), batchCancelMax(2000)], [50, 1000], 'what fits in a Basic and a Premier write bucket');
  });
});

describe('Kalshi balance and positions', () => {
  it("reads the balance: kalshi-agent's production answer in cents, and the fixed-point fields", () => {
    const old = decodeBalance({ balance: 10000, portfolio_value: 5000, updated_ts: 1700000000 })!;
    assert.deepEqual(old, { balance_1e9: 100_000_000_000n, portfolio_value_1e9: 50_000_000_000n, by_exchange: [], updated_ts: 1700000000 });
    assert.deepEqual(cashBalance(old), { asset: 'USD', free_1e8: 10_000_000_000n, locked_1e8: 0n });
    // Not from the docs: the schema's fields, a sub-cent balance and a shard breakdown.
    const now = decodeBalance({ balance: 123457, balance_dollars: '1234.5678', portfolio_value: 5000, updated_ts: 1, balance_breakdown: [{ exchange_index: 0, balance: '1000.0000' }, { exchange_index: 2, balance: '234.5678' }] })!;
    assert.deepEqual([now.balance_1e9, now.by_exchange], [1_234_567_800_000n, [{ exchange_index: 0, balance_1e9: 1_000_000_000_000n }, { exchange_index: 2, balance_1e9: 234_567_800_000n }]]);
    assert.equal(cashBalance(now).free_1e8, 123_456_780_000n);
    assert.equal(decodeBalance({ portfolio_value: 1 }), undefined);
  });

  it("reads positions: kalshi-agent's production answer (integers), the fixed-point fields, legs by sign", () => {
    const old = decodePositions({ market_positions: [{ ticker: 'PRES-2024-DJT', position: 100, market_exposure: 5300, market_exposure_dollars: '53.0000', realized_pnl: 0, total_traded: 5300, fees_paid: 50 }], event_positions: [{ event_ticker: 'PRES-2024', event_exposure: 5300, realized_pnl: 0 }] })!;
    assert.deepEqual(old.positions, [{ ticker: 'PRES-2024-DJT', position_1e8: 100 * CONTRACT, exposure_1e9: 53_000_000_000n, realized_pnl_1e9: 0n, fees_paid_1e9: 500_000_000n, exchange_index: 0 }]);
    const now = decodePositions({ market_positions: [{ ticker: 'KXHIGHNY-24JAN01-T60', exchange_index: 0, total_traded_dollars: '5.5000', position_fp: '-12.50', market_exposure_dollars: '6.8750', realized_pnl_dollars: '-0.250000', fees_paid_dollars: '0.1200', last_updated_ts: '2026-05-01T12:00:00Z' }], event_positions: [], cursor: 'c' })!;
    assert.deepEqual([now.positions[0]!.position_1e8, now.positions[0]!.realized_pnl_1e9, now.cursor], [-1_250_000_000, -250_000_000n, 'c']);
    assert.deepEqual(positionBalances([...old.positions, ...now.positions]), [
      { asset: 'PRES-2024-DJT:YES', free_1e8: 10_000_000_000n, locked_1e8: 0n },
      { asset: 'KXHIGHNY-24JAN01-T60:NO', free_1e8: 1_250_000_000n, locked_1e8: 0n },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('Kalshi fees', () => {
  const quadratic = { fee_type: 'quadratic', fee_multiplier: 1 };
  const withMakers = { fee_type: 'quadratic_with_maker_fees', fee_multiplier: 1 };
  const combo = { fee_type: 'quadratic_with_combo_maker_fees', fee_multiplier: 1 };

  it('charges the schedule by hand: taker 0.07 x C x P x (1 - P), maker a quarter of it where series charge makers', () => {
    const taker = kalshiFeeComponents(quadratic, 'taker')!;
    const fee = (c: typeof taker, contracts: number, cents: number) => [kalshiTradeFee1e9(c, contracts * CONTRACT, cents * CENT, 'cent'), kalshiTradeFee1e9(c, contracts * CONTRACT, cents * CENT, 'centicent')];
    assert.deepEqual(fee(taker, 1, 50), [20_000_000, 17_500_000], '$0.0175: 2c, or $0.0175 to the centicent');
    assert.deepEqual(fee(taker, 10, 50), [180_000_000, 175_000_000], '$0.175');
    assert.deepEqual(fee(taker, 100, 5), [340_000_000, 332_500_000], '$0.3325');
    assert.deepEqual(fee(taker, 1, 1), [10_000_000, 700_000], '$0.000693');
    assert.deepEqual(fee(kalshiFeeComponents(withMakers, 'maker')!, 100, 50), [440_000_000, 437_500_000], 'maker 0.0175 x 100 x 0.25 = $0.4375');
    assert.deepEqual(fee(kalshiFeeComponents(combo, 'maker')!, 100, 50), [880_000_000, 875_000_000], 'combo makers pay half the taker rate');
    assert.deepEqual(fee(kalshiFeeComponents(quadratic, 'maker')!, 100, 50), [0, 0], 'plain quadratic series: makers pay nothing');
    assert.deepEqual(fee(kalshiFeeComponents({ fee_type: 'quadratic', fee_multiplier: 0.5 }, 'taker')!, 10, 50), [90_000_000, 87_500_000], 'a series at half rate: $0.0875');
    assert.equal(kalshiFeeComponents({ fee_type: 'flat', fee_multiplier: 1 }, 'taker'), null);
    // fee_rounding's third example: 0.03 contracts at $0.3301 trade for $0.0005 (0.07 x 0.03 x 0.3301 x 0.6699 = $0.000464...).
    assert.equal(kalshiTradeFee1e9(taker, 3_000_000, 330_100_000, 'centicent'), 500_000);
  });

  it('is the domain binary_quadratic to the cent, and the centicent fee rounded up to the cent (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(quadratic, withMakers, combo, { fee_type: 'quadratic', fee_multiplier: 0.25 }), fc.constantFrom('taker' as const, 'maker' as const), fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: PRICE_ONE }), (schedule, role, qty, price) => {
        const c = kalshiFeeComponents(schedule, role)!;
        const cent = kalshiTradeFee1e9(c, qty, price, 'cent');
        const centicent = kalshiTradeFee1e9(c, qty, price, 'centicent');
        assert.equal(cent, binaryTakerFeeUsd1e9(c, qty, price));
        assert.equal(cent, Math.ceil(centicent / CENT) * CENT);
        assert.ok(centicent % 100_000 === 0 && centicent <= cent);
      }),
      { numRuns: 400 },
    );
  });

  it("rounds balances and rebates exactly as fee_rounding's three worked examples", () => {
    const walk = (price_1e9: number, qty_1e8: number, tradeFee_1e9: bigint) => {
      let carry = 0n;
      const rows: string[][] = [];
      for (let fill = 0; fill < 3; fill++) {
        const c = fillCharges(fillRevenue1e9('buy', qty_1e8, price_1e9), tradeFee_1e9, carry, BALANCE_PRECISION_1E9.nonDirect);
        carry = c.carry_1e9;
        rows.push([c.rounding_fee_1e9, c.accumulated_1e9, c.rebate_1e9, c.net_fee_1e9, c.balance_change_1e9].map(String));
      }
      return rows;
    };
    // Buy 3 at $0.055 as three 1-lot fills, trade fee $0.0085 each.
    assert.deepEqual(walk(55_000_000, CONTRACT, 8_500_000n), [
      ['6500000', '6500000', '0', '15000000', '-70000000'],
      ['6500000', '13000000', '10000000', '5000000', '-70000000'],
      ['6500000', '9500000', '0', '15000000', '-70000000'],
    ]);
    // Buy 0.90 at $0.50 as three 0.30-lot fills, trade fee $0.0041 each.
    assert.deepEqual(walk(500_000_000, 30_000_000, 4_100_000n), [
      ['5900000', '5900000', '0', '10000000', '-160000000'],
      ['5900000', '11800000', '10000000', '0', '-160000000'],
      ['5900000', '7700000', '0', '10000000', '-160000000'],
    ]);
    // Buy 0.09 at $0.3301 as three 0.03-lot fills, trade fee $0.0005 each.
    assert.deepEqual(walk(330_100_000, 3_000_000, 500_000n), [
      ['9597000', '9597000', '0', '10097000', '-20000000'],
      ['9597000', '19194000', '10000000', '97000', '-20000000'],
      ['9597000', '18791000', '10000000', '97000', '-20000000'],
    ]);
    assert.equal(fillRevenue1e9('sell', 3_000_000, 330_100_000), 9_903_000n);
    assert.equal(fillCharges(9_903_000n, 500_000n, 0n, BALANCE_PRECISION_1E9.direct).balance_change_1e9, 9_400_000n, "a seller's gain floored to the centicent");
  });
});

describe('Kalshi rate limits and the account probe', () => {
  it("reads the docs' limits answer and knows the tiers' budgets", () => {
    const docs = decodeAccountLimits({ usage_tier: 'premier', read: { refill_rate: 1000, bucket_capacity: 1000 }, write: { refill_rate: 1000, bucket_capacity: 2000 }, grants: [{ exchange_instance: 'event_contract', level: 'premier', expires_ts: 1751558400, source: 'volume' }, { exchange_instance: 'event_contract', level: 'advanced', source: 'manual' }] })!;
    assert.deepEqual(docs, { usage_tier: 'premier', read: { refill_rate: 1000, bucket_capacity: 1000 }, write: { refill_rate: 1000, bucket_capacity: 2000 } });
    assert.deepEqual(tierBuckets('premier'), docs, 'the table agrees with the answer');
    assert.deepEqual(tierBuckets('basic'), { usage_tier: 'basic', read: { refill_rate: 200, bucket_capacity: 400 }, write: { refill_rate: 100, bucket_capacity: 100 } });
    assert.deepEqual(tierBuckets('unheard-of').usage_tier, 'basic');
    assert.equal(decodeAccountLimits({ usage_tier: 'basic' }), undefined);
    assert.deepEqual([requestCost('read'), requestCost('create'), requestCost('cancel', 25)], [[10, 0], [0, 10], [0, 50]]);
  });

  it("walks the docs' Premier example: 200 orders at once after 2 s idle, then one every 10 ms", () => {
    const limits = new VenueLimits(kalshiLimitRules(tierBuckets('premier')));
    let accepted = 0;
    while (limits.admit(requestCost('create'), 10_000) === 0) accepted++;
    assert.equal(accepted, 200);
    assert.equal(limits.admit(requestCost('create'), 10_000), 10, '"a 10-token order is covered again 10 ms after a 429"');
    assert.equal(limits.admit(requestCost('create'), 10_010), 0);
    assert.equal(limits.admit(requestCost('read'), 10_010), 0, 'reads draw from their own bucket');
  });

  it('probes the account: its tier, the at-mid rates, trading as the exchange says', () => {
    const status = decodeExchangeStatus({ exchange_active: true, trading_active: false })!;
    assert.deepEqual(accountProbeOf(tierBuckets('expert'), status), { tier: 'expert', maker_bps: 0, taker_bps: 350, can_trade: false, can_withdraw: null });
    assert.deepEqual(accountProbeOf(undefined, undefined).tier, 'basic');
  });
});
