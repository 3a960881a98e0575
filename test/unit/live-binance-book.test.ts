/**
 * The live Binance adapter's pure core: exact decimal text <-> engine integers, the price-level
 * book, and the diff-depth sync rules (buffer, snapshot, drop `u <= lastUpdateId`, bridge
 * `U <= lastUpdateId + 1 <= u`, then `U == previous u + 1`, a gap starts over).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { formatScaled, parseScaled } from '../../actors/edge/live/decimal.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { DiffDepthSync, type DepthEvent } from '../../actors/edge/live/binance/depth-sync.ts';
import { decodeDepthUpdate, decodeExchangeInfo, decodeOrderAnswer, decodeBalances, orderParams, errorOf } from '../../actors/edge/live/binance/codec.ts';

describe('venue decimals', () => {
  it('parses exactly where float multiplication drifts', () => {
    assert.equal(parseScaled('0.29', 8), 29_000_000);
    assert.equal(0.29 * 1e8 === 29_000_000, false, 'the float product this avoids');
    assert.equal(parseScaled('96000.01000000', 9), 96_000_010_000_000);
    assert.equal(parseScaled('0.00000001', 8), 1);
    assert.equal(parseScaled('-1.5', 8), -150_000_000);
    assert.equal(parseScaled('12', 8), 1_200_000_000);
  });

  it('refuses what it cannot hold exactly', () => {
    assert.ok(Number.isNaN(parseScaled('0.000000001', 8)), 'a ninth non-zero decimal');
    assert.equal(parseScaled('0.100000000000', 8), 10_000_000, 'trailing zeros past the scale are fine');
    for (const bad of ['', '.', '1e5', '1,5', 'abc', '1.2.3', ' 1', '99999999999.00000000']) assert.ok(Number.isNaN(parseScaled(bad, 8)), bad);
  });

  it('formats and parses back every safe integer (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 52), max: 2 ** 52 }), fc.integer({ min: 0, max: 9 }), (n, d) => {
        const text = formatScaled(n, d);
        assert.doesNotMatch(text, /e|\.$|\.\d*0$/);
        assert.equal(parseScaled(text, d), n);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('L2Book', () => {
  it('keeps each side best first, replaces and removes levels', () => {
    const book = new L2Book();
    book.set(Side.BID, 100, 5);
    book.set(Side.BID, 102, 1);
    book.set(Side.BID, 101, 2);
    book.set(Side.ASK, 105, 3);
    book.set(Side.ASK, 103, 4);
    book.set(Side.BID, 101, 7);
    book.set(Side.BID, 100, 0);
    book.set(Side.ASK, 999, 0); // absent: nothing happens
    assert.deepEqual(book.flat(Side.BID, 10), [102, 1, 101, 7]);
    assert.deepEqual(book.flat(Side.ASK, 1), [103, 4]);
    const px = new Float64Array(4);
    const qty = new Float64Array(4);
    assert.equal(book.levelsInto(Side.ASK, 4, px, 1, qty, 0), 2);
    assert.deepEqual([...px], [0, 103, 105, 0]);
    assert.deepEqual([...qty], [4, 3, 0, 0]);
  });

  it('equals a map of the last quantity per price after any sequence (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 5 })), { maxLength: 300 }), (ops) => {
        const book = new L2Book();
        const model = [new Map<number, number>(), new Map<number, number>()];
        for (const [bid, price, qty] of ops) {
          const side = bid ? Side.BID : Side.ASK;
          book.set(side, price, qty);
          if (qty === 0) model[side]!.delete(price);
          else model[side]!.set(price, qty);
        }
        const expect = (side: Side) => [...model[side]!].sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0])).flat();
        assert.deepEqual(book.flat(Side.BID, 100), expect(Side.BID));
        assert.deepEqual(book.flat(Side.ASK, 100), expect(Side.ASK));
      }),
      { numRuns: 300 },
    );
  });
});

const ev = (first: number, last: number, bids: number[] = [], asks: number[] = []): DepthEvent => ({ first, last, bids, asks, ts_ms: 0 });

describe('Binance diff-depth sync', () => {
  it('buffers until the snapshot, drops what it covers, bridges with the straddling event, then applies in sequence', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new DiffDepthSync(book, changes);
    assert.equal(sync.onEvent(ev(95, 99, [10, 1])), 'buffered');
    assert.equal(sync.onEvent(ev(100, 104, [11, 1])), 'buffered');
    assert.equal(sync.onEvent(ev(105, 107, [], [20, 3])), 'buffered');
    // Snapshot at 102: the first event (u = 99 <= 102) is dropped; the second straddles 103.
    assert.equal(sync.onSnapshot(102, [9, 5, 10, 2], [21, 1]), 'synced');
    assert.deepEqual(book.flat(Side.BID, 10), [11, 1, 10, 2, 9, 5], 'event 95-99 (qty 1 at 10) was dropped, 100-104 applied');
    assert.deepEqual(book.flat(Side.ASK, 10), [20, 3, 21, 1]);
    assert.equal(changes.length, 0, 'a sync publishes the whole book, not changes');
    assert.equal(sync.onEvent(ev(108, 108, [11, 0])), 'applied');
    assert.deepEqual(changes, [Side.BID, 11, 0]);
    assert.deepEqual(book.flat(Side.BID, 1), [10, 2]);
  });

  it('a skipped update id is a gap: the book is cleared and resynced from a new snapshot', () => {
    const book = new L2Book();
    const sync = new DiffDepthSync(book, []);
    assert.equal(sync.onSnapshot(10, [5, 1], [6, 1]), 'synced');
    assert.equal(sync.onEvent(ev(11, 12, [5, 2])), 'applied');
    assert.equal(sync.onEvent(ev(14, 15, [5, 3])), 'gap');
    assert.equal(sync.synced, false);
    assert.equal(book.depth(Side.BID), 0, 'never a book with a hole in it');
    assert.equal(sync.onEvent(ev(16, 16)), 'buffered');
    assert.equal(sync.onSnapshot(15, [5, 3], [6, 1]), 'synced', 'the event after the gap bridges the new snapshot');
  });

  it('a snapshot older than the stream is stale: fetch another, keeping the stream', () => {
    const sync = new DiffDepthSync(new L2Book(), []);
    sync.onEvent(ev(50, 55));
    assert.equal(sync.onSnapshot(40, [1, 1], []), 'stale');
    assert.equal(sync.onSnapshot(52, [1, 1], []), 'synced');
  });

  it('a snapshot that covers everything buffered is whole at once (a quiet symbol); the next event must still straddle it', () => {
    const sync = new DiffDepthSync(new L2Book(), []);
    assert.equal(sync.onSnapshot(30, [1, 1], []), 'synced');
    assert.equal(sync.onEvent(ev(20, 30)), 'buffered', 'covered by the snapshot: dropped');
    assert.equal(sync.onEvent(ev(29, 33)), 'applied', 'straddles 31');
    assert.equal(sync.onEvent(ev(34, 34)), 'applied');
    const other = new DiffDepthSync(new L2Book(), []);
    other.onSnapshot(30, [1, 1], []);
    assert.equal(other.onEvent(ev(33, 34)), 'gap', 'events 31-32 were missed between the snapshot and the stream');
    assert.equal(other.synced, false);
  });

  it('any interleaving of a gapless stream and a snapshot ends with the book of the stream (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 4 })), { minLength: 2, maxLength: 60 }), fc.nat(), (steps, cut) => {
        // The venue's book after each event, and the events with their ids.
        const truth = new L2Book();
        const events: DepthEvent[] = [];
        const states: number[][] = [];
        let id = 100;
        for (const [n, price, qty] of steps) {
          truth.set(Side.BID, price, qty);
          events.push(ev(id + 1, id + n, [price, qty]));
          id += n;
          states.push(truth.flat(Side.BID, 100));
        }
        // The snapshot is taken after event k; events before it may or may not have been received.
        const k = cut % events.length;
        const snapshotBids = states[k]!;
        const sync = new DiffDepthSync(new L2Book(), []);
        const book = (sync as unknown as { book: L2Book }).book;
        for (let i = 0; i <= k; i++) sync.onEvent(events[i]!);
        sync.onSnapshot(events[k]!.last, snapshotBids, []);
        for (let i = k + 1; i < events.length; i++) sync.onEvent(events[i]!);
        assert.equal(sync.synced, true);
        assert.deepEqual(book.flat(Side.BID, 100), states[states.length - 1]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Binance JSON', () => {
  it('decodes a depthUpdate exactly, and refuses one with an unreadable level', () => {
    const d = decodeDepthUpdate({ e: 'depthUpdate', E: 1700000000000, s: 'BNBBTC', U: 157, u: 160, b: [['0.0024', '10']], a: [['0.0026', '100'], ['0.0027', '0.00000000']] });
    assert.deepEqual(d, { venueSymbol: 'BNBBTC', event: { first: 157, last: 160, bids: [2_400_000, 1_000_000_000], asks: [2_600_000, 10_000_000_000, 2_700_000, 0], ts_ms: 1700000000000 } });
    assert.equal(decodeDepthUpdate({ e: 'depthUpdate', E: 1, s: 'X', U: 1, u: 2, b: [['1e3', '1']], a: [] }), undefined);
    assert.equal(decodeDepthUpdate({ e: 'trade', s: 'X' }), undefined);
  });

  it('reads exchangeInfo filters into tick, lot and minimums', () => {
    const [i] = decodeExchangeInfo({
      symbols: [
        {
          symbol: 'BTCUSDT',
          status: 'TRADING',
          baseAsset: 'BTC',
          quoteAsset: 'USDT',
          filters: [
            { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '1000000.00000000', tickSize: '0.01000000' },
            { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
            { filterType: 'NOTIONAL', minNotional: '5.00000000' },
          ],
        },
      ],
    });
    assert.deepEqual(i, { venueSymbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', trading: true, tick_1e9: 10_000_000, lot_1e8: 1_000, min_qty_1e8: 1_000, min_notional_1e9: 5_000_000_000 });
  });

  it('builds the order query with our child id as newClientOrderId', () => {
    assert.equal(orderParams('BTCUSDT', 'o-9.1', 'buy', 150_000, 96_000_010_000_000, 'ioc'), 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&quantity=0.0015&price=96000.01&newClientOrderId=o-9.1&newOrderRespType=FULL');
    assert.equal(orderParams('BTCUSDT', 'c', 'sell', 100_000_000, null, 'ioc'), 'symbol=BTCUSDT&side=SELL&type=MARKET&quantity=1&newClientOrderId=c&newOrderRespType=FULL');
  });

  it('prices commissions: quote as USD, base at the fill price, a third asset by the account rate', () => {
    const fees = { base: 'BTC', quote: 'USDT', fallbackFee: () => 777 };
    const answer = decodeOrderAnswer(
      {
        symbol: 'BTCUSDT', orderId: 1, clientOrderId: 'c', transactTime: 1_700_000_000_000, price: '96000.00', origQty: '0.03', executedQty: '0.03', status: 'FILLED',
        fills: [
          { price: '96000.00', qty: '0.01', commission: '0.96', commissionAsset: 'USDT', tradeId: 11 },
          { price: '96000.00', qty: '0.01', commission: '0.00001', commissionAsset: 'BTC', tradeId: 12 },
          { price: '96000.00', qty: '0.01', commission: '0.001', commissionAsset: 'BNB', tradeId: 13 },
        ],
      },
      fees,
    );
    assert.ok(answer !== undefined);
    assert.deepEqual(answer.fills.map((f) => [f.trade_id, f.fee_1e9, f.commission]), [
      ['11', 960_000_000, undefined],
      ['12', 960_000_000, { asset: 'BTC', qty_1e8: 1_000 }],
      ['13', 777, { asset: 'BNB', qty_1e8: 100_000 }],
    ]);
    assert.equal(answer.resting_qty_1e8, 0);
    assert.equal(answer.fills[0]!.ts_ns, 1_700_000_000_000 * 1_000_000);
  });

  it('reads balances past 2^53 exactly and error bodies as code and message', () => {
    assert.deepEqual(decodeBalances({ balances: [{ asset: 'USDT', free: '123456789012.12345678', locked: '0.00000000' }, { asset: 'XRP', free: '0.00000000', locked: '0.00000000' }] }), [
      { asset: 'USDT', free_1e8: 12345678901212345678n, locked_1e8: 0n },
      { asset: 'XRP', free_1e8: 0n, locked_1e8: 0n },
    ]);
    assert.deepEqual(errorOf({ code: -1022, msg: 'Signature for this request is not valid.' }), { code: -1022, msg: 'Signature for this request is not valid.' });
    assert.equal(errorOf({ status: 'FILLED' }), undefined);
  });
});
