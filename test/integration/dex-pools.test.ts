/**
 * DEX pools against the real service: `GET /v1/market_data/pools` for a chain-suffixed pair and
 * for `BASE-USD` across chains, every field of the spec's entry, prices a swap of the displayed
 * size gets (bid below ask, the pool price between them), pools kept near the CEX market by
 * arbitrage, blocks advancing, gas contexts per chain; bad symbols refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { orientationOf, POOLS, priceOf } from '../../actors/dex-chain/pools.ts';
import type { PoolEntry } from '../../actors/dex-chain/chain.ts';
import { call, envelope, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';

type Pool = PoolEntry;

let svc: TestService;

const pools = (symbol: string) => call<{ symbol: string; pools: Pool[] }>(svc.base, 'GET', `/v1/market_data/pools?symbol=${symbol}`, { token: TEST_OPERATOR_KEY });

describe('DEX pools', () => {
  before(async () => {
    svc = await startTestService({});
  });
  after(async () => svc?.stop());

  it('a chain-suffixed pair: its pools on that chain, every field, bid and ask of the displayed size around the pool price', async () => {
    const res = await pools('ETH-USDC-dex-arb');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.pools.map((p) => [p.chain, p.fee_bps]).sort(), [['dex-arb', 30], ['dex-arb', 5]]);
    for (const p of res.body.pools) {
      assert.equal(p.symbol, 'ETH-USDC-dex-arb');
      assert.match(p.pool_address, /^0x[0-9a-fA-F]{40}$/);
      assert.match(p.sqrt_price_x96, /^[1-9][0-9]+$/);
      assert.match(p.liquidity, /^[1-9][0-9]+$/);
      assert.ok(Number.isInteger(p.tick) && p.protocol_id >= 1 && p.protocol_id <= 9);
      const spec = POOLS.find((s) => s.pool_address === p.pool_address)!;
      const mid = priceOf(BigInt(p.sqrt_price_x96), orientationOf(spec));
      assert.ok(p.bid < mid && mid < p.ask, `${p.bid} < ${mid} < ${p.ask}`);
      // A swap pays the fee at least: the spread of the displayed size is wider than two fees.
      assert.ok((p.ask - p.bid) / mid >= (2 * p.fee_bps) / 1e4 - 1e-9);
      assert.ok(Math.abs(p.bid_size * mid - 10_000) < 200, `about $10,000: ${p.bid_size * mid}`);
      assert.deepEqual([p.gas_context.chain, p.gas_context.chain_id], ['dex-arb', 42161]);
      assert.ok(p.gas_context.base_fee_native > 0 && p.gas_context.estimated_cost_usd > 0 && p.gas_context.native_price_1e9 > 0);
    }
  });

  it('BASE-USD spans both chains and every dollar quote; pools sit near the CEX market', async () => {
    const res = await pools('ETH-USD');
    assert.equal(res.status, 200);
    assert.deepEqual(new Set(res.body.pools.map((p) => p.chain)), new Set(['dex-eth', 'dex-arb']));
    assert.ok(res.body.pools.some((p) => p.symbol.startsWith('ETH-USDT')) && res.body.pools.some((p) => p.symbol.startsWith('ETH-USDC')));
    const cex = await call<{ nbbo: { mid: number } }>(svc.base, 'GET', '/v1/quotes/ETH-USDC', { token: TEST_OPERATOR_KEY });
    for (const p of res.body.pools) {
      const mid = (p.bid + p.ask) / 2;
      assert.ok(Math.abs(mid / cex.body.nbbo.mid - 1) < 0.01, `${p.symbol} ${p.fee_bps}: ${mid} vs ${cex.body.nbbo.mid}`);
    }
  });

  it('blocks advance: a later read is at a later block', async () => {
    const first = (await pools('BTC-USDC-dex-arb')).body.pools[0]!;
    await new Promise((r) => setTimeout(r, 2_200));
    const later = (await pools('BTC-USDC-dex-arb')).body.pools[0]!;
    assert.ok(later.block_number >= first.block_number + 1, `${first.block_number} -> ${later.block_number}`);
    assert.ok(later.updated_ms > first.updated_ms);
  });

  it('bad symbols: not a pair is 400, a pair no pool trades is 404', async () => {
    const bad = await pools('ETHUSDC');
    assert.equal(bad.status, 400);
    assert.equal(envelope(bad.body).details[0]!.field, 'symbol');
    assert.equal((await pools('DOGE-USD')).status, 404);
    assert.equal((await pools('ETH-USDC-dex-sol')).status, 400);
    assert.equal((await call(svc.base, 'GET', '/v1/market_data/pools', { token: TEST_OPERATOR_KEY })).status, 400);
  });

  it('quotes a chain-suffixed pair from its pools: the best swap price of the displayed size, each pool by its pool id', async () => {
    const q = await call<{ symbol: string; instrument_type: string; nbbo: { bid: number; ask: number; mid: number; crossed: boolean }; venues: Record<string, { bid: number; ask: number }>; book: { bids: [number, number][]; asks: [number, number][] }; source: string }>(
      svc.base, 'GET', '/v1/quotes/ETH-USDC-dex-arb', { token: TEST_OPERATOR_KEY });
    assert.equal(q.status, 200, JSON.stringify(q.body));
    assert.deepEqual([q.body.instrument_type, q.body.source], ['dex', 'edge_rpc_snapshot']);
    const venues = Object.entries(q.body.venues);
    assert.equal(venues.length, 2);
    for (const [id] of venues) assert.match(id, /^dex-arb:0x[0-9a-fA-F]{40}$/);
    assert.equal(q.body.nbbo.bid, Math.max(...venues.map(([, v]) => v.bid)));
    assert.equal(q.body.nbbo.ask, Math.min(...venues.map(([, v]) => v.ask)));
    assert.ok(q.body.nbbo.bid < q.body.nbbo.ask && !q.body.nbbo.crossed);
    assert.deepEqual(q.body.book.bids.map((l) => l[0]), venues.map(([, v]) => v.bid).sort((a, b) => b - a));
    assert.equal((await call(svc.base, 'GET', '/v1/quotes/DOGE-USDC-dex-arb', { token: TEST_OPERATOR_KEY })).status, 404);
  });

  it('price history of a chain-suffixed pair is its pools\' swaps (retail flow and arbitrage), from the tape', async () => {
    type Point = { ts_ns: number; price_1e9: number; qty_1e8?: number; side?: string; venue_id?: string };
    const h = await until('swaps on the tape', async () => {
      const r = await call<{ symbol: string; points: Point[] }>(svc.base, 'GET', '/v1/price_history/ETH-USDC-dex-arb?range=1h&fidelity_secs=0&limit=50', { token: TEST_OPERATOR_KEY });
      return r.status === 200 && r.body.points.length >= 3 ? r.body : undefined;
    }, 15_000, 300);
    assert.equal(h.symbol, 'ETH-USDC-dex-arb');
    const pool = (await pools('ETH-USDC-dex-arb')).body.pools[0]!;
    for (const p of h.points) {
      assert.equal(p.venue_id, 'dex-arb');
      assert.ok(p.qty_1e8! > 0 && (p.side === 'buy' || p.side === 'sell'));
      assert.ok(Math.abs(p.price_1e9 / 1e9 / pool.bid - 1) < 0.02, `${p.price_1e9} near ${pool.bid}`);
    }
    const minute = await call<{ points: Point[] }>(svc.base, 'GET', '/v1/price_history/ETH-USDC-dex-arb?range=1h', { token: TEST_OPERATOR_KEY });
    assert.ok(minute.body.points.length >= 1);
    const ticks = await call<{ ticks: Point[] }>(svc.base, 'GET', '/v1/data/ticks?symbol=ETH-USDC-dex-arb&limit=5', { token: TEST_OPERATOR_KEY });
    assert.ok(ticks.body.ticks.length >= 1);
    assert.equal((await call(svc.base, 'GET', '/v1/price_history/DOGE-USDC-dex-arb', { token: TEST_OPERATOR_KEY })).status, 404);
  });
});
