/**
 * The shared latent price and its randomness: seeded streams and counter-based hashes are
 * deterministic and have the right moments; `priceAt` is a pure function of (seed, time) however
 * it is queried; the path has the catalog's volatility and jumps and stays near its reference;
 * USDT/USDC quotes differ from USD by a few bps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UNDERLYINGS } from '../../actors/edge/sim/catalog.ts';
import { LatentPriceModel, quoteIndex } from '../../actors/edge/sim/latent-price.ts';
import { Rng, hash32, hashNormal, hashUniform, seedFrom } from '../../actors/edge/sim/rng.ts';

const T0 = 1_750_000_000_000_000_000;
const SEC = 1e9;
const HOUR = 3600 * SEC;

function moments(xs: number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
  return { mean, sd: Math.sqrt(v) };
}

describe('sim rng', () => {
  it('replays a stream from its seed and separates streams by salt', () => {
    const a = new Rng(seedFrom(42, 'venue-edge-binance', 'BTC-USDT'));
    const b = new Rng(seedFrom(42, 'venue-edge-binance', 'BTC-USDT'));
    const c = new Rng(seedFrom(42, 'venue-edge-binance', 'ETH-USDT'));
    const xa = Array.from({ length: 100 }, () => a.nextU32());
    assert.deepEqual(xa, Array.from({ length: 100 }, () => b.nextU32()));
    assert.notDeepEqual(xa, Array.from({ length: 100 }, () => c.nextU32()));
    assert.notEqual(seedFrom(1, 'a', 'b'), seedFrom(1, 'b', 'a'));
    assert.notEqual(seedFrom(1), seedFrom(2));
    assert.equal(seedFrom('SIM', 7), seedFrom('SIM', 7));
    assert.equal(hash32(1, 2, 3, 4), hash32(1, 2, 3, 4));
    assert.notEqual(hash32(1, 2, 3, 4), hash32(1, 2, 3, 5));
  });

  it('draws uniform, normal, exponential and poisson with the right moments', () => {
    const r = new Rng(7);
    const n = 100_000;
    const u = Array.from({ length: n }, () => r.uniform());
    assert.ok(u.every((x) => x >= 0 && x < 1));
    const mu = moments(u);
    assert.ok(Math.abs(mu.mean - 0.5) < 0.01 && Math.abs(mu.sd - Math.sqrt(1 / 12)) < 0.01);
    const z = moments(Array.from({ length: n }, () => r.normal()));
    assert.ok(Math.abs(z.mean) < 0.02 && Math.abs(z.sd - 1) < 0.02, JSON.stringify(z));
    const e = moments(Array.from({ length: n }, () => r.exponential(4)));
    assert.ok(Math.abs(e.mean - 0.25) < 0.01 && Math.abs(e.sd - 0.25) < 0.01);
    for (const mean of [0.5, 6, 80]) {
      const p = moments(Array.from({ length: 20_000 }, () => r.poisson(mean)));
      assert.ok(Math.abs(p.mean - mean) < 0.05 * mean + 0.05, `poisson ${mean}: ${p.mean}`);
      assert.ok(Math.abs(p.sd - Math.sqrt(mean)) < 0.1 * Math.sqrt(mean) + 0.05, `poisson ${mean} sd: ${p.sd}`);
    }
    const ints = Array.from({ length: 10_000 }, () => r.int(6));
    assert.ok(ints.every((x) => Number.isInteger(x) && x >= 0 && x < 6));
  });

  it('hashes coordinates to uniform and normal values', () => {
    const u = Array.from({ length: 50_000 }, (_, i) => hashUniform(9, i));
    const mu = moments(u);
    assert.ok(u.every((x) => x > 0 && x < 1));
    assert.ok(Math.abs(mu.mean - 0.5) < 0.01);
    const z = moments(Array.from({ length: 50_000 }, (_, i) => hashNormal(9, 1, i)));
    assert.ok(Math.abs(z.mean) < 0.02 && Math.abs(z.sd - 1) < 0.02, JSON.stringify(z));
  });
});

describe('sim latent price', () => {
  it('is a pure function of (seed, time): any query order, any instance', () => {
    const times = Array.from({ length: 2_000 }, (_, i) => T0 + i * 37_000_000 + (i % 7) * 1_000_003);
    const forward = new LatentPriceModel(11);
    const a = times.map((t) => forward.priceAt('BTC', t));
    const backward = new LatentPriceModel(11);
    const b = [...times].reverse().map((t) => backward.priceAt('BTC', t)).reverse();
    assert.deepEqual(b, a);
    // Interleaved with other underlyings and far-away times, which disturb every cache.
    const mixed = new LatentPriceModel(11);
    const c = times.map((t, i) => {
      mixed.priceAt('ETH', t - 5 * HOUR * (i % 3));
      mixed.priceAt('BTC', t + 48 * HOUR);
      return mixed.priceAt('BTC', t);
    });
    assert.deepEqual(c, a);
    assert.ok(a.every((p) => Number.isSafeInteger(p) && p > 0));
    const other = new LatentPriceModel(12);
    assert.notDeepEqual(times.map((t) => other.priceAt('BTC', t)), a);
    assert.equal(forward.priceAt('NOPE', T0), 0);
  });

  it('moves like a random walk with the catalog volatility at 1 s and 1 min', () => {
    const m = new LatentPriceModel(3);
    const u = m.indexOf('BTC');
    const spec = UNDERLYINGS[u]!;
    for (const [step, n] of [[1 * SEC, 40_000], [60 * SEC, 4_000]] as const) {
      const r: number[] = [];
      let prev = Math.log(m.usdAt(u, T0));
      for (let i = 1; i <= n; i++) {
        const x = Math.log(m.usdAt(u, T0 + i * step));
        r.push(x - prev);
        prev = x;
      }
      const sd = moments(r).sd;
      const diffusion = spec.vol_annual * Math.sqrt(step / (365.25 * 86400 * SEC));
      // Jumps add variance on top of the diffusion (about 15% for BTC).
      assert.ok(sd > diffusion * 0.85 && sd < diffusion * 1.35, `step ${step / SEC}s: sd ${sd} vs ${diffusion}`);
    }
  });

  it('jumps at about the catalog rate', () => {
    const m = new LatentPriceModel(5);
    const u = m.indexOf('BTC');
    const spec = UNDERLYINGS[u]!;
    const hours = 40;
    const step = 2 ** 26; // one leaf: the diffusion moves ~0.23 bps, a jump of > 5 bps stands out
    let big = 0;
    let prev = m.usdAt(u, T0);
    for (let t = T0 + step; t < T0 + hours * HOUR; t += step) {
      const x = m.usdAt(u, t);
      if (Math.abs(x / prev - 1) > 5e-4) big++;
      prev = x;
    }
    // P(|N(0, 15 bps)| > 5 bps) = 0.74.
    const expected = spec.jump_per_h * hours * 0.74;
    assert.ok(big > expected * 0.6 && big < expected * 1.4, `${big} jumps > 5 bps, expected ~${expected}`);
  });

  it('stays near its reference over a month', () => {
    const m = new LatentPriceModel(8);
    for (const spec of UNDERLYINGS) {
      for (let d = 0; d < 30; d++) {
        const p = m.priceAt(spec.asset, T0 + d * 24 * HOUR) / 1e9;
        assert.ok(p > spec.ref_usd * 0.6 && p < spec.ref_usd * 1.6, `${spec.asset} day ${d}: ${p}`);
      }
    }
  });

  it('quotes USDT and USDC within a few bps of USD, and the same pair across them accordingly', () => {
    const m = new LatentPriceModel(9);
    const diffs: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t = T0 + i * 97 * SEC;
      const usd = m.symbolPriceAt('BTC-USD', t);
      const usdt = m.symbolPriceAt('BTC-USDT', t);
      const usdc = m.symbolPriceAt('BTC-USDC', t);
      assert.equal(usd, m.priceAt('BTC', t));
      diffs.push(((usd - usdt) / usd) * 1e4);
      assert.ok(Math.abs((usd - usdc) / usd) * 1e4 < 3);
      for (const q of ['USDT', 'USDC']) assert.ok(Math.abs(m.quoteUsdAt(quoteIndex(q), t) - 1) < 8e-4);
    }
    const d = moments(diffs);
    assert.ok(d.mean > 0.3 && d.mean < 4, `BTC-USD over BTC-USDT ${d.mean} bps on average`);
    assert.ok(diffs.every((x) => Math.abs(x) < 8));
    assert.ok(d.sd > 0.1, 'the basis moves');
    assert.equal(m.quoteUsdAt(quoteIndex('USD'), T0), 1);
    assert.equal(m.symbolPriceAt('BTC-EUR', T0), 0);
  });

  it('has a perp premium of a few bps that moves slowly', () => {
    const m = new LatentPriceModel(4);
    const u = m.indexOf('ETH');
    const xs = Array.from({ length: 2_000 }, (_, i) => m.perpPremiumAt(u, T0 + i * 60 * SEC) * 1e4);
    const s = moments(xs);
    assert.ok(Math.abs(s.mean) < 10 && s.sd > 0.5 && s.sd < 15, JSON.stringify(s));
    const oneSecond = Math.abs(m.perpPremiumAt(u, T0 + SEC) - m.perpPremiumAt(u, T0)) * 1e4;
    assert.ok(oneSecond < 0.05, 'smooth over a second');
  });
});
