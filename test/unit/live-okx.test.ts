/**
 * The live OKX adapter's pure core: the `books` channel sync (snapshot, then updates chained by
 * `prevSeqId` = previous `seqId`, the CRC-32 checksum of the top 25 levels in the venue's own
 * text), and the REST/WebSocket codec.
 *
 * Samples, by source:
 *   - OKX v5 docs, WS order book channel (https://www.okx.com/docs-v5/en/#order-book-trading-market-data-ws-order-book-channel):
 *     the snapshot push, the sequence example (10, 15, 15, 3, 5), the checksum strings
 *     "3366.1:7:3366.8:9:3366:6:3368:8" and "3366.1:7:3366.8:9:3368:8:3372:8" (the v5 page
 *     gives the strings only).
 *   - The CRC values of those two strings, -1881014294 and 831078360, and the 6-level book whose
 *     checksum is 468410539: OKX's earlier (v3-era) websocket docs, as republished in the
 *     OKChain DEX websocket docs ("spot/depth" partial, instrument BCOIN-USDT).
 *   - OKX v5 docs, REST: place order, order details, transaction details (fills), get balance,
 *     get instruments (the BTC-EUR row): the response examples, values as printed.
 *   - Error bodies (`code` "1" with a row `sCode`, 51008, 51400, 51603, 50011) are built from the
 *     v5 error-code table and the place-order response fields; OKX prints no such example.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { formatScaled, parseScaled } from '../../actors/edge/live/decimal.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { OkxBookSync, checksumString, crc32Signed } from '../../actors/edge/live/okx/book-sync.ts';
import {
  booksSubscription,
  childIdOfOkx,
  decodeBalances,
  decodeBookFrame,
  decodeFills,
  decodeInstruments,
  decodeOrder,
  decodeOrderAck,
  legReportOf,
  NO_SUCH_ORDER,
  okxClientOrderId,
  okxError,
  orderBody,
} from '../../actors/edge/live/okx/codec.ts';

const signedZlib = (text: string) => crc32(text) | 0;

type Level = [string, string, string, string];

/** A `books` push frame as OKX sends it. */
function frame(action: 'snapshot' | 'update', bids: Level[], asks: Level[], checksum: number, prevSeqId: number, seqId: number): unknown {
  return { arg: { channel: 'books', instId: 'BTC-USDT' }, action, data: [{ asks, bids, ts: '1597026383085', checksum, prevSeqId, seqId }] };
}

/** Decodes a frame and feeds its (single) push to the sync. */
function push(sync: OkxBookSync, f: unknown) {
  const decoded = decodeBookFrame(f);
  assert.ok(decoded !== undefined, 'a readable frame');
  return sync.onPush(decoded.action, decoded.data[0]!);
}

const lvl = (px: string, sz: string): Level => [px, sz, '0', '1'];

describe('OKX checksum', () => {
  it('is zlib CRC-32 as a signed 32-bit integer (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.:-'), maxLength: 400 }), (text) => {
        assert.equal(crc32Signed(text), signedZlib(text));
      }),
      { numRuns: 500 },
    );
  });

  it("reproduces OKX's published examples: strings from the v5 docs, values from the v3-era docs", () => {
    const aligned = checksumString(
      [['3366.1', '7'], ['3366', '6']],
      [['3366.8', '9'], ['3368', '8']],
    );
    assert.equal(aligned, '3366.1:7:3366.8:9:3366:6:3368:8');
    assert.equal(crc32Signed(aligned), -1881014294);
    const ragged = checksumString([['3366.1', '7']], [['3366.8', '9'], ['3368', '8'], ['3372', '8']]);
    assert.equal(ragged, '3366.1:7:3366.8:9:3368:8:3372:8');
    assert.equal(crc32Signed(ragged), 831078360);
  });

  it('a synced book of the published 6-level example carries checksum 468410539', () => {
    const sync = new OkxBookSync(new L2Book(), []);
    const asks = [lvl('8.8', '96.99999966'), lvl('9', '39'), lvl('9.5', '100'), lvl('12', '12'), lvl('95', '0.42973686'), lvl('11111', '1003.99999795')];
    const bids = [lvl('5', '7'), lvl('3', '5'), lvl('2.5', '100'), lvl('1.5', '100'), lvl('1.1', '100'), lvl('1', '1004.9998')];
    assert.equal(push(sync, frame('snapshot', bids, asks, 468410539, -1, 1)), 'synced');
    assert.equal(sync.checksumText(), '5:7:8.8:96.99999966:3:5:9:39:2.5:100:9.5:100:1.5:100:12:12:1.1:100:95:0.42973686:1:1004.9998:11111:1003.99999795');
  });

  it('an update taking the first published book to the second is checked against both published values', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new OkxBookSync(book, changes);
    assert.equal(push(sync, frame('snapshot', [lvl('3366.1', '7'), lvl('3366', '6')], [lvl('3366.8', '9'), lvl('3368', '8')], -1881014294, -1, 100)), 'synced');
    assert.equal(changes.length, 0, 'a sync publishes the whole book');
    assert.equal(push(sync, frame('update', [lvl('3366', '0')], [lvl('3372', '8')], 831078360, 100, 101)), 'applied');
    assert.deepEqual(changes, [Side.BID, 3_366_000_000_000, 0, Side.ASK, 3_372_000_000_000, 800_000_000]);
    assert.deepEqual(book.flat(Side.BID, 10), [3_366_100_000_000, 700_000_000]);
    assert.equal(sync.checksumText(), '3366.1:7:3366.8:9:3368:8:3372:8');
  });

  it("hashes the venue's original text: '0.5000' is not '0.5'", () => {
    const bids = [lvl('0.5000', '1.10')];
    const asks = [lvl('0.5100', '2')];
    assert.equal(signedZlib('0.5000:1.10:0.5100:2'), 1472573644);
    assert.equal(signedZlib('0.5:1.1:0.51:2'), -2006601865, 'what formatting our integers back would hash');
    assert.equal(push(new OkxBookSync(new L2Book(), []), frame('snapshot', bids, asks, 1472573644, -1, 1)), 'synced');
    assert.equal(push(new OkxBookSync(new L2Book(), []), frame('snapshot', bids, asks, -2006601865, -1, 1)), 'gap');
  });

  it('covers the top 25 levels of each side only, the longer side continuing alone', () => {
    const sync = new OkxBookSync(new L2Book(), []);
    const bids = Array.from({ length: 30 }, (_, i) => lvl(String(1000 - i), '1'));
    const asks = Array.from({ length: 27 }, (_, i) => lvl(String(1001 + i), '2'));
    const expected: string[] = [];
    for (let i = 0; i < 25; i++) expected.push(`${1000 - i}:1`, `${1001 + i}:2`);
    assert.equal(push(sync, frame('snapshot', bids, asks, signedZlib(expected.join(':')), -1, 1)), 'synced');
    const lopsided = checksumString([['5', '1']], Array.from({ length: 30 }, (_, i): [string, string] => [String(6 + i), '1']));
    assert.equal(lopsided.split(':').length, 2 * 26, 'one bid and 25 asks');
  });

  it("the v5 page's sample snapshot does not hash to the checksum printed beside it (an illustration)", () => {
    const sample = {
      arg: { channel: 'books', instId: 'BTC-USDT' },
      action: 'snapshot',
      data: [
        {
          asks: [['8476.98', '415', '0', '13'], ['8477', '7', '0', '2'], ['8477.34', '85', '0', '1'], ['8477.56', '1', '0', '1'], ['8505.84', '8', '0', '1'], ['8506.37', '85', '0', '1'], ['8506.49', '2', '0', '1'], ['8506.96', '100', '0', '2']],
          bids: [['8476.97', '256', '0', '12'], ['8475.55', '101', '0', '1'], ['8475.54', '100', '0', '1'], ['8475.3', '1', '0', '1'], ['8447.32', '6', '0', '1'], ['8447.02', '246', '0', '1'], ['8446.83', '24', '0', '1'], ['8446', '95', '0', '3']],
          ts: '1597026383085',
          checksum: -855196043,
          prevSeqId: -1,
          seqId: 123456,
        },
      ],
    };
    const decoded = decodeBookFrame(sample);
    assert.ok(decoded !== undefined);
    assert.equal(decoded.action, 'snapshot');
    assert.equal(decoded.instId, 'BTC-USDT');
    const d = decoded.data[0]!;
    assert.deepEqual([d.prevSeqId, d.seqId, d.checksum, d.ts_ms], [-1, 123456, -855196043, 1597026383085]);
    assert.deepEqual(d.asks.slice(0, 4), [8_476_980_000_000, 41_500_000_000, 8_477_000_000_000, 700_000_000]);
    assert.deepEqual(d.askText.slice(0, 4), ['8476.98', '415', '8477', '7']);
    const sync = new OkxBookSync(new L2Book(), []);
    sync.onPush('snapshot', { ...d, checksum: 0 });
    assert.equal(crc32Signed(sync.checksumText()), -2102840145, 'its levels hash to this, not -855196043');
    assert.equal(sync.onPush('snapshot', d), 'gap', 'a checksum that does not match is refused');
  });
});

describe('OKX books sync', () => {
  it("follows the docs' sequence example: normal, no-change heartbeat, maintenance reset, normal", () => {
    const book = new L2Book();
    const sync = new OkxBookSync(book, []);
    assert.equal(push(sync, frame('snapshot', [lvl('100', '1')], [lvl('101', '1')], 0, -1, 10)), 'synced');
    assert.equal(push(sync, frame('update', [lvl('100', '2')], [], 0, 10, 15)), 'applied');
    assert.equal(push(sync, frame('update', [], [], 0, 15, 15)), 'applied', 'no change for a while: seqId == prevSeqId');
    assert.equal(push(sync, frame('update', [lvl('99', '1')], [], 0, 15, 3)), 'applied', 'sequence reset: seqId < prevSeqId');
    assert.equal(push(sync, frame('update', [], [lvl('101', '0')], 0, 3, 5)), 'applied');
    assert.equal(sync.seqId, 5);
    assert.deepEqual(book.flat(Side.BID, 10), [100_000_000_000, 200_000_000, 99_000_000_000, 100_000_000]);
    assert.equal(book.depth(Side.ASK), 0);
  });

  it('a prevSeqId that is not the last seqId is a gap: the book is cleared until a new snapshot', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new OkxBookSync(book, changes);
    push(sync, frame('snapshot', [lvl('100', '1')], [lvl('101', '1')], 0, -1, 10));
    assert.equal(push(sync, frame('update', [lvl('100', '3')], [], 0, 11, 12)), 'gap');
    assert.equal(sync.synced, false);
    assert.equal(book.depth(Side.BID), 0, 'never a book with a hole in it');
    assert.equal(changes.length, 0);
    assert.equal(push(sync, frame('update', [lvl('100', '4')], [], 0, 12, 13)), 'buffered', 'nothing to build on until the resubscription snapshot');
    assert.equal(push(sync, frame('snapshot', [lvl('100', '4')], [lvl('101', '1')], 0, -1, 20)), 'synced');
    assert.equal(push(sync, frame('update', [], [lvl('102', '1')], 0, 20, 21)), 'applied');
  });

  it("a checksum mismatch is a gap, and the push's levels are not left to publish", () => {
    const changes: number[] = [Side.BID, 1, 1];
    const sync = new OkxBookSync(new L2Book(), changes);
    const bids = [lvl('3366.1', '7'), lvl('3366', '6')];
    const asks = [lvl('3366.8', '9'), lvl('3368', '8')];
    push(sync, frame('snapshot', bids, asks, -1881014294, -1, 1));
    changes.push(Side.BID, 1, 1);
    assert.equal(push(sync, frame('update', [lvl('3366', '0')], [lvl('3372', '8')], 831078361, 1, 2)), 'gap');
    assert.deepEqual(changes, [Side.BID, 1, 1], 'what was there before the push stays, the push is taken back');
    assert.equal(sync.synced, false);
  });

  it('a checksum of 0 is not verified (OKX deprecated the field: it is fixed at 0)', () => {
    const sync = new OkxBookSync(new L2Book(), []);
    assert.equal(push(sync, frame('snapshot', [lvl('1', '1')], [lvl('2', '1')], 0, -1, 1)), 'synced');
    assert.equal(push(sync, frame('update', [lvl('1.5', '1')], [], 0, 1, 2)), 'applied');
  });

  it('any gapless stream with true checksums ends with the reference book; a tampered checksum or a skipped seqId is a gap (property)', () => {
    type Op = { bid: boolean; tick: number; qty: number; pxPad: number; szPad: number };
    const op = fc.record({ bid: fc.boolean(), tick: fc.integer({ min: 1, max: 40 }), qty: fc.integer({ min: 0, max: 3000 }), pxPad: fc.integer({ min: 0, max: 2 }), szPad: fc.integer({ min: 0, max: 2 }) });
    const step = fc.record({ ops: fc.array(op, { maxLength: 6 }), advance: fc.integer({ min: 1, max: 3 }), kind: fc.integer({ min: 0, max: 9 }) });
    // Text as OKX might write it: minimal, or with trailing zeros the checksum must keep.
    const text = (scaled: number, decimals: number, pad: number): string => {
      const minimal = formatScaled(scaled, decimals);
      if (pad === 0) return minimal;
      const [whole, frac = ''] = minimal.split('.');
      return `${whole}.${frac.padEnd(frac.length + pad, '0')}`;
    };
    const levelOf = (o: Op): Level => {
      const cents = o.bid ? 100_000 - o.tick * 25 : 100_000 + o.tick * 25;
      return [text(cents, 2, o.pxPad), text(o.qty, 3, o.szPad), '0', '1'];
    };
    // The reference: the venue's book as text per price, its checksum string built independently.
    const referenceCrc = (model: Map<number, [string, string]>[]): number => {
      const sorted = (side: Side) => [...model[side]!].sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0])).slice(0, 25).map(([, t]) => `${t[0]}:${t[1]}`);
      const bids = sorted(Side.BID);
      const asks = sorted(Side.ASK);
      const parts: string[] = [];
      for (let i = 0; i < Math.max(bids.length, asks.length); i++) {
        if (i < bids.length) parts.push(bids[i]!);
        if (i < asks.length) parts.push(asks[i]!);
      }
      return signedZlib(parts.join(':'));
    };
    const flat = (model: Map<number, [string, string]>[], side: Side) =>
      [...model[side]!].sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0])).flatMap(([px, t]) => [px, parseScaled(t[1], 8)]);

    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(step, { minLength: 1, maxLength: 40 }), fc.nat(), fc.boolean(), (initial, steps, at, tamperChecksum) => {
        // The venue's stream: a snapshot, then updates with their sequence ids and checksums.
        const model = [new Map<number, [string, string]>(), new Map<number, [string, string]>()];
        const applyOp = (l: Level, bid: boolean) => {
          const px = parseScaled(l[0], 9);
          if (parseScaled(l[1], 8) === 0) model[bid ? Side.BID : Side.ASK]!.delete(px);
          else model[bid ? Side.BID : Side.ASK]!.set(px, [l[0], l[1]]);
        };
        const snapBids: Level[] = [];
        const snapAsks: Level[] = [];
        for (const o of initial) {
          if (o.qty === 0) continue;
          const l = levelOf(o);
          const side = o.bid ? snapBids : snapAsks;
          const same = side.findIndex((x) => parseScaled(x[0], 9) === parseScaled(l[0], 9));
          if (same >= 0) side.splice(same, 1);
          side.push(l);
          applyOp(l, o.bid);
        }
        let seq = 1000;
        const frames = [frame('snapshot', snapBids, snapAsks, referenceCrc(model), -1, seq)];
        const books: number[][][] = [];
        const expectedChanges: number[][] = [];
        for (const s of steps) {
          const bids: Level[] = [];
          const asks: Level[] = [];
          const changed: number[] = [];
          for (const o of s.ops) {
            const l = levelOf(o);
            (o.bid ? bids : asks).push(l);
            applyOp(l, o.bid);
          }
          // Bids are applied before asks, each side in the order sent.
          for (const l of bids) changed.push(Side.BID, parseScaled(l[0], 9), parseScaled(l[1], 8));
          for (const l of asks) changed.push(Side.ASK, parseScaled(l[0], 9), parseScaled(l[1], 8));
          // Mostly forward; a quiet heartbeat keeps seqId; now and then a maintenance reset.
          const next = s.kind === 0 ? s.advance : s.kind === 1 && s.ops.length === 0 ? seq : seq + s.advance;
          frames.push(frame('update', bids, asks, referenceCrc(model), seq, next));
          seq = next;
          books.push([flat(model, Side.BID), flat(model, Side.ASK)]);
          expectedChanges.push(changed);
        }

        // Whole stream: every push applies, the book and its changes are the venue's.
        const book = new L2Book();
        const changes: number[] = [];
        const sync = new OkxBookSync(book, changes);
        assert.equal(push(sync, frames[0]), 'synced');
        for (let i = 1; i < frames.length; i++) {
          changes.length = 0;
          assert.equal(push(sync, frames[i]), 'applied', `push ${i}`);
          assert.deepEqual(changes, expectedChanges[i - 1]);
          assert.deepEqual(book.flat(Side.BID, 1000), books[i - 1]![0]);
          assert.deepEqual(book.flat(Side.ASK, 1000), books[i - 1]![1]);
        }

        // The same stream broken at one update: a wrong checksum, or a push missed before it.
        const k = 1 + (at % (frames.length - 1));
        const broken = structuredClone(frames[k]) as { data: { checksum: number; prevSeqId: number }[] };
        if (tamperChecksum) {
          if (broken.data[0]!.checksum === 0) return; // 0 is not verified (one chance in 2^32)
          broken.data[0]!.checksum ^= 1;
        } else broken.data[0]!.prevSeqId += 1;
        const again = new OkxBookSync(new L2Book(), []);
        for (let i = 0; i < k; i++) assert.notEqual(push(again, frames[i]), 'gap');
        assert.equal(push(again, broken), 'gap');
        assert.equal(again.synced, false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('OKX WebSocket codec', () => {
  it('builds the books subscription', () => {
    assert.equal(booksSubscription('subscribe', ['BTC-USDT', 'ETH-USDT']), '{"op":"subscribe","args":[{"channel":"books","instId":"BTC-USDT"},{"channel":"books","instId":"ETH-USDT"}]}');
  });

  it('refuses an unreadable level, and is not fooled by other frames', () => {
    assert.equal(decodeBookFrame(frame('update', [['1e3', '1', '0', '1']], [], 0, 1, 2)), undefined, 'an exponent');
    assert.equal(decodeBookFrame(frame('update', [['100', '0.000000001', '0', '1']], [], 0, 1, 2)), undefined, 'past 8 decimals of size');
    assert.equal(decodeBookFrame(frame('update', [['0', '1', '0', '1']], [], 0, 1, 2)), undefined, 'a zero price');
    assert.equal(decodeBookFrame({ id: '1512', event: 'subscribe', arg: { channel: 'books', instId: 'BTC-USDT' }, connId: 'a4d3ae55' }), undefined, 'the subscription answer');
    // books5 (docs sample): snapshots without `action` or a sequence chain.
    assert.equal(decodeBookFrame({ arg: { channel: 'books5', instId: 'BCH-USDT-SWAP' }, data: [{ asks: [['111.06', '55154', '0', '2']], bids: [['111.05', '57745', '0', '2']], instId: 'BCH-USDT-SWAP', ts: '1670324386802', seqId: 363996337 }] }), undefined);
  });
});

describe('OKX client order ids', () => {
  it('maps our child id to 1-32 alphanumerics and back', () => {
    assert.equal(okxClientOrderId('ord_0mwz4ka3500001oq-1'), '0mwz4ka3500001oqx1');
    assert.equal(childIdOfOkx('0mwz4ka3500001oqx1'), 'ord_0mwz4ka3500001oq-1');
    // A body with x in it: the last x is the dash.
    assert.equal(okxClientOrderId('ord_0mx4xa3500x1Zq-12'), '0mx4xa3500x1Zqx12');
    assert.equal(childIdOfOkx('0mx4xa3500x1Zqx12'), 'ord_0mx4xa3500x1Zq-12');
  });

  it('round-trips every mappable child id, and never maps two ids to one (property)', () => {
    const alnum = fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
    fc.assert(
      fc.property(fc.string({ unit: alnum, minLength: 1, maxLength: 34 }), fc.nat({ max: 10_000 }), (body, n) => {
        const child = `ord_${body}-${n}`;
        const id = okxClientOrderId(child);
        if (body.length + 1 + String(n).length > 32) {
          assert.equal(id, undefined, 'past 32 characters: refused');
          return;
        }
        assert.ok(id !== undefined);
        assert.match(id, /^[A-Za-z0-9]{1,32}$/);
        assert.equal(childIdOfOkx(id), child);
      }),
      { numRuns: 2_000 },
    );
  });

  it('maps the node order ids the store makes (9 base36 of ms, 4 of sequence, 3 base62)', () => {
    const id = `ord_${(1_760_000_000_000).toString(36).padStart(9, '0')}${'00zz'}Q7x-999`;
    const okx = okxClientOrderId(id);
    assert.ok(okx !== undefined && okx.length <= 32);
    assert.equal(childIdOfOkx(okx), id);
  });

  it('refuses ids it cannot map', () => {
    for (const bad of ['ord_abc', 'abc-1', 'ord_ab_c-1', 'ord_abc-1a', 'ord_-1', 'ord_abc-', `ord_${'a'.repeat(31)}-1`, 'ord_ab.c-1', '']) assert.equal(okxClientOrderId(bad), undefined, bad);
    assert.equal(okxClientOrderId(`ord_${'a'.repeat(30)}-1`)?.length, 32);
    for (const bad of ['abc', 'abcx', 'x1', '', 'ab-cx1', `${'a'.repeat(31)}x1`]) assert.equal(childIdOfOkx(bad), undefined, bad);
  });
});

describe('OKX REST codec', () => {
  it('reads spot instruments into tick, lot and minimum (docs sample: BTC-EUR)', () => {
    const body = {
      code: '0',
      msg: '',
      data: [
        { baseCcy: 'BTC', instId: 'BTC-EUR', instType: 'SPOT', lotSz: '0.00000001', maxLmtSz: '9999999999', minSz: '0.00001', quoteCcy: 'EUR', state: 'live', ruleType: 'normal', tickSz: '1' },
        // Not from the docs: a suspended listing, and one whose lot is finer than 1e-8.
        { baseCcy: 'ETH', instId: 'ETH-USDT', instType: 'SPOT', lotSz: '0.000001', minSz: '0.0001', quoteCcy: 'USDT', state: 'suspend', tickSz: '0.01' },
        { baseCcy: 'BTC', instId: 'BTC-TRY', instType: 'SPOT', lotSz: '0.000000001', minSz: '0.0001', quoteCcy: 'TRY', state: 'live', tickSz: '1' },
      ],
    };
    assert.deepEqual(decodeInstruments(body), [
      { instId: 'BTC-EUR', base: 'BTC', quote: 'EUR', trading: true, tick_1e9: 1_000_000_000, lot_1e8: 1, min_qty_1e8: 1_000 },
      { instId: 'ETH-USDT', base: 'ETH', quote: 'USDT', trading: false, tick_1e9: 10_000_000, lot_1e8: 100, min_qty_1e8: 10_000 },
    ]);
    assert.deepEqual(decodeInstruments({ code: '50011', msg: 'Rate limit reached.', data: [] }), []);
  });

  it('builds order bodies: ioc and limit priced, market sized in the base currency', () => {
    assert.equal(orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-1', 'buy', 150_000, 96_000_010_000_000, 'ioc'), '{"instId":"BTC-USDT","tdMode":"cash","clOrdId":"0mwz4ka3500001oqx1","side":"buy","ordType":"ioc","sz":"0.0015","px":"96000.01"}');
    assert.equal(orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-2', 'sell', 100_000_000, 97_000_000_000_000, 'gtc'), '{"instId":"BTC-USDT","tdMode":"cash","clOrdId":"0mwz4ka3500001oqx2","side":"sell","ordType":"limit","sz":"1","px":"97000"}');
    assert.equal(orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-3', 'buy', 1, null, 'ioc'), '{"instId":"BTC-USDT","tdMode":"cash","clOrdId":"0mwz4ka3500001oqx3","side":"buy","ordType":"market","sz":"0.00000001","tgtCcy":"base_ccy"}');
    assert.equal(orderBody('BTC-USDT', 'not-a-child', 'buy', 1, null, 'ioc'), undefined, 'no clOrdId: no order');
  });

  it('reads the place-order answer: accepted, refused per order, refused whole', () => {
    // Docs sample.
    assert.deepEqual(decodeOrderAck({ code: '0', msg: '', data: [{ clOrdId: 'oktswap6', ordId: '312269865356374016', tag: '', ts: '1695190491421', sCode: '0', sMsg: '', subCode: '' }], inTime: '1695190491421339', outTime: '1695190491423240' }), {
      ok: true,
      ordId: '312269865356374016',
      clOrdId: 'oktswap6',
    });
    assert.deepEqual(decodeOrderAck({ code: '1', msg: 'Operation failed.', data: [{ clOrdId: 'abcx1', ordId: '', tag: '', ts: '1695190491421', sCode: '51008', sMsg: 'Order failed. Insufficient USDT balance in account' }] }), {
      ok: false,
      code: '51008',
      reason: 'okx 51008: Order failed. Insufficient USDT balance in account',
      unknownOrder: false,
    });
    assert.deepEqual(decodeOrderAck({ code: '50011', msg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly.', data: [] }), {
      ok: false,
      code: '50011',
      reason: 'okx 50011: Rate limit reached. Please refer to API documentation and throttle requests accordingly.',
      unknownOrder: false,
    });
    const cancel = decodeOrderAck({ code: '1', msg: 'Operation failed.', data: [{ clOrdId: 'abcx1', ordId: '1', sCode: '51400', sMsg: 'Order cancellation failed as the order has been filled, canceled or does not exist.' }] });
    assert.equal(cancel?.ok === false && cancel.unknownOrder, true);
    assert.equal(decodeOrderAck({ status: 'FILLED' }), undefined);
  });

  it("reads an order's state and what rests; 'order does not exist' is 51603", () => {
    // Docs sample (a filled market buy sized in the quote currency: sz 100 USDT, accFillSz in BTC).
    const sample = {
      code: '0',
      data: [{ accFillSz: '0.00192834', avgPx: '51858', cTime: '1708587373361', clOrdId: '', fee: '-0.00000192834', feeCcy: 'BTC', fillPx: '51858', fillSz: '0.00192834', fillTime: '1708587373361', instId: 'BTC-USDT', instType: 'SPOT', ordId: '680800019749904384', ordType: 'market', px: '', side: 'buy', state: 'filled', sz: '100', tdMode: 'cash', tgtCcy: 'quote_ccy', tradeId: '744876980', uTime: '1708587373362' }],
      msg: '',
    };
    assert.deepEqual(decodeOrder(sample), { ordId: '680800019749904384', clOrdId: '', state: 'filled', filled_qty_1e8: 192_834, resting_qty_1e8: 0 });
    const resting = { code: '0', msg: '', data: [{ ordId: '1', clOrdId: 'abcx2', ordType: 'limit', state: 'partially_filled', sz: '0.5', accFillSz: '0.2' }] };
    assert.deepEqual(decodeOrder(resting), { ordId: '1', clOrdId: 'abcx2', state: 'partially_filled', filled_qty_1e8: 20_000_000, resting_qty_1e8: 30_000_000 });
    assert.equal(decodeOrder({ ...resting, data: [{ ...resting.data[0], state: 'canceled' }] })?.resting_qty_1e8, 0);
    const missing = { code: '51603', msg: 'Order does not exist.', data: [] };
    assert.equal(decodeOrder(missing), undefined);
    assert.deepEqual(okxError(missing), { code: '51603', msg: 'Order does not exist.' });
    assert.ok(NO_SUCH_ORDER.has('51603'));
    assert.equal(okxError(sample), undefined);
    assert.equal(decodeOrder({ code: '0', msg: '', data: [{ ...resting.data[0], state: 'some_new_state' }] }), undefined, 'an unknown state is not guessed at');
  });

  it('prices fills: a base fee at the fill price (rounded up past 8 places), quote as USD, a rebate, a third currency', () => {
    const fees = { base: 'BTC', quote: 'USDT', fallbackFee: () => 777 };
    // Docs sample: fee -0.00000192834 BTC (11 places) on 0.00192834 BTC at 51858.
    const sample = {
      code: '0',
      data: [{ side: 'buy', fillSz: '0.00192834', fillPx: '51858', fee: '-0.00000192834', fillPnl: '0', ordId: '680800019749904384', feeRate: '-0.001', instType: 'SPOT', instId: 'BTC-USDT', clOrdId: '', posSide: 'net', billId: '680800019754098688', subType: '1', tag: '', fillTime: '1708587373361', execType: 'T', tradeId: '744876980', feeCcy: 'BTC', ts: '1708587373362', tradeQuoteCcy: 'USDT' }],
      msg: '',
    };
    assert.deepEqual(decodeFills(sample, fees), [
      // 0.00000192834 x 51858 = 0.09999985572 USD: 99,999,855.72 -> 99,999,856; 192.834 sat -> 193.
      { price_1e9: 51_858_000_000_000, qty_1e8: 192_834, trade_id: '744876980', ts_ns: 1708587373361 * 1_000_000, fee_1e9: 99_999_856, commission: { asset: 'BTC', qty_1e8: 193 }, is_maker: false },
    ]);
    // Not from the docs: the same shape with a quote fee, a maker rebate and an OKB fee, newest first.
    const row = (tradeId: string, fillTime: string, fee: string, feeCcy: string, execType: string) => ({ ...sample.data[0], tradeId, fillTime, ts: fillTime, fee, feeCcy, execType });
    const three = { code: '0', msg: '', data: [row('12', '1708587373363', '-0.001', 'OKB', 'T'), row('11', '1708587373362', '0.01', 'USDT', 'M'), row('10', '1708587373362', '-0.0518580', 'USDT', 'T')] };
    const fills = decodeFills(three, fees);
    assert.ok(fills !== undefined);
    assert.deepEqual(fills.map((f) => [f.trade_id, f.fee_1e9, f.commission, f.is_maker]), [
      ['10', 51_858_000, undefined, false],
      ['11', -10_000_000, undefined, true],
      ['12', 777, { asset: 'OKB', qty_1e8: 100_000 }, false],
    ]);
    assert.deepEqual(legReportOf({ ordId: '1', clOrdId: '', state: 'filled', filled_qty_1e8: 3 * 192_834, resting_qty_1e8: 0 }, fills), { ok: true, reason: null, fills, resting_qty_1e8: 0 });
    assert.equal(decodeFills({ code: '0', msg: '', data: [{ ...sample.data[0], fillPx: '1e5' }] }, fees), undefined);
    assert.equal(decodeFills({ code: '50011', msg: 'Rate limit reached.', data: [] }, fees), undefined);
  });

  it('reads balances exactly past 2^53, rounded down past 8 places (docs sample: availBal with 12)', () => {
    const body = {
      code: '0',
      data: [
        {
          adjEq: '55415.624719833286',
          details: [
            { availBal: '4834.317093622894', availEq: '4834.3170936228935', cashBal: '4850.435693622894', ccy: 'USDT', eq: '4992.890093622894', frozenBal: '158.573' },
            // Not from the docs: a large balance, and an empty one.
            { availBal: '123456789012.12345678', cashBal: '123456789012.12345678', ccy: 'USDC', frozenBal: '0' },
            { availBal: '0', cashBal: '0', ccy: 'XRP', frozenBal: '0' },
          ],
          totalEq: '55837.43556134779',
          uTime: '1705474164160',
        },
      ],
      msg: '',
    };
    assert.deepEqual(decodeBalances(body), [
      { asset: 'USDT', free_1e8: 483_431_709_362n, locked_1e8: 15_857_300_000n },
      { asset: 'USDC', free_1e8: 12345678901212345678n, locked_1e8: 0n },
    ]);
    assert.equal(decodeBalances({ code: '0', msg: '', data: [{ details: [{ ccy: 'BTC', availBal: '1e3', frozenBal: '0' }] }] }), undefined);
    assert.equal(decodeBalances({ code: '50011', msg: '', data: [] }), undefined);
  });
});
