/**
 * A simulated chain (actors/dex-chain/chain.ts): deterministic for a seed and the blocks it
 * advanced; every pool back in its fee band around the reference market at the end of each
 * block; a DEX order's leg through its pool, exactly the base asked, with its LP fee and gas, on
 * the tape; a leg past its limit or dry (sandbox) changes nothing; the curves the SOR sweeps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimChain } from '../../actors/dex-chain/chain.ts';
import { orientationOf, POOLS, priceOf } from '../../actors/dex-chain/pools.ts';
import { LatentPriceModel, quoteIndex } from '../../actors/edge/sim/latent-price.ts';

const T0 = Date.UTC(2026, 10, 24, 12);
const model = new LatentPriceModel(42);

function usd(asset: string, t_ms: number): number {
  const u = model.indexOf(asset);
  if (u >= 0) return model.usdAt(u, t_ms * 1e6);
  const q = quoteIndex(asset);
  return q >= 0 ? model.quoteUsdAt(q, t_ms * 1e6) : 1;
}

describe('SimChain', () => {
  it('is deterministic for a seed and the blocks advanced', () => {
    const a = new SimChain('dex-arb', model, 42, T0);
    const b = new SimChain('dex-arb', model, 42, T0);
    for (let k = 1; k <= 30; k++) {
      a.advance(T0 + k * 1_000);
      b.advance(T0 + k * 1_000);
    }
    assert.deepEqual(a.entries(T0 + 30_000), b.entries(T0 + 30_000));
    assert.deepEqual(a.drainSwaps(), b.drainSwaps());
    assert.notDeepEqual(new SimChain('dex-arb', model, 43, T0).entries(T0).map((e) => e.sqrt_price_x96), a.entries(T0 + 30_000).map((e) => e.sqrt_price_x96));
  });

  it('ends every block with each pool inside its fee band around the reference market', () => {
    const chain = new SimChain('dex-eth', model, 7, T0);
    for (let k = 1; k <= 40; k++) {
      const t = T0 + k * 4_000;
      chain.advance(t);
      for (const e of chain.entries(t)) {
        const spec = POOLS.find((p) => p.pool_address === e.pool_address)!;
        const ref = usd(spec.base, t) / usd(spec.quote, t);
        const price = priceOf(BigInt(e.sqrt_price_x96), orientationOf(spec));
        // The band's edge, to the float precision of a sqrt price's square.
        assert.ok(Math.abs(price / ref - 1) <= spec.fee_bps / 1e4 + 1e-7, `${e.symbol} ${spec.fee_bps}: ${price} vs ${ref}`);
      }
    }
  });

  it("executes a DEX order's leg: exactly the base asked (a buy is exact output), exact price and LP fee, gas, on the tape", () => {
    const chain = new SimChain('dex-arb', model, 42, T0);
    chain.drainSwaps();
    const spec = POOLS.find((p) => p.symbol === 'ETH-USDC-dex-arb' && p.fee_bps === 5)!;
    const before = chain.entries(T0).find((e) => e.pool_address === spec.pool_address)!;
    // Buy 2.5 ETH through the 5 bps pool, at most $100,000 each.
    const out = chain.swapOrder({ symbol: spec.symbol, pool_address: spec.pool_address, side: 'buy', qty_1e8: 250_000_000, limit_price_1e9: 100_000e9, dry: false }, T0);
    assert.equal(out.ok, true);
    const fill = out as Extract<typeof out, { ok: true }>;
    assert.equal(fill.qty_1e8, 250_000_000, 'exactly the base asked');
    // price = ceil(quote paid x 1e9 / qty): the booked notional covers what was paid, by less than a unit.
    assert.equal(BigInt(fill.price_1e9), (BigInt(fill.quote_1e8) * 1_000_000_000n + BigInt(fill.qty_1e8) - 1n) / BigInt(fill.qty_1e8));
    assert.ok(Math.abs(fill.price_1e9 / 1e9 - before.ask) / before.ask < 0.01, `${fill.price_1e9} near the pool's ask ${before.ask}`);
    // The LP fee is 5 bps of the USDC paid (rounded up per step), in USD 1e9.
    const paidUsd1e9 = fill.quote_1e8 * 10;
    assert.ok(Math.abs(fill.lp_fee_1e9 - paidUsd1e9 * 0.0005) <= 2_000, `${fill.lp_fee_1e9} vs ${paidUsd1e9 * 0.0005}`);
    const gas = chain.gasContext(T0);
    assert.deepEqual([fill.gas_units, fill.base_fee_wei, fill.priority_fee_wei, fill.native_price_1e9], [gas.estimated_gas_units, gas.base_fee_native, gas.priority_fee_native, gas.native_price_1e9]);
    const after = chain.entries(T0).find((e) => e.pool_address === spec.pool_address)!;
    assert.ok(priceOf(BigInt(after.sqrt_price_x96), orientationOf(spec)) > priceOf(BigInt(before.sqrt_price_x96), orientationOf(spec)), 'ETH bought out of the pool: its price rose');
    const swaps = chain.drainSwaps();
    assert.equal(swaps.length, 1);
    assert.deepEqual([swaps[0]!.side, swaps[0]!.qty_1e8], ['buy', fill.qty_1e8]);
    // A sell is exact input: the base in is the quantity asked, the price rounded down.
    const sell = chain.swapOrder({ symbol: spec.symbol, pool_address: spec.pool_address, side: 'sell', qty_1e8: 100_000_000, limit_price_1e9: 1, dry: false }, T0) as Extract<typeof out, { ok: true }>;
    assert.equal(sell.qty_1e8, 100_000_000);
    assert.equal(BigInt(sell.price_1e9), (BigInt(sell.quote_1e8) * 1_000_000_000n) / BigInt(sell.qty_1e8));
    assert.ok(sell.price_1e9 < fill.price_1e9);
  });

  it('a leg past its limit, a dry (sandbox) leg and an unknown pool change nothing', () => {
    const chain = new SimChain('dex-arb', model, 42, T0);
    const spec = POOLS.find((p) => p.symbol === 'ETH-USDC-dex-arb' && p.fee_bps === 5)!;
    const before = chain.entries(T0);
    const refused = chain.swapOrder({ symbol: spec.symbol, pool_address: spec.pool_address, side: 'sell', qty_1e8: 1e8, limit_price_1e9: 1_000_000e9, dry: false }, T0);
    assert.deepEqual([refused.ok, (refused as { reason: string }).reason], [false, 'limit']);
    assert.ok((refused as { price_1e9: number }).price_1e9 > 0, 'the price it would have got');
    const dry = chain.swapOrder({ symbol: spec.symbol, pool_address: spec.pool_address, side: 'buy', qty_1e8: 5e8, limit_price_1e9: 100_000e9, dry: true }, T0);
    assert.equal(dry.ok, true);
    assert.deepEqual(chain.entries(T0), before);
    assert.deepEqual(chain.drainSwaps(), []);
    assert.equal((chain.swapOrder({ symbol: 'ETH-USDC-dex-arb', pool_address: '0x0000000000000000000000000000000000000001', side: 'buy', qty_1e8: 1, limit_price_1e9: 1, dry: false }, T0) as { reason: string }).reason, 'unknown_pool');
  });

  it("cuts each pool's curve into levels whose cumulative cost is one swap of their total, prices worsening along the side", () => {
    const chain = new SimChain('dex-eth', model, 42, T0);
    for (const side of ['buy', 'sell'] as const) {
      const curves = chain.curves('ETH-USDC-dex-eth', side, T0);
      assert.equal(curves.length, 2, 'the 5 and 30 bps pools');
      for (const c of curves) {
        assert.ok(c.px.length >= 20, `${c.px.length} levels`);
        for (let i = 1; i < c.px.length; i++) assert.ok(side === 'buy' ? c.px[i]! >= c.px[i - 1]! : c.px[i]! <= c.px[i - 1]!);
        // Levels 0..9 together: within a unit per level of one swap of their total.
        const qty = c.qty.slice(0, 10).reduce((a, b) => a + b, 0);
        const cost = c.px.slice(0, 10).reduce((a, px, i) => a + px * c.qty[i]!, 0) / 1e9;
        const one = chain.swapOrder({ symbol: 'ETH-USDC-dex-eth', pool_address: c.pool_address, side, qty_1e8: qty, limit_price_1e9: side === 'buy' ? 1e15 : 1, dry: true }, T0) as { quote_1e8: number };
        assert.ok(Math.abs(cost - one.quote_1e8) <= 10 + one.quote_1e8 * 1e-9, `${side} ${c.fee_bps}: ${cost} vs ${one.quote_1e8}`);
      }
    }
  });
});
