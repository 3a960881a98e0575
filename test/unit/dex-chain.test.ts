/**
 * A simulated chain (actors/dex-chain/chain.ts): deterministic for a seed and the blocks it
 * advanced; every pool back in its fee band around the reference market at the end of each
 * block; a DEX order's swap through the pool that gives the most out, exact, on the tape, with
 * its LP fee and gas; a swap below its minimum out changes nothing.
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

  it('swaps a DEX order through the pool that gives the most out: exact, on the tape, with its LP fee and gas', () => {
    const chain = new SimChain('dex-arb', model, 42, T0);
    chain.drainSwaps();
    const before = chain.entries(T0);
    // Buy ETH with 10,000 USDC (6 decimals).
    const out = chain.swapExactIn({ symbol: 'ETH-USDC-dex-arb', side: 'buy', amount_in: 10_000_000_000n, min_out: 1n }, T0);
    assert.equal(out.ok, true);
    const fill = out as Extract<typeof out, { ok: true }>;
    assert.equal(fill.fee_bps, 5, 'the 5 bps pool gives more than the 30 bps one for $10,000');
    // The LP fee is 5 bps of the input, rounded up per step.
    assert.ok(fill.lp_fee >= 5_000_000n && fill.lp_fee <= 5_000_002n, String(fill.lp_fee));
    assert.ok(fill.amount_out > 0n && Math.abs(fill.qty_1e8 / 1e8 - Number(fill.amount_out) / 1e18) < 1e-8);
    assert.ok(Math.abs((fill.price_1e9 / 1e9) * (fill.qty_1e8 / 1e8) - 10_000) < 0.01, 'price x qty = the USDC paid');
    const gas = chain.gasContext(T0);
    assert.deepEqual([fill.gas_units, fill.base_fee_wei, fill.priority_fee_wei], [gas.estimated_gas_units, gas.base_fee_native, gas.priority_fee_native]);
    // The pool's price went up (ETH was bought out of it), and the swap is on the tape.
    const after = chain.entries(T0).find((e) => e.pool_address === fill.pool_address)!;
    const was = before.find((e) => e.pool_address === fill.pool_address)!;
    const spec = POOLS.find((p) => p.pool_address === fill.pool_address)!;
    assert.ok(priceOf(BigInt(after.sqrt_price_x96), orientationOf(spec)) > priceOf(BigInt(was.sqrt_price_x96), orientationOf(spec)));
    const swaps = chain.drainSwaps();
    assert.equal(swaps.length, 1);
    assert.deepEqual([swaps[0]!.side, swaps[0]!.qty_1e8, swaps[0]!.price_1e9], ['buy', fill.qty_1e8, fill.price_1e9]);
  });

  it('a swap that would give less than its minimum changes nothing; an unknown pair is refused', () => {
    const chain = new SimChain('dex-arb', model, 42, T0);
    const before = chain.entries(T0);
    const refused = chain.swapExactIn({ symbol: 'ETH-USDC-dex-arb', side: 'sell', amount_in: 10n ** 18n, min_out: 10n ** 13n }, T0);
    assert.equal(refused.ok, false);
    assert.equal((refused as { reason: string }).reason, 'min_out');
    assert.ok((refused as { best_out: bigint }).best_out > 0n);
    assert.deepEqual(chain.entries(T0), before);
    assert.deepEqual(chain.drainSwaps(), []);
    assert.equal((chain.swapExactIn({ symbol: 'DOGE-USDC-dex-arb', side: 'buy', amount_in: 1n, min_out: 0n }, T0) as { reason: string }).reason, 'unknown_pair');
  });
});
