/**
 * The live Kraken adapter's pure core: the WebSocket v2 `book` channel kept whole (snapshot, then
 * updates, truncated to the subscribed depth, each checked against the CRC-32 of the top 10
 * levels in the venue's own text), and the REST/WebSocket codec.
 *
 * Samples, by source:
 *   - Kraken's v2 book checksum guide (https://docs.kraken.com/api/docs/guides/spot-ws-book-v2):
 *     the BTC/USD snapshot of 10 levels a side with checksum 3310070434, its asks and bids
 *     strings, and the token example "45285.2" / "0.00100000" -> "452852" + "100000". The
 *     levels and strings as quoted verbatim from the guide in public repositories (a Python
 *     check script and a Rust test, which agree); the CRC value is also node:zlib's of them.
 *   - Kraken's v1 book checksum guide (spot-ws-book-v1): the token example "0.05000" with
 *     volume "0.00000304" -> "5000304".
 *   - Kraken's v2 book channel page (docs.kraken.com/api/docs/websocket-v2/book): the subscribe
 *     request and its per-symbol acks.
 *   - Captured v2 traffic published in a public repository's research notes (not Kraken's docs):
 *     the wire writes numbers with trailing zeros (`"qty":0.00000000`, `"price":62807.0`), the
 *     `status` frame with a `connection_id` past 2^53, and the refused ack for depth 27.
 *   - Kraken's REST OpenAPI spec (github.com/krakenfx/api-specs, spot-rest/): AssetPairs
 *     (XETHXXBT, XXBTZUSD), AddOrder and CancelOrder answers, QueryOrders, OpenOrders and
 *     ClosedOrders examples, QueryTrades and TradesHistory examples, the Balance example, the
 *     BalanceEx fields, the cl_ord_id formats and their examples, the `oflags` (fciq/fcib).
 *   - Error strings: Kraken's "Spot Error Messages" guide (EGeneral:Invalid arguments,
 *     EAPI:Invalid key/signature/nonce, EOrder:Insufficient funds, ...) and its support article
 *     (EAPI:Rate limit exceeded, EOrder:Rate limit exceeded); 'EOrder:Unknown order' as CancelOrder
 *     answers an unknown txid (as ccxt and others handle it). Bodies around them are built here.
 *   - Anything else marked "not from the docs" is made up for the case it tests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { krakenApiSign } from '../../actors/edge/live/signing.ts';
import { CHECKSUM_LEVELS, KrakenBookSync, checksumToken, crc32Unsigned, type KrakenBookDepth } from '../../actors/edge/live/kraken/book-sync.ts';
import {
  addOrderBody,
  decodeTradeVolume,
  tradeVolumeBody,
  assetNames,
  balanceBody,
  bookSubscription,
  cancelAllBody,
  cancelOrderBody,
  childIdOfKraken,
  CL_ORD_ID,
  closedOrdersBody,
  decodeAck,
  decodeAddOrder,
  decodeAssetPairs,
  decodeBalances,
  decodeBookMessage,
  decodeCancel,
  decodeOrders,
  decodeTrades,
  formBody,
  krakenClientOrderId,
  krakenError,
  legReportOf,
  NO_SUCH_ORDER,
  openOrdersBody,
  orderTerms,
  priceStep1e9,
  queryOrdersBody,
  queryTradesBody,
  symbolOfWs,
  v2AssetName,
  wsSymbolOf,
  type KrakenInstrument,
} from '../../actors/edge/live/kraken/codec.ts';

type Level = [string, string];

/** A v2 `book` frame's text; numbers as JSON numbers (the wire) or, `quoted`, as strings (the guide's example). */
function frameText(type: 'snapshot' | 'update', symbol: string, bids: readonly Level[], asks: readonly Level[], checksum: number | null, quoted = false): string {
  const n = (t: string) => (quoted ? `"${t}"` : t);
  const side = (levels: readonly Level[]) => `[${levels.map(([p, q]) => `{"price":${n(p)},"qty":${n(q)}}`).join(',')}]`;
  const sum = checksum === null ? '' : `,"checksum":${checksum}`;
  return `{"channel":"book","type":"${type}","data":[{"symbol":"${symbol}","bids":${side(bids)},"asks":${side(asks)}${sum},"timestamp":"2023-10-06T17:35:55.440295Z"}]}`;
}

/** Decodes a one-symbol frame and feeds it to the sync. */
function push(sync: KrakenBookSync, text: string) {
  const decoded = decodeBookMessage(text);
  assert.ok(decoded !== undefined, 'a book message');
  assert.deepEqual(decoded.unreadable, []);
  return sync.onPush(decoded.type, decoded.data[0]!);
}

/** The reference checksum string, written independently of the sync: top 10 asks up, top 10 bids down. */
function referenceString(bids: readonly Level[], asks: readonly Level[]): string {
  const token = (t: string) => t.replace('.', '').replace(/^0+/, '');
  const part = (levels: readonly Level[]) =>
    levels
      .slice(0, 10)
      .map(([p, q]) => token(p) + token(q))
      .join('');
  return part(asks) + part(bids);
}

const zlibCrc = (text: string) => crc32(text) >>> 0;

// The guide's worked example: BTC/USD, pair_decimals 1, lot_decimals 8.
const GUIDE_BIDS: Level[] = [
  ['45283.5', '0.10000000'],
  ['45283.4', '1.54582015'],
  ['45282.1', '0.10000000'],
  ['45281.0', '0.10000000'],
  ['45280.3', '1.54592586'],
  ['45279.0', '0.07990000'],
  ['45277.6', '0.03310103'],
  ['45277.5', '0.30000000'],
  ['45277.3', '1.54602737'],
  ['45276.6', '0.15445238'],
];
const GUIDE_ASKS: Level[] = [
  ['45285.2', '0.00100000'],
  ['45286.4', '1.54571953'],
  ['45286.6', '1.54571109'],
  ['45289.6', '1.54560911'],
  ['45290.2', '0.15890660'],
  ['45291.8', '1.54553491'],
  ['45294.7', '0.04454749'],
  ['45296.1', '0.35380000'],
  ['45297.5', '0.09945542'],
  ['45299.5', '0.18772827'],
];
const GUIDE_ASKS_STRING = '45285210000045286415457195345286615457110945289615456091145290215890660452918154553491452947445474945296135380000452975994554245299518772827';
const GUIDE_BIDS_STRING = '452835100000004528341545820154528211000000045281010000000452803154592586452790799000045277633101034527753000000045277315460273745276615445238';
const GUIDE_CHECKSUM = 3310070434;

describe('Kraken book checksum', () => {
  it("writes each number as the guides do: the point removed, then leading zeros", () => {
    assert.equal(checksumToken('45285.2') + checksumToken('0.00100000'), '452852100000', 'v2 guide');
    assert.equal(checksumToken('0.05000') + checksumToken('0.00000304'), '5000304', 'v1 guide');
    assert.equal(checksumToken('45281.0'), '452810', 'a trailing zero stays');
    assert.equal(checksumToken('100'), '100');
  });

  it('is zlib CRC-32, unsigned (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 400 }), (text) => {
        assert.equal(crc32Unsigned(text), zlibCrc(text));
      }),
      { numRuns: 300 },
    );
  });

  it("reproduces the v2 guide's worked example exactly: the strings and 3310070434", () => {
    assert.equal(referenceString(GUIDE_BIDS, GUIDE_ASKS), GUIDE_ASKS_STRING + GUIDE_BIDS_STRING, 'the reference agrees with the guide');
    assert.equal(zlibCrc(GUIDE_ASKS_STRING + GUIDE_BIDS_STRING), GUIDE_CHECKSUM);
    // As the guide prints it (strings, "using json string decoder") and as the wire sends it (JSON numbers).
    for (const quoted of [true, false]) {
      const book = new L2Book();
      const changes: number[] = [];
      const sync = new KrakenBookSync(book, changes);
      assert.equal(push(sync, frameText('snapshot', 'BTC/USD', GUIDE_BIDS, GUIDE_ASKS, GUIDE_CHECKSUM, quoted)), 'synced');
      assert.equal(sync.checksumText(), GUIDE_ASKS_STRING + GUIDE_BIDS_STRING);
      assert.equal(sync.checksum(), GUIDE_CHECKSUM);
      assert.equal(changes.length, 0, 'a sync publishes the whole book');
      assert.deepEqual(book.flat(Side.BID, 2), [45_283_500_000_000, 10_000_000, 45_283_400_000_000, 154_582_015]);
      assert.deepEqual(book.flat(Side.ASK, 1), [45_285_200_000_000, 100_000]);
    }
  });

  it('hashes the numbers as written: the same levels parsed as floats and printed back fail the check', () => {
    const trimmed = (levels: Level[]): Level[] => levels.map(([p, q]) => [String(Number(p)), String(Number(q))]);
    assert.equal(trimmed(GUIDE_BIDS)[0]![1], '0.1');
    const sync = new KrakenBookSync(new L2Book(), []);
    assert.equal(push(sync, frameText('snapshot', 'BTC/USD', trimmed(GUIDE_BIDS), trimmed(GUIDE_ASKS), GUIDE_CHECKSUM)), 'gap');
    assert.equal(sync.synced, false);
  });

  it('an update on the guide book is checked against the independently built string; a wrong checksum is a gap, its levels unpublished', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new KrakenBookSync(book, changes);
    push(sync, frameText('snapshot', 'BTC/USD', GUIDE_BIDS, GUIDE_ASKS, GUIDE_CHECKSUM));
    const bids: Level[] = [['45283.5', '0.20000000'], ...GUIDE_BIDS.slice(1)];
    const asks = GUIDE_ASKS.slice(1);
    const good = zlibCrc(referenceString(bids, asks));
    assert.equal(push(sync, frameText('update', 'BTC/USD', [['45283.5', '0.20000000']], [['45285.2', '0.00000000']], good)), 'applied');
    assert.deepEqual(changes, [Side.BID, 45_283_500_000_000, 20_000_000, Side.ASK, 45_285_200_000_000, 0]);
    assert.equal(book.best(Side.ASK), 45_286_400_000_000);
    changes.length = 0;
    changes.push(Side.BID, 1, 1);
    const bad = push(sync, frameText('update', 'BTC/USD', [['45283.5', '0.30000000']], [], (good ^ 1) >>> 0));
    assert.equal(bad, 'gap');
    assert.deepEqual(changes, [Side.BID, 1, 1], 'what was there before stays, the message is taken back');
    assert.equal(sync.synced, false);
    assert.equal(book.depth(Side.BID), 0, 'never a book known to be wrong');
    assert.equal(push(sync, frameText('update', 'BTC/USD', [['45283.5', '0.40000000']], [], 1)), 'buffered', 'nothing to build on until the resubscription snapshot');
    assert.equal(push(sync, frameText('snapshot', 'BTC/USD', GUIDE_BIDS, GUIDE_ASKS, GUIDE_CHECKSUM)), 'synced');
  });

  it('truncates to the subscribed depth after each message, publishing what fell out as removed', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new KrakenBookSync(book, changes, 10);
    push(sync, frameText('snapshot', 'BTC/USD', GUIDE_BIDS, GUIDE_ASKS, GUIDE_CHECKSUM));
    // A new best bid: the venue's depth-10 book loses its 10th bid without saying so.
    const bids: Level[] = [['45284.0', '1.00000000'], ...GUIDE_BIDS.slice(0, 9)];
    assert.equal(push(sync, frameText('update', 'BTC/USD', [['45284.0', '1.00000000']], [], zlibCrc(referenceString(bids, GUIDE_ASKS)))), 'applied');
    assert.equal(book.depth(Side.BID), 10);
    assert.deepEqual(changes, [Side.BID, 45_284_000_000_000, 100_000_000, Side.BID, 45_276_600_000_000, 0]);
    // Had it been kept, it would now rank in the top 10 the checksum covers, and differ from the venue.
    changes.length = 0;
    const after = bids.slice(1);
    assert.equal(push(sync, frameText('update', 'BTC/USD', [['45284.0', '0.00000000']], [], zlibCrc(referenceString(after, GUIDE_ASKS)))), 'applied');
    assert.equal(book.depth(Side.BID), 9);
  });

  it('covers the top 10 of each side whatever the depth; levels past them are kept to the depth', () => {
    const bids: Level[] = Array.from({ length: 25 }, (_, i) => [`${1000 - i}.0`, '1.00000000']);
    const asks: Level[] = Array.from({ length: 30 }, (_, i) => [`${1001 + i}.0`, '2.00000000']);
    const sync = new KrakenBookSync(new L2Book(), [], 25);
    assert.equal(push(sync, frameText('snapshot', 'BTC/USD', bids, asks, zlibCrc(referenceString(bids, asks)))), 'synced');
    assert.equal(sync.checksumText(), referenceString(bids, asks));
    assert.equal(sync.depth, 25);
    assert.equal(CHECKSUM_LEVELS, 10);
  });

  it('a message without a checksum is taken as sent; the next one checks the book again', () => {
    const sync = new KrakenBookSync(new L2Book(), []);
    assert.equal(push(sync, frameText('snapshot', 'BTC/USD', GUIDE_BIDS, GUIDE_ASKS, null)), 'synced');
    assert.equal(push(sync, frameText('update', 'BTC/USD', [], [], GUIDE_CHECKSUM)), 'applied');
    assert.equal(push(sync, frameText('update', 'BTC/USD', [], [], 12345)), 'gap');
  });

  it('random level updates with true checksums give the reference book truncated to depth; a tampered checksum is a gap (property)', () => {
    type Op = { bid: boolean; tick: number; qty: number };
    const op = fc.record({ bid: fc.boolean(), tick: fc.integer({ min: 1, max: 40 }), qty: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_000_000 })) });
    const step = fc.record({ ops: fc.array(op, { maxLength: 6 }), quoted: fc.boolean() });
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 5),
        fc.constantFrom<KrakenBookDepth>(10, 25),
        fc.array(op, { maxLength: 60 }),
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        (pd, depth, initial, steps, at) => {
          // The venue: text per price, as the wire writes it (fixed decimals, trailing zeros kept).
          const unit = 10 ** pd;
          const mid = 2_000 * unit;
          const pxText = (units: number) => `${Math.floor(units / unit)}.${String(units % unit).padStart(pd, '0')}`;
          const qtyText = (q: number) => `${Math.floor(q / 1e8)}.${String(q % 1e8).padStart(8, '0')}`;
          const level = (o: Op): Level => [pxText(o.bid ? mid - o.tick : mid + o.tick), qtyText(o.qty)];
          const model = [new Map<number, Level>(), new Map<number, Level>()];
          const key = (l: Level) => Math.round(Number(l[0]) * unit);
          const sorted = (side: Side) => [...model[side]!].sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0])).map(([, l]) => l);
          const applyOp = (side: Side, l: Level) => (Number(l[1]) === 0 ? model[side]!.delete(key(l)) : model[side]!.set(key(l), l));
          const truncate = () => {
            for (const side of [Side.BID, Side.ASK]) for (const l of sorted(side).slice(depth)) model[side]!.delete(key(l));
          };
          const checksum = () => zlibCrc(referenceString(sorted(Side.BID), sorted(Side.ASK)));
          const flat = (side: Side) => sorted(side).flatMap(([p, q]) => [Math.round(Number(p) * unit) * (1e9 / unit), Math.round(Number(q) * 1e8)]);

          for (const o of initial) if (o.qty > 0) applyOp(o.bid ? Side.BID : Side.ASK, level(o));
          truncate();
          const frames = [frameText('snapshot', 'BTC/USD', sorted(Side.BID), sorted(Side.ASK), checksum())];
          const books: number[][][] = [];
          for (const s of steps) {
            const bids = s.ops.filter((o) => o.bid).map(level);
            const asks = s.ops.filter((o) => !o.bid).map(level);
            for (const l of bids) applyOp(Side.BID, l);
            for (const l of asks) applyOp(Side.ASK, l);
            truncate();
            frames.push(frameText('update', 'BTC/USD', bids, asks, checksum(), s.quoted));
            books.push([flat(Side.BID), flat(Side.ASK)]);
          }

          // The whole stream applies; the book is the venue's, and its published changes rebuild it.
          const book = new L2Book();
          const changes: number[] = [];
          const sync = new KrakenBookSync(book, changes, depth);
          assert.equal(push(sync, frames[0]!), 'synced');
          const shadow = new L2Book();
          for (const side of [Side.BID, Side.ASK]) {
            const levels = book.flat(side, 10_000);
            for (let i = 0; i < levels.length; i += 2) shadow.set(side, levels[i]!, levels[i + 1]!);
          }
          for (let i = 1; i < frames.length; i++) {
            changes.length = 0;
            assert.equal(push(sync, frames[i]!), 'applied', `update ${i}`);
            assert.deepEqual(book.flat(Side.BID, 10_000), books[i - 1]![0]);
            assert.deepEqual(book.flat(Side.ASK, 10_000), books[i - 1]![1]);
            for (let c = 0; c < changes.length; c += 3) shadow.set(changes[c] as Side, changes[c + 1]!, changes[c + 2]!);
            assert.deepEqual(shadow.flat(Side.BID, 10_000), books[i - 1]![0], 'the published changes rebuild the bids');
            assert.deepEqual(shadow.flat(Side.ASK, 10_000), books[i - 1]![1], 'and the asks');
          }

          // The same stream with one checksum altered: a gap there, and nothing whole after it.
          const k = at % frames.length;
          const tampered = frames[k]!.replace(/"checksum":(\d+)/, (_, c: string) => `"checksum":${(Number(c) ^ 1) >>> 0}`);
          const again = new KrakenBookSync(new L2Book(), [], depth);
          for (let i = 0; i < k; i++) push(again, frames[i]!);
          assert.equal(push(again, tampered), 'gap');
          assert.equal(again.synced, false);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('Kraken v2 book messages', () => {
  it('keeps the text of JSON numbers, including trailing zeros (captured wire frame, not from the docs)', () => {
    const text = '{"channel":"book","type":"update","data":[{"symbol":"BTC/USD","bids":[],"asks":[{"price":62807.0,"qty":0.00000000},{"price":62818.8,"qty":0.65540712}],"checksum":4249465476,"timestamp":"2026-08-16T23:37:03.745044Z"}]}';
    const decoded = decodeBookMessage(text);
    assert.ok(decoded !== undefined);
    assert.equal(decoded.type, 'update');
    const d = decoded.data[0]!;
    assert.deepEqual(d.asks, [62_807_000_000_000, 0, 62_818_800_000_000, 65_540_712]);
    assert.deepEqual(d.askText, ['62807.0', '0.00000000', '62818.8', '0.65540712']);
    assert.deepEqual([d.symbol, d.bids, d.checksum, d.ts_ms], ['BTC/USD', [], 4249465476, Date.parse('2026-08-16T23:37:03.745Z')]);
  });

  it('reads every symbol of a message; an entry it cannot read exactly is reported, not rounded', () => {
    const text =
      '{"channel":"book","type":"update","data":[' +
      '{"symbol":"BTC/USD","bids":[{"price":45283.5,"qty":0.50000000}],"asks":[],"checksum":1},' +
      '{"symbol":"ETH/USD","bids":[{"price":2000.1,"qty":1e-8}],"asks":[],"checksum":2},' +
      '{"symbol":"SOL/USD","bids":[],"asks":[{"price":150.25,"qty":0.000000001}],"checksum":3},' +
      '{"symbol":"XRP/USD","bids":[{"price":0,"qty":1}],"asks":[],"checksum":4},' +
      '{"symbol":"ADA/USD","bids":[],"asks":[],"checksum":4294967296},' +
      '{"symbol":"DOT/USD","asks":[{"price":5.1234,"qty":10.00000000}]}]}';
    const decoded = decodeBookMessage(text);
    assert.ok(decoded !== undefined);
    assert.deepEqual(decoded.unreadable, ['ETH/USD', 'SOL/USD', 'XRP/USD', 'ADA/USD']);
    assert.deepEqual(
      decoded.data.map((d) => [d.symbol, d.bids, d.asks, d.checksum, d.ts_ms]),
      [
        ['BTC/USD', [45_283_500_000_000, 50_000_000], [], 1, null],
        ['DOT/USD', [], [5_123_400_000, 1_000_000_000], null, null],
      ],
    );
  });

  it('is not fooled by other frames, nor by a "price" inside a string', () => {
    // Captured status frame (connection_id past 2^53), the heartbeat, the docs' subscribe ack.
    assert.equal(decodeBookMessage('{"channel":"status","type":"update","data":[{"version":"2.0.10","system":"online","api_version":"v2","connection_id":15113583034416118705}]}'), undefined);
    assert.equal(decodeBookMessage('{"channel":"heartbeat"}'), undefined);
    assert.equal(decodeBookMessage('{"method":"subscribe","result":{"channel":"book","depth":10,"snapshot":true,"symbol":"ALGO/USD"},"success":true,"time_in":"2023-10-06T17:35:55.219022Z","time_out":"2023-10-06T17:35:55.219067Z"}'), undefined);
    assert.equal(decodeBookMessage('{"channel":"book","type":"snapshot","data":[{"symbol":"BTC/USD","bids":[{"price":1'), undefined, 'cut short');
    const tricky = '{"channel":"book","type":"snapshot","data":[{"symbol":"A\\",\\"price\\":1","bids":[{"price":1.50,"qty":2.0}],"asks":[]}]}';
    const decoded = decodeBookMessage(tricky);
    assert.equal(decoded?.data[0]?.symbol, 'A","price":1');
    assert.deepEqual(decoded?.data[0]?.bidText, ['1.50', '2.0']);
  });

  it('builds the subscription and reads its answers (docs: one ack per symbol; captured: a refused depth)', () => {
    assert.equal(bookSubscription('subscribe', ['BTC/USD', 'ETH/USDT']), '{"method":"subscribe","params":{"channel":"book","symbol":["BTC/USD","ETH/USDT"],"depth":10}}');
    assert.equal(bookSubscription('unsubscribe', ['BTC/USD'], 25), '{"method":"unsubscribe","params":{"channel":"book","symbol":["BTC/USD"],"depth":25}}');
    assert.deepEqual(
      decodeAck({ method: 'subscribe', result: { channel: 'book', depth: 10, snapshot: true, symbol: 'MATIC/USD' }, success: true, time_in: '2023-10-06T17:35:55.219022Z', time_out: '2023-10-06T17:35:55.219067Z' }),
      { method: 'subscribe', success: true, channel: 'book', symbol: 'MATIC/USD', error: null },
    );
    assert.deepEqual(decodeAck({ error: 'Subscription depth not supported', method: 'subscribe', success: false, time_in: '2026-08-16T23:54:19.629313Z', time_out: '2026-08-16T23:54:19.629343Z' }), {
      method: 'subscribe',
      success: false,
      channel: null,
      symbol: null,
      error: 'Subscription depth not supported',
    });
    assert.equal(decodeAck({ channel: 'heartbeat' }), undefined);
  });
});

describe('Kraken symbols and instruments', () => {
  // The spec's AssetPairs example (XETHXXBT, XXBTZUSD), its fee schedules cut; the rest is not from the docs.
  const schedule = { fees: [[0, 0.26]], fees_maker: [[0, 0.16]], fee_volume_currency: 'ZUSD', margin_call: 80, margin_stop: 40 };
  const assetPairs = {
    error: [],
    result: {
      XETHXXBT: { altname: 'ETHXBT', wsname: 'ETH/XBT', aclass_base: 'currency', base: 'XETH', aclass_quote: 'currency', quote: 'XXBT', lot: 'unit', cost_decimals: 6, pair_decimals: 5, lot_decimals: 8, lot_multiplier: 1, leverage_buy: [2, 3, 4, 5], leverage_sell: [2, 3, 4, 5], ...schedule, ordermin: '0.01', costmin: '0.00002', tick_size: '0.00001', status: 'online', long_position_limit: 1100, short_position_limit: 400 },
      XXBTZUSD: { altname: 'XBTUSD', wsname: 'XBT/USD', aclass_base: 'currency', base: 'XXBT', aclass_quote: 'currency', quote: 'ZUSD', lot: 'unit', cost_decimals: 5, pair_decimals: 1, lot_decimals: 8, lot_multiplier: 1, leverage_buy: [2, 3, 4, 5], leverage_sell: [2, 3, 4, 5], ...schedule, ordermin: '0.0001', costmin: '0.5', tick_size: '0.1', status: 'online', long_position_limit: 250, short_position_limit: 200 },
      XBTUSDT: { altname: 'XBTUSDT', wsname: 'XBT/USDT', base: 'XXBT', quote: 'USDT', pair_decimals: 1, lot_decimals: 8, ordermin: '0.00005', costmin: '0.5', tick_size: '0.1', status: 'online' },
      XDGUSD: { altname: 'XDGUSD', wsname: 'XDG/USD', base: 'XXDG', quote: 'ZUSD', pair_decimals: 7, lot_decimals: 8, ordermin: '10', tick_size: '0.0000001', status: 'cancel_only' },
      PEPEUSD: { altname: 'PEPEUSD', wsname: 'PEPE/USD', base: 'PEPE', quote: 'ZUSD', pair_decimals: 10, lot_decimals: 2, ordermin: '1', tick_size: '0.0000000001', status: 'online' },
      'XBTUSD.d': { altname: 'XBTUSD.d', base: 'XXBT', quote: 'ZUSD', pair_decimals: 1, lot_decimals: 8 },
      AAPLxUSD: { altname: 'AAPLxUSD', wsname: 'AAPLx/USD', aclass_base: 'tokenized_asset', base: 'AAPLx', quote: 'ZUSD', pair_decimals: 2, lot_decimals: 8 },
    },
  };

  it('maps our symbols to v2 symbols and back; REST wsname codes to v2 names', () => {
    assert.equal(wsSymbolOf('BTC-USD'), 'BTC/USD');
    assert.equal(wsSymbolOf('BTC-USDT'), 'BTC/USDT');
    assert.equal(symbolOfWs('ETH/USD'), 'ETH-USD');
    assert.deepEqual(['XBT', 'XDG', 'ETH', 'USDT'].map(v2AssetName), ['BTC', 'DOGE', 'ETH', 'USDT']);
  });

  it('reads AssetPairs into engine units, under our symbols and v2 symbols (spec example and others)', () => {
    const instruments = decodeAssetPairs(assetPairs);
    assert.deepEqual(instruments, [
      { symbol: 'ETH-BTC', wsSymbol: 'ETH/BTC', pair: 'XETHXXBT', altname: 'ETHXBT', base: 'ETH', quote: 'BTC', baseId: 'XETH', quoteId: 'XXBT', status: 'online', trading: true, price_decimals: 5, lot_decimals: 8, tick_1e9: 10_000, lot_1e8: 1, min_qty_1e8: 1_000_000, min_cost_1e9: 20_000 },
      { symbol: 'BTC-USD', wsSymbol: 'BTC/USD', pair: 'XXBTZUSD', altname: 'XBTUSD', base: 'BTC', quote: 'USD', baseId: 'XXBT', quoteId: 'ZUSD', status: 'online', trading: true, price_decimals: 1, lot_decimals: 8, tick_1e9: 100_000_000, lot_1e8: 1, min_qty_1e8: 10_000, min_cost_1e9: 500_000_000 },
      { symbol: 'BTC-USDT', wsSymbol: 'BTC/USDT', pair: 'XBTUSDT', altname: 'XBTUSDT', base: 'BTC', quote: 'USDT', baseId: 'XXBT', quoteId: 'USDT', status: 'online', trading: true, price_decimals: 1, lot_decimals: 8, tick_1e9: 100_000_000, lot_1e8: 1, min_qty_1e8: 5_000, min_cost_1e9: 500_000_000 },
      { symbol: 'DOGE-USD', wsSymbol: 'DOGE/USD', pair: 'XDGUSD', altname: 'XDGUSD', base: 'DOGE', quote: 'USD', baseId: 'XXDG', quoteId: 'ZUSD', status: 'cancel_only', trading: false, price_decimals: 7, lot_decimals: 8, tick_1e9: 100, lot_1e8: 1, min_qty_1e8: 1_000_000_000, min_cost_1e9: 0 },
    ]);
    assert.deepEqual([...assetNames(instruments)], [['XETH', 'ETH'], ['XXBT', 'BTC'], ['ZUSD', 'USD'], ['USDT', 'USDT'], ['XXDG', 'DOGE']]);
    assert.deepEqual(decodeAssetPairs({ error: ['EGeneral:Internal error'] }), []);
    assert.deepEqual(decodeAssetPairs({ error: [], result: [] }), []);
  });

  it('the price step is the tick, or finer ticks stopped at pair_decimals', () => {
    const [ethxbt, xbtusd] = decodeAssetPairs(assetPairs);
    assert.equal(priceStep1e9(xbtusd!), 100_000_000);
    assert.equal(priceStep1e9(ethxbt!), 10_000);
    assert.equal(priceStep1e9({ ...xbtusd!, tick_1e9: 500_000_000 }), 500_000_000, 'a tick of 0.5');
    assert.equal(priceStep1e9({ ...xbtusd!, tick_1e9: 10_000_000 }), 100_000_000, 'a tick finer than pair_decimals: the decimals win');
  });
});

describe('Kraken client order ids', () => {
  const LONG_UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('our child ids are too long for free text (18), so they travel as a v4-shaped UUID starting 5e9ce', () => {
    assert.equal('ord_0mwz4ka3500001oq-1'.length, 22);
    assert.equal(CL_ORD_ID.test('ord_0mwz4ka3500001oq-1'), false);
    const id = krakenClientOrderId('ord_0mwz4ka3500001oq-1');
    assert.equal(id, '5e9ce000-106d-4500-a9db-d8248293b100');
    assert.match(id!, LONG_UUID_V4);
    assert.ok(CL_ORD_ID.test(id!));
    assert.equal(childIdOfKraken(id!), 'ord_0mwz4ka3500001oq-1');
  });

  it("accepts the spec's three formats; reads our ids back in either UUID spelling and case", () => {
    for (const ok of ['6d1b345e-2821-40e2-ad83-4ecb18a06876', 'da8e4ad59b78481c93e589746b0cf91f', 'arb-20240509-00010']) assert.ok(CL_ORD_ID.test(ok), ok);
    assert.equal(CL_ORD_ID.test('arb-20240509-000100'), false, '19 characters of free text');
    const id = krakenClientOrderId('ord_0mwz4ka3500001oq-12')!;
    assert.equal(childIdOfKraken(id.replace(/-/g, '')), 'ord_0mwz4ka3500001oq-12');
    assert.equal(childIdOfKraken(id.toUpperCase()), 'ord_0mwz4ka3500001oq-12');
  });

  it('round-trips every child id the store can make, and never maps two to one (property)', () => {
    const b36 = fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyz');
    const b62 = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    const child = fc.tuple(fc.string({ unit: b36, minLength: 13, maxLength: 13 }), fc.string({ unit: b62, minLength: 3, maxLength: 3 }), fc.integer({ min: 0, max: 65_535 })).map(([t, s, n]) => `ord_${t}${s}-${n}`);
    fc.assert(
      fc.property(child, child, (a, b) => {
        const ia = krakenClientOrderId(a);
        const ib = krakenClientOrderId(b);
        assert.ok(ia !== undefined && ib !== undefined);
        assert.match(ia, LONG_UUID_V4);
        assert.equal(childIdOfKraken(ia), a);
        assert.equal(ia === ib, a === b);
      }),
      { numRuns: 2_000 },
    );
  });

  it('maps the node order ids the store makes (9 base36 of ms, 4 of sequence, 3 base62)', () => {
    const id = `ord_${(1_760_000_000_000).toString(36).padStart(9, '0')}00zzQ7x-999`;
    assert.equal(childIdOfKraken(krakenClientOrderId(id)!), id);
    assert.equal(childIdOfKraken(krakenClientOrderId('ord_zzzzzzzzzzzzzzzz-65535')!), 'ord_zzzzzzzzzzzzzzzz-65535');
  });

  it('refuses ids it cannot map, and takes no foreign UUID or text for ours', () => {
    for (const bad of ['ord_0mwz4ka3500001oq', 'ord_0mwz4ka3500001o-1', 'ord_0mwz4ka3500001oqq-1', 'ord_0mwZ4ka3500001oq-1', 'ord_0mwz4ka3500001oq-01', 'ord_0mwz4ka3500001oq-65536', 'ord_0mwz4ka3500001oq-', '0mwz4ka3500001oq-1', ''])
      assert.equal(krakenClientOrderId(bad), undefined, bad);
    for (const foreign of ['6d1b345e-2821-40e2-ad83-4ecb18a06876', 'da8e4ad59b78481c93e589746b0cf91f', '9cc788d8-9c00-4b25-94d3-26d93603948d', 'arb-20240509-00010', 'my-client-order-id', ''])
      assert.equal(childIdOfKraken(foreign), undefined, foreign);
    const ours = krakenClientOrderId('ord_0mwz4ka3500001oq-1')!;
    assert.equal(childIdOfKraken(`${ours.slice(0, 14)}3${ours.slice(15)}`), undefined, 'version nibble not 4');
    assert.equal(childIdOfKraken(`${ours.slice(0, 19)}c${ours.slice(20)}`), undefined, 'variant not 10');
    assert.equal(childIdOfKraken(`${ours.slice(0, 8)}x${ours.slice(9)}`), undefined, 'no dash where one belongs');
    // A UUID whose first 20 bits are not the tag is never ours, whatever the rest.
    fc.assert(
      fc.property(fc.uuid({ version: 4 }), (u) => {
        if (u.startsWith('5e9ce')) return;
        assert.equal(childIdOfKraken(u), undefined);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('Kraken private request bodies', () => {
  const [ethxbt, xbtusd] = decodeAssetPairs({
    error: [],
    result: {
      XETHXXBT: { altname: 'ETHXBT', wsname: 'ETH/XBT', base: 'XETH', quote: 'XXBT', pair_decimals: 5, lot_decimals: 8, ordermin: '0.01', costmin: '0.00002', tick_size: '0.00001', status: 'online' },
      XXBTZUSD: { altname: 'XBTUSD', wsname: 'XBT/USD', base: 'XXBT', quote: 'ZUSD', pair_decimals: 1, lot_decimals: 8, ordermin: '0.0001', costmin: '0.5', tick_size: '0.1', status: 'online' },
    },
  }) as [KrakenInstrument, KrakenInstrument];

  it('form-encodes fields in order, nonce first', () => {
    assert.equal(formBody([['nonce', '1616492376594'], ['txid', 'A,B'], ['x', 'a b&c']]), 'nonce=1616492376594&txid=A%2CB&x=a%20b%26c');
  });

  it('builds AddOrder: limit IOC/GTC priced to the pair, market in base, fee in quote, our cl_ord_id', () => {
    const child = 'ord_0mwz4ka3500001oq-1';
    const clOrdId = krakenClientOrderId(child)!;
    const ioc = orderTerms(xbtusd, 'buy', 125_000_000, 37_500_040_000_000);
    assert.deepEqual(ioc, { ok: true, terms: { volume_1e8: 125_000_000, price_1e9: 37_500_000_000_000 } }, 'a buy limit down to the 0.1 tick');
    assert.ok(ioc.ok);
    const body = addOrderBody('1616492376594', xbtusd, child, 'buy', ioc.terms, 'ioc');
    assert.equal(body, `nonce=1616492376594&ordertype=limit&type=buy&volume=1.25&pair=XBTUSD&price=37500&timeinforce=IOC&oflags=fciq&cl_ord_id=${clOrdId}`);
    // The signature covers these bytes (the REST guide's secret; the signature itself is held to its example in venue-signing).
    assert.match(krakenApiSign('/0/private/AddOrder', '1616492376594', body!, 'kQH5HW/8p1uGOVjbgWA7FunAmGO8lsSUXNsu3eow76sz84Q18fWxnyRzBHCd3pd5nE9qa99HAZtuZuj6F1huXg=='), /^[A-Za-z0-9+/]{86}==$/);
    const gtc = orderTerms(xbtusd, 'sell', 150_000, 96_000_010_000_000);
    assert.deepEqual(gtc, { ok: true, terms: { volume_1e8: 150_000, price_1e9: 96_000_100_000_000 } }, 'a sell limit up to the tick');
    assert.ok(gtc.ok);
    assert.equal(addOrderBody('2', xbtusd, child, 'sell', gtc.terms, 'gtc'), `nonce=2&ordertype=limit&type=sell&volume=0.0015&pair=XBTUSD&price=96000.1&timeinforce=GTC&oflags=fciq&cl_ord_id=${clOrdId}`);
    const market = orderTerms(xbtusd, 'buy', 10_000, null);
    assert.ok(market.ok);
    assert.equal(addOrderBody('3', xbtusd, child, 'buy', market.terms, 'ioc'), `nonce=3&ordertype=market&type=buy&volume=0.0001&pair=XBTUSD&oflags=fciq&cl_ord_id=${clOrdId}`);
    assert.equal(addOrderBody('4', xbtusd, 'not-a-child', 'buy', market.terms, 'ioc'), undefined, 'no cl_ord_id: no order');
    // The deadline goes last, percent-encoded as a form value.
    assert.equal(addOrderBody('6', xbtusd, child, 'buy', market.terms, 'ioc', '2026-11-27T18:00:05.000Z'), `nonce=6&ordertype=market&type=buy&volume=0.0001&pair=XBTUSD&oflags=fciq&cl_ord_id=${clOrdId}&deadline=2026-11-27T18%3A00%3A05.000Z`);
    const ethBtc = orderTerms(ethxbt, 'buy', 1_000_000, 51_234_567);
    assert.ok(ethBtc.ok);
    assert.match(addOrderBody('5', ethxbt, child, 'buy', ethBtc.terms, 'gtc')!, /&volume=0.01&pair=ETHXBT&price=0.05123&/);
  });

  it('refuses what Kraken would: below the lot, ordermin or costmin', () => {
    assert.deepEqual(orderTerms({ ...xbtusd, lot_1e8: 1_000, lot_decimals: 5 }, 'buy', 999, 1), { ok: false, reason: "below Kraken's lot size for XBTUSD (0.00001)" });
    assert.deepEqual(orderTerms(xbtusd, 'buy', 9_999, 100_000_000_000_000), { ok: false, reason: "below Kraken's minimum order size for XBTUSD (ordermin 0.0001)" });
    assert.deepEqual(orderTerms(xbtusd, 'sell', 10_000, 4_000_000_000_000), { ok: false, reason: "below Kraken's minimum order cost for XBTUSD (costmin 0.5 USD)" }, '0.0001 at 4000 is 0.4 USD');
    assert.equal(orderTerms(xbtusd, 'sell', 10_000, 5_000_000_000_000).ok, true, '0.0001 at 5000 is 0.5 USD');
    assert.deepEqual(orderTerms(xbtusd, 'buy', 12_345, 10_000_000_000_000), { ok: true, terms: { volume_1e8: 12_345, price_1e9: 10_000_000_000_000 } });
    assert.deepEqual(orderTerms(xbtusd, 'buy', 10_000, 50_000_000), { ok: false, reason: "limit below Kraken's price step for XBTUSD" });
  });

  it('builds the other private bodies', () => {
    const clOrdId = krakenClientOrderId('ord_0mwz4ka3500001oq-1')!;
    assert.equal(cancelOrderBody('7', { cl_ord_id: clOrdId }), `nonce=7&cl_ord_id=${clOrdId}`);
    assert.equal(cancelOrderBody('7', { txid: 'OYVGEW-VYV5B-UUEXSK' }), 'nonce=7&txid=OYVGEW-VYV5B-UUEXSK');
    assert.equal(cancelAllBody('8'), 'nonce=8');
    assert.equal(openOrdersBody('9'), 'nonce=9&trades=true');
    assert.equal(openOrdersBody('9', clOrdId), `nonce=9&trades=true&cl_ord_id=${clOrdId}`);
    assert.equal(closedOrdersBody('10', clOrdId), `nonce=10&trades=true&cl_ord_id=${clOrdId}&consolidate_taker=false`);
    assert.equal(queryOrdersBody('11', ['OBCMZD-JIEE7-77TH3F', 'OMMDB2-FSB6Z-7W3HPO']), 'nonce=11&txid=OBCMZD-JIEE7-77TH3F%2COMMDB2-FSB6Z-7W3HPO&trades=true&consolidate_taker=false');
    assert.equal(queryTradesBody('12', ['THVRQM-33VKH-UCI7BS']), 'nonce=12&txid=THVRQM-33VKH-UCI7BS');
    assert.equal(balanceBody('13'), 'nonce=13');
    assert.throws(() => queryOrdersBody('1', []), RangeError);
    assert.throws(() => queryOrdersBody('1', Array.from({ length: 51 }, (_, i) => `O${i}`)), RangeError);
    assert.throws(() => queryTradesBody('1', Array.from({ length: 21 }, (_, i) => `T${i}`)), RangeError);
  });
});

describe('Kraken REST answers', () => {
  it('reads the error envelope: E entries refuse, W entries are warnings', () => {
    assert.deepEqual(krakenError({ error: ['EGeneral:Invalid arguments'], result: {} }), { errors: ['EGeneral:Invalid arguments'], reason: 'kraken EGeneral:Invalid arguments', kind: 'refused', unknownOrder: false });
    const kinds: [string, string, boolean][] = [
      ['EOrder:Unknown order', 'unknown-order', true],
      ['EOrder:Invalid order', 'unknown-order', true],
      ['EAPI:Invalid key', 'auth', false],
      ['EAPI:Invalid signature', 'auth', false],
      ['EGeneral:Permission denied', 'auth', false],
      ['EAPI:Invalid nonce', 'nonce', false],
      ['EAPI:Rate limit exceeded', 'rate-limit', false],
      ['EOrder:Rate limit exceeded', 'rate-limit', false],
      ['EGeneral:Temporary lockout', 'rate-limit', false],
      ['EOrder:Insufficient funds', 'funds', false],
      ['EService:Unavailable', 'service', false],
      ['EService:Market in cancel_only mode', 'service', false],
      ['EGeneral:Internal error:1234', 'service', false],
      ['EOrder:Order minimum not met', 'refused', false],
      ['EQuery:Unknown asset pair', 'refused', false],
    ];
    for (const [error, kind, unknownOrder] of kinds) {
      const e = krakenError({ error: [error] });
      assert.deepEqual([e?.kind, e?.unknownOrder, e?.reason], [kind, unknownOrder, `kraken ${error}`], error);
    }
    assert.ok(NO_SUCH_ORDER.has('EOrder:Unknown order'));
    assert.equal(krakenError({ error: [], result: { count: 1 } }), undefined);
    assert.equal(krakenError({ error: ['WGeneral:Deprecated'], result: { count: 1 } }), undefined, 'a warning only');
    assert.equal(krakenError({ code: '0' }), undefined, 'not an answer');
  });

  it('reads the AddOrder and CancelOrder answers (spec examples)', () => {
    assert.deepEqual(decodeAddOrder({ error: [], result: { descr: { order: 'buy 2.12340000 XBTUSD @ limit 25000.1 with 2:1 leverage', close: 'close position @ stop loss 22000.0 -> limit 21000.0' }, txid: ['OUF4EM-FRGI2-MQMWZD'] } }), { ok: true, txid: 'OUF4EM-FRGI2-MQMWZD' });
    assert.deepEqual(decodeAddOrder({ error: ['EOrder:Insufficient funds'], result: {} }), { ok: false, reason: 'kraken EOrder:Insufficient funds', kind: 'funds' });
    assert.equal(decodeAddOrder({ error: [], result: { descr: {} } }), undefined);
    assert.deepEqual(decodeCancel({ error: [], result: { count: 1 } }), { count: 1, pending: false });
    assert.equal(decodeCancel({ error: ['EOrder:Unknown order'] }), undefined);
  });

  it('reads orders from QueryOrders, OpenOrders and ClosedOrders (spec examples)', () => {
    const query = {
      error: [],
      result: {
        'ODNLO4-QYFSV-33BKJA': { refid: null, userref: 123456, status: 'open', opentm: 1550102482.1954, starttm: 0, expiretm: 0, descr: { pair: 'XMRUSD', type: 'buy', ordertype: 'limit', price: '1.00', price2: '0', leverage: 'none', order: 'buy 10.00000000 XMRUSD @ limit 1.00', close: '' }, vol: '10.00000000', vol_exec: '0.00000000', cost: '0.00000000', fee: '0.00000000', price: '0.00000000', stopprice: '0.00000000', limitprice: '0.00000000', misc: '', oflags: 'fciq' },
        'OQB6D2-O5QMF-QBBAWZ': { refid: null, userref: 3000, status: 'canceled', reason: 'User requested', opentm: 1550101013.9522, closetm: 1550101338.0032, starttm: 0, expiretm: 0, descr: { pair: 'XBTEUR', type: 'buy', ordertype: 'limit', price: '1.0', price2: '0', leverage: 'none', order: 'buy 10.00000000 XBTEUR @ limit 1.0', close: '' }, vol: '10.00000000', vol_exec: '0.00000000', cost: '0.00000', fee: '0.00000', price: '0.00000', stopprice: '0.00000', limitprice: '0.00000', misc: '', oflags: 'fciq' },
      },
    };
    assert.deepEqual(decodeOrders(query), [
      { txid: 'ODNLO4-QYFSV-33BKJA', cl_ord_id: null, child_id: null, status: 'open', pair: 'XMRUSD', side: 'buy', ordertype: 'limit', qty_1e8: 1_000_000_000, filled_qty_1e8: 0, resting_qty_1e8: 1_000_000_000, trade_ids: [], fee_in_base: false },
      { txid: 'OQB6D2-O5QMF-QBBAWZ', cl_ord_id: null, child_id: null, status: 'canceled', pair: 'XBTEUR', side: 'buy', ordertype: 'limit', qty_1e8: 1_000_000_000, filled_qty_1e8: 0, resting_qty_1e8: 0, trade_ids: [], fee_in_base: false },
    ]);
    // OpenOrders: the spec's example carries only the `order` sentence in `descr`.
    const open = { error: [], result: { open: { 'O7ICPO-F4CLJ-MVBLHC': { refid: '', userref: '', status: 'open', opentm: 1373750306.9819, starttm: 0, expiretm: 0, descr: { order: 'sell 3.00000000 XBTUSD @ limit 500.00000' }, vol: '3.00000000', vol_exec: '0.00000000', cost: '0.00000', fee: '0.00000', price: '0.00000', misc: '', oflags: '' } } } };
    assert.deepEqual(decodeOrders(open), [{ txid: 'O7ICPO-F4CLJ-MVBLHC', cl_ord_id: null, child_id: null, status: 'open', pair: 'XBTUSD', side: 'sell', ordertype: 'limit', qty_1e8: 300_000_000, filled_qty_1e8: 0, resting_qty_1e8: 300_000_000, trade_ids: [], fee_in_base: false }]);
    const closed = { error: [], result: { closed: { 'OT5JQ3-MNZQI-GDXY7O': { refid: null, userref: 1000, status: 'canceled', reason: 'User requested', opentm: 1550101012.7873, closetm: 1550101338.364, starttm: 0, expiretm: 0, descr: { pair: 'DASHUSD', type: 'buy', ordertype: 'limit', price: '1.000', price2: '0', leverage: 'none', order: 'buy 10.00000000 DASHUSD @ limit 1.000', close: '' }, vol: '10.00000000', vol_exec: '0.00000000', cost: '0.000000', fee: '0.000000', price: '0.000000', stopprice: '0.000000', limitprice: '0.000000', misc: '', oflags: 'fciq' } }, count: 1 } };
    assert.equal(decodeOrders(closed)?.[0]?.status, 'canceled');
    // Not from the docs: one of ours, partly filled, with its trades; one whose fee the venue took in base.
    const clOrdId = krakenClientOrderId('ord_0mwz4ka3500001oq-2')!;
    const ours = { error: [], result: { open: { 'OQCLML-BW3P3-BUCMWZ': { cl_ord_id: clOrdId, status: 'open', descr: { pair: 'XBTUSD', type: 'buy', ordertype: 'limit', price: '30010.0' }, vol: '0.05000000', vol_exec: '0.03000000', oflags: 'fciq', trades: ['THVRQM-33VKH-UCI7BS', 'TCWJEG-FL4SZ-3FKGH6'] }, 'OABCDE-FGHIJ-KLMNOP': { cl_ord_id: 'my-order', status: 'open', descr: { pair: 'XBTUSD', type: 'sell', ordertype: 'limit' }, vol: '1.00000000', vol_exec: '0.00000000', oflags: 'fcib,post' } } } };
    const [mine, theirs] = decodeOrders(ours)!;
    assert.deepEqual([mine!.child_id, mine!.resting_qty_1e8, mine!.trade_ids], ['ord_0mwz4ka3500001oq-2', 2_000_000, ['THVRQM-33VKH-UCI7BS', 'TCWJEG-FL4SZ-3FKGH6']]);
    assert.deepEqual([theirs!.cl_ord_id, theirs!.child_id, theirs!.fee_in_base], ['my-order', null, true]);
    assert.equal(decodeOrders({ error: [], result: { X: { ...query.result['ODNLO4-QYFSV-33BKJA'], status: 'weird' } } }), undefined, 'an unknown status is not guessed at');
    assert.equal(decodeOrders({ error: [], result: { X: { ...query.result['ODNLO4-QYFSV-33BKJA'], descr: { ...query.result['ODNLO4-QYFSV-33BKJA'].descr, type: 'hold' } } } }), undefined);
    assert.equal(decodeOrders({ error: ['EOrder:Invalid order'] }), undefined);
    assert.equal(decodeOrders({ error: [], result: { open: {} } })?.length, 0);
    assert.equal(decodeOrders({ error: [], result: { X: { ...query.result['ODNLO4-QYFSV-33BKJA'], status: 'open', descr: { ...query.result['ODNLO4-QYFSV-33BKJA'].descr, ordertype: 'market' } } } })?.[0]?.resting_qty_1e8, 0, 'a market order never rests');
  });

  it('reads fills from QueryTrades and TradesHistory (spec examples): oldest first, the fee as USD, rounded up', () => {
    const fees = { base: 'BTC', quote: 'USD', fallbackFee: () => 777 };
    const queryTrades = {
      error: [],
      result: {
        'THVRQM-33VKH-UCI7BS': { ordertxid: 'OQCLML-BW3P3-BUCMWZ', postxid: 'TKH2SE-M7IF5-CFI7LT', pair: 'XXBTZUSD', time: 1688667796.8802, type: 'buy', ordertype: 'limit', price: '30010.00000', cost: '600.20000', fee: '0.00000', vol: '0.02000000', margin: '0.00000', misc: '', trade_id: 93748276, maker: true },
        'TTEUX3-HDAAA-RC2RUO': { ordertxid: 'OH76VO-UKWAD-PSBDX6', postxid: 'TKH2SE-M7IF5-CFI7LT', pair: 'XXBTZEUR', time: 1688082549.3138, type: 'buy', ordertype: 'limit', price: '27732.00000', cost: '0.20020', fee: '0.00000', vol: '0.00020000', margin: '0.00000', misc: '', trade_id: 74625834, maker: true },
      },
    };
    assert.deepEqual(decodeTrades(queryTrades, fees), [
      { price_1e9: 27_732_000_000_000, qty_1e8: 20_000, trade_id: 'TTEUX3-HDAAA-RC2RUO', ts_ns: 1688082549313800000, fee_1e9: 0, is_maker: true },
      { price_1e9: 30_010_000_000_000, qty_1e8: 2_000_000, trade_id: 'THVRQM-33VKH-UCI7BS', ts_ns: 1688667796880200000, fee_1e9: 0, is_maker: true },
    ]);
    assert.deepEqual(
      decodeTrades(queryTrades, fees, { txid: 'OQCLML-BW3P3-BUCMWZ', fee_in_base: false })?.map((f) => f.trade_id),
      ['THVRQM-33VKH-UCI7BS'],
      "only the order's",
    );
    // TradesHistory example (two sells; no `maker` field: a taker).
    const history = {
      error: [],
      result: {
        trades: {
          'TBGB6I-IMYKU-WWA2SK': { ordertxid: 'OJTVFU-UWBXK-7AC6ML', postxid: 'TKH1SE-X7IF5-CKI7JT', pair: 'XXBTZUSD', time: 1428084298.0986, type: 'sell', ordertype: 'limit', price: '9.25000', cost: '0.92500', fee: '0.00296', vol: '0.10000000', margin: '0.61667', leverage: '0', misc: '', trade_id: 2560488 },
          'TNJAD2-A56J2-34HIEZ': { ordertxid: 'OJTVFU-UWBXK-7AC6ML', postxid: 'TLS1SE-X8IF4-DKI7GT', pair: 'XXBTZUSD', time: 1428084246.804, type: 'sell', ordertype: 'limit', price: '9.25000', cost: '0.92500', fee: '0.00296', vol: '0.10000000', margin: '0.61667', leverage: '0', misc: '', trade_id: 2260198 },
        },
        count: 2,
      },
    };
    const fills = decodeTrades(history, fees);
    assert.deepEqual(
      fills?.map((f) => [f.trade_id, f.ts_ns, f.price_1e9, f.qty_1e8, f.fee_1e9, f.is_maker, f.commission]),
      [
        ['TNJAD2-A56J2-34HIEZ', 1428084246804000000, 9_250_000_000, 10_000_000, 2_960_000, false, undefined],
        ['TBGB6I-IMYKU-WWA2SK', 1428084298098600000, 9_250_000_000, 10_000_000, 2_960_000, false, undefined],
      ],
    );
    assert.deepEqual(legReportOf({ txid: 'OJTVFU-UWBXK-7AC6ML', cl_ord_id: null, child_id: null, status: 'closed', pair: 'XBTUSD', side: 'sell', ordertype: 'limit', qty_1e8: 20_000_000, filled_qty_1e8: 20_000_000, resting_qty_1e8: 0, trade_ids: [], fee_in_base: false }, fills!), { ok: true, reason: null, fills, resting_qty_1e8: 0 });
    // Not from the docs: a fee past 9 places (up), an average price past 9 places (nearest), a fee taken in base.
    const row = history.result.trades['TBGB6I-IMYKU-WWA2SK'];
    const odd = { error: [], result: { T1: { ...row, fee: '0.0123456789', price: '9.2500000004' } } };
    assert.deepEqual(decodeTrades(odd, fees)?.map((f) => [f.fee_1e9, f.price_1e9]), [[12_345_679, 9_250_000_000]]);
    const inBase = decodeTrades({ error: [], result: { T1: { ...row, fee: '0.00296' } } }, fees, { txid: 'OJTVFU-UWBXK-7AC6ML', fee_in_base: true });
    // 0.00296 USD at 9.25 is 0.00032 BTC.
    assert.deepEqual(inBase?.[0]?.commission, { asset: 'BTC', qty_1e8: 32_000 });
    assert.equal(decodeTrades({ error: [], result: { T1: { ...row, vol: '0.000000001' } } }, fees), undefined, 'a volume past 8 places');
    assert.equal(decodeTrades({ error: [], result: { T1: { ...row, price: '1e5' } } }, fees), undefined);
    assert.equal(decodeTrades({ error: ['EAPI:Rate limit exceeded'] }, fees), undefined);
  });

  it('reads balances exactly, rounded down past 8 places (spec Balance example; BalanceEx by its fields)', () => {
    const balance = { error: [], result: { ZUSD: '2970172.7962', ZEUR: '102559.9012', ZCAD: '32300.0000', KFEE: '0.00', XXBT: '3.2223768244', XXRP: '0.00000000', XETH: '995.0000000000', XDAO: '100000.0000000000' } };
    const names = new Map([
      ['XXBT', 'BTC'],
      ['ZUSD', 'USD'],
      ['XETH', 'ETH'],
    ]);
    assert.deepEqual(decodeBalances(balance, names), [
      { asset: 'USD', free_1e8: 297_017_279_620_000n, locked_1e8: 0n },
      { asset: 'ZEUR', free_1e8: 10_255_990_120_000n, locked_1e8: 0n },
      { asset: 'ZCAD', free_1e8: 3_230_000_000_000n, locked_1e8: 0n },
      { asset: 'BTC', free_1e8: 322_237_682n, locked_1e8: 0n },
      { asset: 'ETH', free_1e8: 99_500_000_000n, locked_1e8: 0n },
      { asset: 'XDAO', free_1e8: 10_000_000_000_000n, locked_1e8: 0n },
    ]);
    // Not from the docs: BalanceEx rows (the schema's example values), a large one, an empty one.
    const ex = {
      error: [],
      result: {
        XXBT: { balance: '3.46840030', credit: '1.26844502', credit_used: '0.10002300', hold_trade: '2.14560458' },
        USDT: { balance: '123456789012.123456789', hold_trade: '0.000000009' },
        ZUSD: { balance: '0.0000', hold_trade: '0.0000' },
      },
    };
    assert.deepEqual(decodeBalances(ex, new Map([['XXBT', 'BTC']])), [
      { asset: 'BTC', free_1e8: 132_279_572n, locked_1e8: 214_560_458n },
      // 123456789012.123456789 - 0.000000009 = 123456789012.12345678: free exact; locked rounds to 0.
      { asset: 'USDT', free_1e8: 12_345_678_901_212_345_678n, locked_1e8: 0n },
    ]);
    assert.equal(decodeBalances({ error: [], result: { XXBT: '1e3' } }, names), undefined);
    assert.equal(decodeBalances({ error: ['EAPI:Invalid key'] }, names), undefined);
  });
});

describe('Kraken fee tier (TradeVolume)', () => {
  it("reads the pair's taker and maker rates in percent as bps, exactly, from the spec's example shape", () => {
    const body = {
      error: [],
      result: {
        currency: 'ZUSD',
        volume: '200709587.4223',
        fees: { XXBTZUSD: { fee: '0.1000', minfee: '0.1000', maxfee: '0.2600', nextfee: null, nextvolume: null, tiervolume: '10000000.0000' } },
        fees_maker: { XXBTZUSD: { fee: '0.0000', minfee: '0.0000', maxfee: '0.1600', nextfee: null, nextvolume: null, tiervolume: '10000000.0000' } },
      },
    };
    assert.deepEqual(decodeTradeVolume(body), { volume: '200709587.4223', currency: 'ZUSD', taker_bps: 10, maker_bps: 0 });
    assert.equal(decodeTradeVolume({ error: [], result: { fees: { X: { fee: '0.2600' } } } })?.taker_bps, 26);
    assert.equal(decodeTradeVolume({ error: [], result: { fees: { X: { fee: '0.2600' } } } })?.maker_bps, null, 'no maker table: the caller keeps its own');
    assert.equal(decodeTradeVolume({ error: ['EGeneral:Permission denied'] }), undefined);
    assert.equal(decodeTradeVolume({ error: [], result: { volume: '0' } }), undefined, 'no taker row');
    assert.equal(tradeVolumeBody('7', 'XBTUSD'), 'nonce=7&pair=XBTUSD');
  });
});
