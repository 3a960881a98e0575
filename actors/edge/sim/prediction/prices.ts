import type { PredictionVenue } from '../../../../domain/prediction/catalog.ts';
import type { PriceHistoryWindow } from '../../../../domain/prediction/history.ts';
import type { Level } from '../../../../domain/market.ts';
import { smoothNoise, type LatentPriceModel } from '../latent-price.ts';
import { hash32, hashNormal, hashUniform } from '../rng.ts';
import type { PredictionWorld, WorldEntry } from './world.ts';

/**
 * What the simulated prediction venues quote: each market's YES probability over time and its
 * YES and NO books. Pure functions of (seed, market, t), so any instant can be read in any order.
 *
 * - Long-dated events wander in log-odds space (value noise at ~1 h and ~10 h periods), and are
 *   pulled towards their outcome over the last third of their life (at most three days), as
 *   information arrives; candidates of one event are a softmax of their log-odds.
 * - Up/down markets are priced off the underlying's latent path (`LatentPriceModel`, the same the
 *   spot venues quote around): P(final >= anchor) under its volatility for the time left.
 * - Each venue prices the world probability with its own small offset, so equivalent markets
 *   differ across venues; the ticker-style venue's inverted questions quote the complement.
 * - Books: ticker-style tick 0.01; token-style 0.01, 0.001 within 0.05 of 0 or 1. The token-style
 *   NO book is derived from the YES book (no_bid = 1 - yes_ask, no_ask = 1 - yes_bid, sizes
 *   carried over); the ticker-style NO book is quoted on its own. Books refresh every second and
 *   are empty outside trading hours.
 */
export const PRICE_ONE = 1_000_000_000;
const BOOK_LEVELS = 6;
const BOOK_BUCKET_MS = 1_000;
const NS_PER_MS = 1_000_000;
const MS_PER_YEAR = 365.25 * 86_400_000;
const CONVERGE_MAX_MS = 3 * 86_400_000;

export interface LegBook {
  /** Best first; price_1e9 a probability in (0, 1), qty_1e8 contracts x 1e8. */
  bids: Level[];
  asks: Level[];
}

export interface MarketBook {
  yes: LegBook;
  no: LegBook;
  /** The YES probability the books are built around, price_1e9. */
  mid_1e9: number;
  tick_1e9: number;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 on erf; error < 1.5e-7, ample for quoting). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

export class PredictionPrices {
  private readonly seed: number;
  private readonly multiCache = new Map<string, { bucket: number; probs: Float64Array }>();

  constructor(
    world: PredictionWorld,
    private readonly latent: LatentPriceModel,
  ) {
    this.seed = world.seed;
  }

  /** Anchor (at the open) and price at `t_ms` of an up/down market's underlying, USD floats. */
  underlyingAt(entry: WorldEntry, t_ms: number): { anchor: number; price: number } {
    const u = this.latent.indexOf(entry.event.underlying ?? '');
    const t = entry.timeline.polymarket;
    return { anchor: this.latent.usdAt(u, t.open_ms * NS_PER_MS), price: this.latent.usdAt(u, Math.min(t_ms, t.close_ms) * NS_PER_MS) };
  }

  /** Did the up/down market close up (final >= anchor)? Meaningful once it has closed. */
  closedUp(entry: WorldEntry): boolean {
    const { anchor, price } = this.underlyingAt(entry, entry.timeline.polymarket.close_ms);
    return price >= anchor;
  }

  /** The world's probability that candidate `c` (YES for a binary event) wins, at `t_ms`. */
  worldProbability(entry: WorldEntry, c: number, t_ms: number): number {
    const ev = entry.event;
    const close = entry.timeline.polymarket.close_ms;
    if (ev.underlying !== null) {
      if (t_ms >= close) return this.closedUp(entry) ? 1 : 0;
      if (t_ms < entry.timeline.polymarket.open_ms) return 0.5;
      const { anchor, price } = this.underlyingAt(entry, t_ms);
      const vol = this.latent.volOf(ev.underlying);
      const sd = vol * Math.sqrt((close - t_ms) / MS_PER_YEAR);
      return normalCdf(Math.log(price / anchor) / sd);
    }
    if (!ev.multi) return sigmoid(this.logOdds(entry, 0, t_ms, ev.winner === 0));
    const bucket = Math.floor(t_ms / BOOK_BUCKET_MS);
    let cached = this.multiCache.get(ev.key);
    if (cached === undefined || cached.bucket !== bucket) {
      const probs = new Float64Array(ev.candidates.length);
      let sum = 0;
      ev.candidates.forEach((cand, i) => {
        probs[i] = cand.placeholder ? Math.exp(cand.x0) : Math.exp(this.logOdds(entry, i, bucket * BOOK_BUCKET_MS, i === ev.winner));
        sum += probs[i]!;
      });
      for (let i = 0; i < probs.length; i++) probs[i]! /= sum;
      cached = { bucket, probs };
      this.multiCache.set(ev.key, cached);
      if (this.multiCache.size > 4096) this.multiCache.clear();
    }
    return cached.probs[c]!;
  }

  /** YES probability of a venue's market (its candidate index `c`) at `t_ms`, with the venue's offset. */
  probability(entry: WorldEntry, venue: PredictionVenue, c: number, t_ms: number): number {
    const p = this.worldProbability(entry, c, t_ms);
    if (p <= 0 || p >= 1) return venue === 'kalshi' && entry.kalshiComplement ? 1 - p : p;
    const key = hash32(this.seed, entry.index >>> 0, c, entry.fast ? 2 : 1);
    const offset = 0.1 * hashNormal(key, venue === 'kalshi' ? 1 : 2) + 0.05 * smoothNoise(key, venue === 'kalshi' ? 3 : 4, t_ms * NS_PER_MS, 40);
    const q = sigmoid(Math.log(p / (1 - p)) + offset);
    return venue === 'kalshi' && entry.kalshiComplement ? 1 - q : q;
  }

  /** The venue's YES and NO books of a market at `t_ms`; empty outside its trading hours. */
  book(entry: WorldEntry, venue: PredictionVenue, c: number, t_ms: number): MarketBook {
    const t = entry.timeline[venue];
    const bucket = Math.floor(t_ms / BOOK_BUCKET_MS);
    const p = this.probability(entry, venue, c, bucket * BOOK_BUCKET_MS);
    const mid_1e9 = Math.round(p * PRICE_ONE);
    const tick_1e9 = venue === 'polymarket' && (p < 0.05 || p > 0.95) ? 1_000_000 : 10_000_000;
    if (t_ms < t.open_ms || t_ms >= t.close_ms || entry.event.candidates[c]?.placeholder === true) {
      return { yes: { bids: [], asks: [] }, no: { bids: [], asks: [] }, mid_1e9, tick_1e9 };
    }
    const key = hash32(this.seed, entry.index >>> 0, c * 2 + (venue === 'kalshi' ? 1 : 0), entry.fast ? 2 : 1);
    const yes = this.ladder(key, bucket, mid_1e9, tick_1e9, 0);
    const no: LegBook =
      venue === 'polymarket'
        ? {
            bids: yes.asks.map((l) => ({ price_1e9: PRICE_ONE - l.price_1e9, qty_1e8: l.qty_1e8 })),
            asks: yes.bids.map((l) => ({ price_1e9: PRICE_ONE - l.price_1e9, qty_1e8: l.qty_1e8 })),
          }
        : this.ladder(key, bucket, PRICE_ONE - mid_1e9, tick_1e9, 1);
    return { yes, no, mid_1e9, tick_1e9 };
  }

  /**
   * The venue's price history of a leg in [from_ms, to_ms): its probability on the grid of
   * `step_ms` while it trades, to the venue's 0.001, then the settled price (1 or 0) at the
   * instant the outcome was determined, when that falls in the window. NO is the complement.
   */
  history(entry: WorldEntry, venue: PredictionVenue, c: number, yes: boolean, from_ms: number, to_ms: number, step_ms: number, yesWon: boolean | null): PriceHistoryWindow {
    const t = entry.timeline[venue];
    const first_ms = Math.ceil(Math.max(from_ms, t.open_ms) / step_ms) * step_ms;
    const end = Math.min(to_ms, t.close_ms);
    const prices_1e9: number[] = [];
    for (let ts = first_ms; ts < end; ts += step_ms) {
      const p = Math.round(this.probability(entry, venue, c, ts) * 1000) * 1_000_000;
      prices_1e9.push(yes ? p : PRICE_ONE - p);
    }
    const settled = yesWon !== null && t.determined_ms >= from_ms && t.determined_ms < to_ms ? { ts_ms: t.determined_ms, price_1e9: yesWon === yes ? PRICE_ONE : 0 } : null;
    return { first_ms, step_ms, prices_1e9, settled };
  }

  /**
   * Traded volume of a market (USD, cents) at `t_ms`: a per-market daily rate (log-normal,
   * scaled by how likely the candidate is in a multi-outcome event) over its trading time so far,
   * and over the last 24 hours of it. Placeholders never trade.
   */
  volumes(entry: WorldEntry, venue: PredictionVenue, c: number, t_ms: number): { volume_24h: number; volume_total: number } {
    const t = entry.timeline[venue];
    const cand = entry.event.candidates[c];
    if (cand === undefined || cand.placeholder || t_ms <= t.open_ms) return { volume_24h: 0, volume_total: 0 };
    const key = hash32(this.seed, entry.index >>> 0, c * 2 + (venue === 'kalshi' ? 1 : 0), entry.fast ? 0x91 : 0x92);
    // Up/down markets trade their whole volume in minutes; long-dated ones a daily rate.
    const perDay = entry.fast ? 2_000_000 * Math.exp(0.8 * hashNormal(key, 1)) : 40_000 * Math.exp(1.2 * hashNormal(key, 2)) * (entry.event.multi ? 2 / entry.event.candidates.length : 1);
    const end = Math.min(t_ms, t.close_ms);
    const cents = (ms: number) => Math.round((perDay * Math.max(0, ms)) / 864_000) / 100;
    return { volume_24h: cents(end - Math.max(t.open_ms, t_ms - 86_400_000)), volume_total: cents(end - t.open_ms) };
  }

  /** Levels around `mid`: a spread of 1-3 ticks each side of it, sizes varying by second. */
  private ladder(key: number, bucket: number, mid: number, tick: number, leg: number): LegBook {
    const half = tick * (1 + (hash32(key, leg, 0x5) % 3));
    const depth = 50 + (hash32(key, 0x6) % 40) * 50; // contracts at the touch, per market
    let bid = Math.floor((mid - half) / tick) * tick;
    let ask = Math.ceil((mid + half) / tick) * tick;
    if (ask - bid < tick) ask = bid + tick;
    const bids: Level[] = [];
    const asks: Level[] = [];
    for (let i = 0; i < BOOK_LEVELS; i++, bid -= tick, ask += tick) {
      if (bid >= tick) bids.push({ price_1e9: bid, qty_1e8: this.size(key, bucket, leg, i, depth) });
      if (ask <= PRICE_ONE - tick) asks.push({ price_1e9: ask, qty_1e8: this.size(key, bucket, leg, i + BOOK_LEVELS, depth) });
    }
    return { bids, asks };
  }

  private size(key: number, bucket: number, leg: number, level: number, depth: number): number {
    const contracts = Math.max(1, Math.round(depth * (0.5 + hashUniform(key, bucket >>> 0, leg * 64 + level)) * (1 + 0.3 * (level % BOOK_LEVELS))));
    return contracts * 100_000_000;
  }

  /** Log-odds of candidate `c` at `t_ms`: its start, a wander, and the pull towards the outcome. */
  private logOdds(entry: WorldEntry, c: number, t_ms: number, wins: boolean): number {
    const cand = entry.event.candidates[c]!;
    const key = hash32(this.seed, entry.index >>> 0, c, 0x77);
    const t_ns = t_ms * NS_PER_MS;
    const wander = 0.6 * smoothNoise(key, 1, t_ns, 42) + 0.5 * smoothNoise(key, 2, t_ns, 45);
    const x = cand.x0 + wander;
    const { listed_ms, close_ms } = entry.timeline.polymarket;
    const span = Math.min(CONVERGE_MAX_MS, (close_ms - listed_ms) / 3);
    const w = Math.min(1, Math.max(0, 1 - (close_ms - t_ms) / span)) ** 2;
    return (1 - w) * x + w * (wins ? 5 : -5);
  }
}
