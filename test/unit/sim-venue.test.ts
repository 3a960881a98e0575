/**
 * SimVenue, the market model of one simulated edge: deterministic whatever the advance steps;
 * exact L2 deltas (a book rebuilt from snapshot + deltas equals the venue's snapshot); books
 * never self-crossed, tick and lot respected, trades at book prices; venues agree with each
 * other and the latent price up to noise, with occasional consolidated crossings; subscriptions
 * and the cold path; faults (feed drop, frozen book); funding; the same stream on OrderBook and
 * on the naive ReferenceBook.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Side } from '../../domain/market.ts';
import { simEdge, type FaultRates, type SimEdgeSpec } from '../../actors/edge/sim/catalog.ts';
import { edgesListing } from '../../domain/venues.ts';
import { LatentPriceModel } from '../../actors/edge/sim/latent-price.ts';
import { ReferenceBook } from '../../actors/edge/sim/reference-book.ts';
import { Rng } from '../../actors/edge/sim/rng.ts';
import { SimVenue, type SimVenueOptions, type VenueSink } from '../../actors/edge/sim/sim-venue.ts';

const T0 = 1_750_000_000_000_000_000;
const MS = 1e6;
const SEC = 1e9;
const HOUR = 3600 * SEC;

const NO_FAULTS: FaultRates = {
  disconnect_per_h: 0,
  disconnect_ms: [1_000, 1_000],
  stale_per_h: 0,
  stale_ms: [1_000, 1_000],
  lag_per_h: 0,
  lag_ms: [1_000, 1_000],
  lag_extra_ms: [0, 0],
};

/** An edge of the catalog cut down to some symbols, with other fault rates if given. */
function edgeOf(id: string, symbols?: readonly string[], faults?: Partial<FaultRates>): SimEdgeSpec {
  const e = simEdge(id)!;
  return {
    ...e,
    listings: symbols === undefined ? e.listings : e.listings.filter((l) => symbols.includes(l.symbol)),
    faults: { ...e.faults, ...faults },
  };
}

/** Records every sink call as one line. */
class Trace implements VenueSink {
  readonly lines: string[] = [];
  onLevel(symbol: string, side: Side, price: number, qty: number, ts: number): void {
    this.lines.push(`L ${symbol} ${side} ${price} ${qty} ${ts}`);
  }
  onTrade(t: { symbol: string; price_1e9: number; qty_1e8: number; taker_side: Side; ts_ns: number; trade_id: string }): void {
    this.lines.push(`T ${t.symbol} ${t.taker_side} ${t.price_1e9} ${t.qty_1e8} ${t.ts_ns} ${t.trade_id}`);
  }
  onStatus(connected: boolean, ts: number, reason?: string): void {
    this.lines.push(`S ${connected} ${ts} ${reason}`);
  }
}

function venue(edge: SimEdgeSpec, seed: number, sink: VenueSink, options: SimVenueOptions = {}): SimVenue {
  return new SimVenue(edge, new LatentPriceModel(seed), seed, sink, { start_ns: T0, ...options });
}

/** A local L2 book kept from a snapshot plus deltas, as the edge actor's consumer would. */
class LocalBook {
  readonly bids = new Map<number, number>();
  readonly asks = new Map<number, number>();
  reset(snap: { bids: { price_1e9: number; qty_1e8: number }[]; asks: { price_1e9: number; qty_1e8: number }[] }): void {
    this.bids.clear();
    this.asks.clear();
    for (const l of snap.bids) this.bids.set(l.price_1e9, l.qty_1e8);
    for (const l of snap.asks) this.asks.set(l.price_1e9, l.qty_1e8);
  }
  apply(side: Side, price: number, qty: number): void {
    const m = side === Side.BID ? this.bids : this.asks;
    if (qty === 0) m.delete(price);
    else m.set(price, qty);
  }
  sorted(side: Side): { price_1e9: number; qty_1e8: number }[] {
    const m = side === Side.BID ? this.bids : this.asks;
    const out = [...m].map(([price_1e9, qty_1e8]) => ({ price_1e9, qty_1e8 }));
    return out.sort((a, b) => (side === Side.BID ? b.price_1e9 - a.price_1e9 : a.price_1e9 - b.price_1e9));
  }
}

const FAULTY: Partial<FaultRates> = { disconnect_per_h: 40, stale_per_h: 40, lag_per_h: 40 };
const DET_SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'SOL-USDT', 'XRP-USDT', 'ATOM-USDT', 'LINK-USDC'];

describe('sim venue', () => {
  it('emits the same events and books whatever the advance steps; another seed differs', () => {
    const edge = edgeOf('venue-edge-binance', DET_SYMBOLS, FAULTY);
    const end = T0 + 180 * SEC;
    const run = (seed: number, steps: (t: number) => number) => {
      const trace = new Trace();
      const v = venue(edge, seed, trace);
      for (let t = T0; t < end; ) {
        t = Math.min(end, t + steps(t));
        v.advance(t);
      }
      const books = DET_SYMBOLS.map((s) => JSON.stringify(v.snapshot(s, 1_000, end)));
      return { trace: trace.lines, books, stats: v.stats() };
    };
    const fixed = run(21, () => 5 * MS);
    const jitter = new Rng(1);
    const random = run(21, () => Math.floor(jitter.range(0.05, 400) * MS));
    const coarse = run(21, () => 60 * SEC);
    assert.ok(fixed.trace.length > 10_000, `${fixed.trace.length} events`);
    for (const kind of ['L ', 'T ', 'S false', 'S true']) assert.ok(fixed.trace.some((l) => l.startsWith(kind)), kind);
    for (const other of [random, coarse]) {
      assert.equal(other.trace.length, fixed.trace.length);
      assert.deepEqual(other.trace, fixed.trace);
      assert.deepEqual(other.books, fixed.books);
      assert.deepEqual(other.stats, fixed.stats);
    }
    const reseeded = run(22, () => 5 * MS);
    assert.notDeepEqual(reseeded.trace.slice(0, 2_000), fixed.trace.slice(0, 2_000));
    assert.notDeepEqual(reseeded.books, fixed.books);
  });

  it('drives OrderBook and the naive ReferenceBook to the same event stream', () => {
    const edge = edgeOf('venue-edge-bybit', ['BTC-USDT', 'ETH-USDC', 'DOGE-USDT'], FAULTY);
    const fast = new Trace();
    const naive = new Trace();
    const a = venue(edge, 5, fast);
    const b = venue(edge, 5, naive, { matcher: (rules, listener) => new ReferenceBook(rules, listener) });
    for (let t = T0; t <= T0 + 60 * SEC; t += 10 * MS) {
      a.advance(t);
      b.advance(t);
    }
    assert.ok(fast.lines.length > 5_000);
    assert.deepEqual(naive.lines, fast.lines);
  });

  it('emits exact L2 deltas: snapshot + deltas = snapshot, never crossed, on tick and lot, trades at book prices', () => {
    const symbols = ['BTC-USDT', 'ETH-USDT', 'DOGE-USDT', 'SOL-USDC'];
    const edge = edgeOf('venue-edge-binance', symbols, { disconnect_per_h: 30, stale_per_h: 20, lag_per_h: 20 });
    const rules = new Map(edge.listings.map((l) => [l.symbol, l.rules]));
    const books = new Map(symbols.map((s) => [s, new LocalBook()]));
    let resnapshot = true;
    let connected = false;
    let lastTs = 0;
    let trades = 0;
    let checked = 0;
    let deltas = 0;
    const sink: VenueSink = {
      onLevel(symbol, side, price, qty, ts) {
        assert.ok(connected, 'no delta while the feed is down');
        const r = rules.get(symbol)!;
        assert.equal(price % r.tick_1e9, 0, 'level on the tick grid');
        assert.equal(qty % r.lot_1e8, 0, 'level a lot multiple');
        assert.ok(qty >= 0 && price > 0);
        assert.ok(ts >= lastTs, 'time order');
        lastTs = ts;
        deltas++;
        books.get(symbol)!.apply(side, price, qty);
      },
      onTrade(t) {
        assert.ok(connected, 'no trade while the feed is down');
        const r = rules.get(t.symbol)!;
        assert.equal(t.price_1e9 % r.tick_1e9, 0);
        assert.ok(t.qty_1e8 > 0 && t.qty_1e8 % r.lot_1e8 === 0);
        assert.ok(t.ts_ns >= lastTs);
        lastTs = t.ts_ns;
        // The fill is reported before its maker level shrinks: the level is still in the book
        // (unless the local book awaits its snapshot after a reconnect).
        if (!resnapshot) {
          const book = books.get(t.symbol)!;
          const resting = (t.taker_side === Side.BID ? book.asks : book.bids).get(t.price_1e9);
          assert.ok(resting !== undefined && resting >= t.qty_1e8, `trade at a book price with enough size`);
          checked++;
        }
        trades++;
      },
      onStatus(c, ts) {
        assert.notEqual(c, connected, 'statuses alternate');
        connected = c;
        if (c) resnapshot = true;
        lastTs = Math.max(lastTs, ts);
      },
    };
    const v = new SimVenue(edge, new LatentPriceModel(8), 8, sink, { start_ns: T0 });
    let compared = 0;
    for (let t = T0; t <= T0 + 15 * 60 * SEC; t += 20 * MS) {
      v.advance(t);
      if (resnapshot) {
        // What the edge actor does on (re)connect: one snapshot per subscribed symbol.
        for (const s of symbols) books.get(s)!.reset(v.snapshot(s, 1_000, t)!);
        resnapshot = false;
      }
      for (const s of symbols) {
        const bb = v.bestBid(s);
        const ba = v.bestAsk(s);
        assert.ok(bb === undefined || ba === undefined || bb < ba, `${s} self-crossed`);
      }
      if (connected && (t - T0) % (5 * SEC) === 0) {
        for (const s of symbols) {
          const snap = v.snapshot(s, 1_000, t)!;
          const local = books.get(s)!;
          assert.deepEqual(local.sorted(Side.BID), snap.bids, `${s} bids at ${t - T0}`);
          assert.deepEqual(local.sorted(Side.ASK), snap.asks, `${s} asks at ${t - T0}`);
          assert.ok(snap.bids.length >= 3 && snap.asks.length >= 3, `${s} has depth`);
        }
        compared++;
      }
    }
    const st = v.stats();
    assert.ok(compared > 100 && checked > 1_000 && deltas > 20_000, `${compared} ${checked} ${deltas}`);
    assert.equal(st.trades, trades);
    assert.equal(st.levels, deltas);
    assert.equal(st.rejects, 0, 'every model order fits the rules');
    assert.ok(st.disconnects > 0);
  });

  it('quotes every venue near the latent price; the consolidated book is crossed only occasionally', () => {
    const symbol = 'BTC-USDT';
    const model = new LatentPriceModel(13);
    const sink: VenueSink = { onLevel() {}, onTrade() {}, onStatus() {} };
    const venues = edgesListing(symbol, 'spot').map((e) => new SimVenue(edgeOf(e.edge_id, [symbol]), model, 13, sink, { start_ns: T0 }));
    assert.ok(venues.length >= 5);
    let samples = 0;
    let crossed = 0;
    let far = 0;
    let maxApart = 0;
    for (let t = T0 + SEC; t <= T0 + 20 * 60 * SEC; t += 200 * MS) {
      const latent = model.symbolPriceAt(symbol, t);
      let bestBid = 0;
      let bestAsk = Infinity;
      let lo = Infinity;
      let hi = 0;
      for (const v of venues) {
        v.advance(t);
        const b = v.bestBid(symbol)!;
        const a = v.bestAsk(symbol)!;
        const mid = (a + b) / 2;
        if (Math.abs(mid / latent - 1) > 20e-4) far++;
        lo = Math.min(lo, mid);
        hi = Math.max(hi, mid);
        bestBid = Math.max(bestBid, b);
        bestAsk = Math.min(bestAsk, a);
      }
      maxApart = Math.max(maxApart, (hi / lo - 1) * 1e4);
      samples++;
      if (bestBid > bestAsk) crossed++;
    }
    // Within 20 bps of the latent price nearly always (a frozen book can drift further).
    assert.ok(far / (samples * venues.length) < 0.01, `${far} of ${samples * venues.length} mids > 20 bps from latent`);
    assert.ok(maxApart < 100, `venues at most ${maxApart} bps apart`);
    assert.ok(crossed > 0 && crossed / samples < 0.1, `crossed ${crossed} of ${samples}`);
  });

  it('emits nothing for unsubscribed symbols, serves them by snapshot, and streams them once subscribed', () => {
    const trace = new Trace();
    const edge = edgeOf('venue-edge-binance', ['BTC-USDT', 'ATOM-USDT'], NO_FAULTS);
    const v = venue(edge, 4, trace);
    assert.deepEqual(v.subscribed(), ['BTC-USDT']);
    assert.equal(v.isSubscribed('ATOM-USDT'), false);
    v.advance(T0 + 30 * SEC);
    assert.ok(trace.lines.some((l) => l.includes('BTC-USDT')));
    assert.ok(!trace.lines.some((l) => l.includes('ATOM-USDT')), 'cold symbol silent');
    const first = v.snapshot('ATOM-USDT', 10, T0 + 30 * SEC)!;
    assert.equal(first.bids.length, 10);
    assert.equal(first.asks.length, 10);
    assert.equal(first.ts_ns, T0 + 30 * SEC);
    assert.ok(first.bids[0]!.price_1e9 < first.asks[0]!.price_1e9);
    const later = v.snapshot('ATOM-USDT', 10, T0 + 90 * SEC)!;
    assert.notDeepEqual(later, first, 'the cold book evolves');

    assert.equal(v.subscribe('ATOM-USDT'), true);
    const local = new LocalBook();
    local.reset(v.snapshot('ATOM-USDT', 1_000, T0 + 90 * SEC)!);
    const from = trace.lines.length;
    v.advance(T0 + 150 * SEC);
    const atom = trace.lines.slice(from).filter((l) => l.startsWith('L ATOM-USDT'));
    assert.ok(atom.length > 10);
    for (const l of atom) {
      const [, , side, price, qty] = l.split(' ');
      local.apply(Number(side) as Side, Number(price), Number(qty));
    }
    const snap = v.snapshot('ATOM-USDT', 1_000, T0 + 150 * SEC)!;
    assert.deepEqual(local.sorted(Side.BID), snap.bids);
    assert.deepEqual(local.sorted(Side.ASK), snap.asks);

    assert.equal(v.unsubscribe('BTC-USDT'), true);
    const mark = trace.lines.length;
    v.advance(T0 + 180 * SEC);
    assert.ok(!trace.lines.slice(mark).some((l) => l.includes('BTC-USDT')));
    assert.equal(v.subscribe('NOPE-USDT'), false);
    assert.equal(v.snapshot('NOPE-USDT', 10, T0 + 180 * SEC), undefined);
  });

  it('drops and restores the feed and freezes the book at about the configured rates', () => {
    const edge = edgeOf('venue-edge-kucoin', ['BTC-USDT'], { disconnect_per_h: 30, stale_per_h: 30, lag_per_h: 0 });
    const events: number[] = [];
    const statuses: { c: boolean; ts: number }[] = [];
    const sink: VenueSink = {
      onLevel: (_s, _side, _p, _q, ts) => void events.push(ts),
      onTrade: (t) => void events.push(t.ts_ns),
      onStatus: (c, ts) => void statuses.push({ c, ts }),
    };
    const v = new SimVenue(edge, new LatentPriceModel(17), 17, sink, { start_ns: T0 });
    const staleSteps: [number, number][] = [];
    let wasStale = false;
    let prev = T0;
    for (let t = T0; t <= T0 + 2 * HOUR; t += 50 * MS) {
      v.advance(t);
      const stale = v.stats().stale;
      if (stale && wasStale) staleSteps.push([prev, t]);
      wasStale = stale;
      prev = t;
    }
    // Feed drops: alternate, start connected, last a configured time, nothing in between.
    assert.equal(statuses[0]!.c, true);
    statuses.forEach((s, i) => assert.equal(s.c, i % 2 === 0));
    const drops = statuses.filter((s) => !s.c).length;
    assert.ok(drops >= 40 && drops <= 85, `${drops} drops in 2 h at 30/h`);
    assert.equal(v.stats().disconnects, drops);
    for (let i = 1; i + 1 < statuses.length; i += 2) {
      const down = statuses[i]!.ts;
      const up = statuses[i + 1]!.ts;
      assert.ok(up - down >= 1_000 * MS && up - down <= 8_000 * MS);
      assert.ok(!events.some((ts) => ts > down && ts < up), 'silent while down');
    }
    // Frozen book: no event at all inside a stale spell, while the latent price moves on.
    const stale = v.stats().stale_episodes;
    assert.ok(stale >= 40 && stale <= 85, `${stale} stale spells`);
    assert.ok(staleSteps.length > 1_000);
    let i = 0;
    for (const ts of events) {
      while (i < staleSteps.length && staleSteps[i]![1] < ts) i++;
      if (i < staleSteps.length) assert.ok(!(ts > staleSteps[i]![0] && ts <= staleSteps[i]![1]), 'no event while stale');
    }
    const [a, b] = staleSteps[staleSteps.length - 1]!;
    assert.notEqual(v.model.priceAt('BTC', a), v.model.priceAt('BTC', b));
  });

  it('gives perp funding from the basis, deterministically, at the venue interval', () => {
    const now = T0 + 1234 * SEC;
    const hl = new SimVenue(simEdge('venue-edge-hyperliquid')!, new LatentPriceModel(3), 3, new Trace());
    const hl2 = new SimVenue(simEdge('venue-edge-hyperliquid')!, new LatentPriceModel(3), 3, new Trace());
    const bn = new SimVenue(simEdge('venue-edge-binance-perp')!, new LatentPriceModel(3), 3, new Trace());
    const f = hl.funding('BTC-USDC', now)!;
    assert.deepEqual(hl2.funding('BTC-USDC', now), f);
    assert.equal(f.interval_hours, 1);
    assert.equal(f.next_funding_ns % HOUR, 0);
    assert.ok(f.next_funding_ns > now && f.next_funding_ns - now <= HOUR);
    assert.equal(f.rate_1e9, Math.round(f.rate_bps * 1e5));
    assert.ok(Math.abs(f.rate_bps) < 4 && Math.abs(f.premium_bps) < 60, JSON.stringify(f));
    const g = bn.funding('BTC-USDT', now)!;
    assert.equal(g.interval_hours, 8);
    assert.equal(g.next_funding_ns % (8 * HOUR), 0);

    // History: any range, ascending at the interval, the same for another instance.
    const from = now - 30 * 24 * HOUR;
    const h = bn.fundingHistory('BTC-USDT', from, now);
    assert.equal(h.length, 90);
    h.forEach((p, k) => {
      assert.equal(p.ts_ns % (8 * HOUR), 0);
      if (k > 0) assert.equal(p.ts_ns - h[k - 1]!.ts_ns, 8 * HOUR);
      assert.ok(p.ts_ns >= from && p.ts_ns <= now);
      assert.ok(Math.abs(p.rate_bps) <= 75);
    });
    assert.deepEqual(new SimVenue(simEdge('venue-edge-binance-perp')!, new LatentPriceModel(3), 3, new Trace()).fundingHistory('BTC-USDT', from, now), h);
    // Binance-style: the interest rate (1 bps / 8 h) whenever the premium is within the clamp.
    const ones = h.filter((p) => p.rate_bps === 1).length;
    assert.ok(ones > h.length / 2, `${ones} of ${h.length} at exactly 1 bps`);
    const alt = bn.fundingHistory('DOGE-USDT', from, now).map((p) => p.rate_bps);
    assert.ok(new Set(alt).size > 1, 'a volatile premium moves the rate off the interest');
    assert.equal(hl.fundingHistory('BTC-USDC', now - 24 * HOUR, now).length, 24);

    const spot = new SimVenue(simEdge('venue-edge-binance')!, new LatentPriceModel(3), 3, new Trace());
    assert.equal(spot.funding('BTC-USDT', now), undefined);
    assert.deepEqual(spot.fundingHistory('BTC-USDT', from, now), []);
    assert.equal(bn.funding('NOPE-USDT', now), undefined);
  });

  it('runs an edge with no markets (prediction venues) for its status alone', () => {
    const trace = new Trace();
    const v = venue(edgeOf('venue-edge-polymarket', undefined, { disconnect_per_h: 60 }), 2, trace);
    assert.deepEqual(v.symbols(), []);
    v.advance(T0 + HOUR);
    assert.equal(trace.lines[0], `S true ${T0} connected`);
    assert.ok(trace.lines.length > 20 && trace.lines.every((l) => l.startsWith('S ')));
    assert.equal(v.stats().last_event_ns, Number(trace.lines.at(-1)!.split(' ')[2]));
  });
});

describe('SimVenue: clients resting orders (GTC)', () => {
  /** Records the venue's reports of a client's maker fills. */
  class OwnFills extends Trace {
    readonly own: { order_id: number; price: number; qty: number; left: number; trade_id: string }[] = [];
    onOwnFill(order_id: number, _symbol: string, f: { price_1e9: number; qty_1e8: number; trade_id: string }, left: number): void {
      this.own.push({ order_id, price: f.price_1e9, qty: f.qty_1e8, left, trade_id: f.trade_id });
    }
  }
  const edge = edgeOf('venue-edge-binance', ['BTC-USDT'], NO_FAULTS);
  /** The smallest order the venue takes at this price: lots, the minimum quantity and notional. */
  const minimum = (price_1e9: number): number => {
    const r = edge.listings[0]!.rules;
    const need = Math.max(r.min_qty_1e8, Math.ceil((r.min_notional_1e9 * 1e8) / price_1e9), r.lot_1e8);
    return Math.ceil(need / r.lot_1e8) * r.lot_1e8;
  };

  it('rests a bid at the best bid, fills it as maker as the market trades through, and reports what is left', () => {
    const sink = new OwnFills();
    const v = venue(edge, 7, sink);
    v.subscribe('BTC-USDT');
    const t = T0 + 10 * SEC;
    const book = v.snapshot('BTC-USDT', 5, t)!;
    const qty = minimum(book.bids[0]!.price_1e9) * 5;
    const placed = v.placeLimit('BTC-USDT', Side.BID, qty, book.bids[0]!.price_1e9, t);
    assert.equal(placed.ok, true, `placed: ${placed.reason}`);
    assert.equal(placed.fills.length, 0, 'a bid at the best bid does not cross');
    assert.equal(placed.resting_qty_1e8, qty, 'all of it rests');
    assert.ok(placed.order_id > 0, 'the venue names the order');
    // The market's sell flow reaches the best bid sooner or later.
    for (let s = 11; s < 600 && (sink.own.length === 0 || sink.own[sink.own.length - 1]!.left > 0); s++) v.advance(T0 + s * SEC);
    assert.ok(sink.own.length > 0, 'maker fills arrived');
    let left = qty;
    for (const f of sink.own) {
      assert.equal(f.order_id, placed.order_id, 'fills name the order');
      assert.ok(f.price <= book.bids[0]!.price_1e9, `a bid fills at its price or better for the maker: ${f.price}`);
      left -= f.qty;
      assert.equal(f.left, left, 'what is left after each fill');
    }
    assert.equal(v.cancelOrder(placed.order_id, T0 + 700 * SEC), left, 'cancel returns what still rested');
    assert.equal(v.cancelOrder(placed.order_id, T0 + 701 * SEC), 0, 'a second cancel finds nothing');
  });

  it('a crossing limit fills its crossing part as taker now; a far one rests untouched until cancelled', () => {
    const sink = new OwnFills();
    const v = venue(edge, 8, sink);
    const t = T0 + 10 * SEC;
    const book = v.snapshot('BTC-USDT', 5, t)!;
    const lot = minimum(book.asks[0]!.price_1e9);
    const crossing = v.placeLimit('BTC-USDT', Side.BID, lot, book.asks[0]!.price_1e9, t);
    assert.ok(crossing.fills.length > 0 && crossing.resting_qty_1e8 === 0, 'a marketable lot fills at once');
    const far = v.placeLimit('BTC-USDT', Side.ASK, lot * 3, book.asks[0]!.price_1e9 * 2, t);
    assert.equal(far.resting_qty_1e8, lot * 3, 'a far ask rests');
    v.advance(t + 60 * SEC);
    assert.equal(sink.own.filter((f) => f.order_id === far.order_id).length, 0, 'nothing reaches twice the price');
    assert.equal(v.cancelOrder(far.order_id, t + 61 * SEC), lot * 3, 'cancelled whole');
  });
});
