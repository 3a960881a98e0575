/**
 * The live Bybit spot adapter's pure core: v5 request signing, the public `orderbook` topic kept
 * whole (snapshot, then deltas chained by `u` + 1, `u` = 1 a restart), and the REST/WebSocket
 * codec.
 *
 * Samples, by source:
 *   - Bybit's Integration Guidance (docs/v5/guide, "Create A Request"): the GET and POST strings
 *     to sign ("1658384314791XXXXXXXXXX5000category=option&symbol=BTC-29JUL22-25000-C" and
 *     '1658385579423XXXXXXXXXX5000{"category": "option"}'). The guide prints HMACs beside them
 *     (410e0f38..., f0da7197...) but never the secret that made them, and none of the official
 *     SDKs' tests (pybit, bybit.go.api) or api-usage-examples pins a signature to inputs (they
 *     recompute it, or only check it is non-empty). So the strings are reproduced exactly and the
 *     HMAC-SHA256 is computed independently here with node:crypto.
 *   - docs/v5/websocket/public/orderbook: the snapshot and delta response examples (the
 *     snapshot's "..." left out); docs/v5/sbe/market/level-50: the `u` sequence example (10000
 *     snapshot, 10001, 10002, 10003 snapshot, 10004, 1 snapshot, 2, 3).
 *   - the Connect page (docs/v5/websocket/wss-authentication.mdx, slug /v5/ws/connect): the spot,
 *     linear, option and private pong examples, the spot subscription answer, the subscribe
 *     request example, "up to 10 args" for spot.
 *   - REST response examples, values as printed: Get Instruments Info (spot, BTCUSDT), Place
 *     Order, Cancel Order, Cancel All Orders, Get Open & Closed Orders (a linear order), Get
 *     Wallet Balance, Get Fee Rate, Get API Key Information (cut to the fields read), the rate
 *     limit headers of Rate Limit Rules, the cursors of Get Order History and Get Trade History.
 *   - Error bodies are built from the Error Codes table (retCode, retMsg as listed); Bybit prints
 *     no such example. Spot order and execution rows are built from the documented fields and
 *     the enum page's "Spot Fee Currency Instruction" (the docs' examples are linear orders).
 *   - Anything else marked "not from the docs" is made up for the case it tests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { formatScaled } from '../../actors/edge/live/decimal.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { feeContextOf } from '../../actors/edge/live/binance/codec.ts';
import { BybitBookSync, SPOT_BOOK_DEPTHS, type BybitBookDepth } from '../../actors/edge/live/bybit/book-sync.ts';
import { RECV_WINDOW_MS, acceptDeadlineMs, queryOf, queryString, signedHeaders, stringToSign } from '../../actors/edge/live/bybit/signing.ts';
import {
  API_KEY_PATH,
  BybitSymbols,
  CANCEL_ALL_PATH,
  CANCEL_ORDER_PATH,
  CREATE_ORDER_PATH,
  INSTRUMENTS_PATH,
  MAX_ARGS_PER_REQUEST,
  NO_SUCH_ORDER,
  NOTHING_TO_CANCEL,
  ORDER_LINK_ID,
  PING,
  PUBLIC_SPOT_PATH,
  RATE_LIMITS,
  WALLET_BALANCE_PATH,
  accountProbeOf,
  bookTopic,
  bybitError,
  bybitOrderLinkId,
  cancelAllBody,
  cancelOrderBody,
  childIdOfBybit,
  createOrderBody,
  decodeBalances,
  decodeBookFrame,
  decodeCancelAll,
  decodeControl,
  decodeExecutions,
  decodeFeeRate,
  decodeInstruments,
  decodeKeyInfo,
  decodeLimitHeaders,
  decodeOrderAck,
  decodeOrders,
  errorKindOf,
  executionsPath,
  feeRatePath,
  legReportOf,
  openOrdersPath,
  orderHistoryPath,
  orderRealtimePath,
  orderTerms,
  spotFeeCoin,
  statusKind,
  subscriptionRequests,
  venueSymbolOf,
  type BybitInstrument,
} from '../../actors/edge/live/bybit/codec.ts';

const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

describe('Bybit v5 signing', () => {
  it("signs the guide's GET example: the query string as sent, after timestamp + key + recv window", () => {
    const docString = '1658384314791XXXXXXXXXX5000category=option&symbol=BTC-29JUL22-25000-C';
    assert.equal(stringToSign('1658384314791', 'XXXXXXXXXX', '5000', 'category=option&symbol=BTC-29JUL22-25000-C'), docString);
    const headers = signedHeaders({ method: 'GET', path: '/v5/order/realtime?category=option&symbol=BTC-29JUL22-25000-C', body: '', apiKey: 'XXXXXXXXXX', apiSecret: 'test-secret', timestampMs: 1658384314791, recvWindowMs: 5000 });
    assert.deepEqual(headers, {
      'X-BAPI-API-KEY': 'XXXXXXXXXX',
      'X-BAPI-TIMESTAMP': '1658384314791',
      'X-BAPI-RECV-WINDOW': '5000',
      'X-BAPI-SIGN': hmacHex('test-secret', docString),
    });
    assert.match(headers['X-BAPI-SIGN']!, /^[0-9a-f]{64}$/, 'lowercase hex');
  });

  it("signs the guide's POST example: the JSON body's exact bytes (its space included)", () => {
    const docString = '1658385579423XXXXXXXXXX5000{"category": "option"}';
    const body = '{"category": "option"}';
    assert.equal(stringToSign('1658385579423', 'XXXXXXXXXX', '5000', body), docString);
    const headers = signedHeaders({ method: 'POST', path: '/v5/order/create', body, apiKey: 'XXXXXXXXXX', apiSecret: 'test-secret', timestampMs: 1658385579423 });
    assert.equal(headers['X-BAPI-SIGN'], hmacHex('test-secret', docString));
    assert.equal(headers['X-BAPI-RECV-WINDOW'], String(RECV_WINDOW_MS), 'the default window, always sent');
    assert.equal(headers['Content-Type'], 'application/json');
    assert.notEqual(signedHeaders({ method: 'POST', path: '/v5/order/create', body: '{"category":"option"}', apiKey: 'XXXXXXXXXX', apiSecret: 'test-secret', timestampMs: 1658385579423 })['X-BAPI-SIGN'], headers['X-BAPI-SIGN'], 'one byte of the body is another signature');
  });

  it('a GET signs its query unsorted and nothing of the path; a GET with a body is refused', () => {
    const sign = (path: string) => signedHeaders({ method: 'GET', path, body: '', apiKey: 'k', apiSecret: 's', timestampMs: 1 })['X-BAPI-SIGN'];
    assert.equal(sign('/v5/order/realtime?symbol=BTCUSDT&category=spot'), hmacHex('s', '1k5000symbol=BTCUSDT&category=spot'));
    assert.notEqual(sign('/v5/order/realtime?symbol=BTCUSDT&category=spot'), sign('/v5/order/realtime?category=spot&symbol=BTCUSDT'));
    assert.equal(sign('/v5/user/query-api'), hmacHex('s', '1k5000'), 'no query: the prefix alone');
    assert.equal(queryOf('/v5/execution/list?category=spot&cursor=a%3Db'), 'category=spot&cursor=a%3Db');
    assert.throws(() => signedHeaders({ method: 'GET', path: '/v5/user/query-api', body: '{}', apiKey: 'k', apiSecret: 's', timestampMs: 1 }));
    assert.throws(() => signedHeaders({ method: 'GET', path: '/x', body: '', apiKey: 'k', apiSecret: 's', timestampMs: 1.5 }));
    assert.equal(acceptDeadlineMs(1658384314791), 1658384319791);
  });

  it("builds query strings in the caller's order, encoding values but passing a cursor back as Bybit encoded it", () => {
    assert.equal(queryString([['category', 'spot'], ['orderLinkId', 'ord_0mwz4ka3500001oq-1'], ['limit', 50], ['cursor', undefined]]), 'category=spot&orderLinkId=ord_0mwz4ka3500001oq-1&limit=50');
    // The cursors of the Get Order History and Get Trade History examples, sent as received (as pybit does).
    assert.equal(queryString([['cursor', 'page_args%3Dfd4300ae-7847-404e-b947-b46980a4d140%26symbol%3D6%26']]), 'cursor=page_args%3Dfd4300ae-7847-404e-b947-b46980a4d140%26symbol%3D6%26');
    assert.equal(queryString([['cursor', '132766%3A2%2C132766%3A2']]), 'cursor=132766%3A2%2C132766%3A2');
    assert.equal(queryString([['cursor', 'a=b&c'], ['x', 'a b']]), 'cursor=a%3Db%26c&x=a%20b', 'a cursor that is not already encoded is encoded');
  });
});

// ---------------------------------------------------------------------------------------------

type Level = [string, string];

function frame(type: 'snapshot' | 'delta', u: number, bids: readonly Level[], asks: readonly Level[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { topic: 'orderbook.50.BTCUSDT', type, ts: 1672304484978, data: { s: 'BTCUSDT', b: bids, a: asks, u, seq: 7961638724 + u }, cts: 1672304484976, ...extra };
}

/** Decodes a frame and feeds it to the sync. */
function push(sync: BybitBookSync, f: Record<string, unknown>) {
  const decoded = decodeBookFrame(f);
  assert.ok(decoded !== undefined && decoded.data !== null, 'a readable book push');
  return sync.onPush(decoded.type, decoded.data);
}

// The orderbook page's response examples, as printed (the snapshot's "..." rows left out).
const DOC_SNAPSHOT = {
  topic: 'orderbook.50.BTCUSDT',
  type: 'snapshot',
  ts: 1672304484978,
  data: { s: 'BTCUSDT', b: [['16493.50', '0.006'], ['16493.00', '0.100']], a: [['16611.00', '0.029'], ['16612.00', '0.213']], u: 18521288, seq: 7961638724 },
  cts: 1672304484976,
};
const DOC_DELTA = {
  topic: 'orderbook.50.BTCUSDT',
  type: 'delta',
  ts: 1687940967466,
  data: {
    s: 'BTCUSDT',
    b: [['30247.20', '30.028'], ['30245.40', '0.224'], ['30242.10', '1.593'], ['30240.30', '1.305'], ['30240.00', '0']],
    a: [['30248.70', '0'], ['30249.30', '0.892'], ['30249.50', '1.778'], ['30249.60', '0'], ['30251.90', '2.947'], ['30252.20', '0.659'], ['30252.50', '4.591']],
    u: 177400507,
    seq: 66544703342,
  },
  cts: 1687940967464,
};

describe('Bybit orderbook sync', () => {
  it("reads the docs' snapshot and delta examples into engine integers", () => {
    const snap = decodeBookFrame(DOC_SNAPSHOT);
    assert.deepEqual(snap, {
      topic: 'orderbook.50.BTCUSDT',
      depth: 50,
      venueSymbol: 'BTCUSDT',
      type: 'snapshot',
      data: { symbol: 'BTCUSDT', bids: [16_493_500_000_000, 600_000, 16_493_000_000_000, 10_000_000], asks: [16_611_000_000_000, 2_900_000, 16_612_000_000_000, 21_300_000], u: 18521288, seq: 7961638724, ts_ms: 1672304484978, cts_ms: 1672304484976 },
    });
    const delta = decodeBookFrame(DOC_DELTA)!;
    assert.equal(delta.type, 'delta');
    assert.deepEqual(delta.data!.bids.slice(-2), [30_240_000_000_000, 0], 'a size of 0 removes the level');
    assert.equal(delta.data!.asks.length, 14);
    assert.deepEqual([delta.data!.u, delta.data!.seq, delta.data!.cts_ms], [177400507, 66544703342, 1687940967464]);
  });

  it("the docs' two examples are not consecutive: that delta on that snapshot is a gap", () => {
    const book = new L2Book();
    const sync = new BybitBookSync(book, []);
    assert.equal(push(sync, DOC_SNAPSHOT), 'synced');
    assert.equal(sync.updateId, 18521288);
    assert.equal(book.best(Side.BID), 16_493_500_000_000);
    assert.equal(push(sync, DOC_DELTA), 'gap');
    assert.equal(sync.synced, false);
    assert.equal(book.depth(Side.ASK), 0, 'never a book known to be wrong');
    assert.equal(sync.updateId, -1);
  });

  it("follows the level-50 sequence example: 10000 snapshot, 10001-10002, 10003 snapshot in place of a delta, 10004, a restart at 1, then 2, 3", () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new BybitBookSync(book, changes);
    const outcomes: string[] = [];
    const step = (f: Record<string, unknown>) => {
      outcomes.push(push(sync, f));
      const published = changes.slice();
      changes.length = 0;
      return published;
    };
    step(frame('snapshot', 10000, [['100.0', '1'], ['99.9', '2']], [['100.1', '3']]));
    assert.deepEqual(step(frame('delta', 10001, [['99.9', '0']], [['100.2', '4']])), [Side.BID, 99_900_000_000, 0, Side.ASK, 100_200_000_000, 400_000_000]);
    step(frame('delta', 10002, [['99.8', '5']], []));
    // A snapshot continuing the count replaces the book and publishes only what changed.
    const diff = step(frame('snapshot', 10003, [['100.0', '1'], ['99.7', '6']], [['100.1', '3'], ['100.2', '7']]));
    assert.deepEqual(diff, [Side.BID, 99_800_000_000, 0, Side.BID, 99_700_000_000, 600_000_000, Side.ASK, 100_200_000_000, 700_000_000]);
    step(frame('delta', 10004, [], [['100.1', '0']]));
    assert.deepEqual(book.flat(Side.ASK, 10), [100_200_000_000, 700_000_000]);
    // Service restart: u back to 1, a new snapshot overwrites the book.
    assert.deepEqual(step(frame('snapshot', 1, [['101.0', '1']], [['101.5', '1']])), [], 'a sync publishes the whole book, not changes');
    step(frame('delta', 2, [['100.5', '2']], []));
    step(frame('delta', 3, [], [['101.4', '1']]));
    assert.deepEqual(outcomes, ['synced', 'applied', 'applied', 'applied', 'applied', 'synced', 'applied', 'applied']);
    assert.deepEqual(book.flat(Side.BID, 10), [101_000_000_000, 100_000_000, 100_500_000_000, 200_000_000]);
    assert.equal(sync.updateId, 3);
  });

  it('a skipped u, a u running backwards, or a delta u = 1 without its snapshot is a gap; a repeated u is dropped', () => {
    const sync = new BybitBookSync(new L2Book(), []);
    const start = () => {
      sync.reset();
      assert.equal(push(sync, frame('snapshot', 5, [['100', '1']], [['101', '1']])), 'synced');
    };
    start();
    assert.equal(push(sync, frame('delta', 7, [['99', '1']], [])), 'gap', 'u 6 was lost');
    assert.equal(push(sync, frame('delta', 8, [['99', '1']], [])), 'buffered', 'nothing to build on until a snapshot');
    start();
    assert.equal(push(sync, frame('delta', 6, [['99', '1']], [])), 'applied');
    assert.equal(push(sync, frame('delta', 6, [['99', '1']], [])), 'buffered', 'the same push again');
    assert.equal(sync.synced, true);
    assert.equal(push(sync, frame('delta', 4, [['98', '1']], [])), 'gap', 'a stream running backwards is not ignored: the book would freeze');
    start();
    assert.equal(push(sync, frame('delta', 1, [['98', '1']], [])), 'gap', 'restarted numbering with no snapshot');
    // Any snapshot is the book, whatever its u (the docs: it "is guaranteed to contain the latest data").
    start();
    assert.equal(push(sync, frame('snapshot', 3, [['90', '1']], [['91', '1']])), 'synced');
    assert.equal(push(sync, frame('snapshot', 900, [['90', '2']], [['91', '1']])), 'synced', 'a snapshot past a jump syncs anew');
  });

  it("level 1 re-pushes its snapshot with the same u after 3 s: taken again, nothing to publish", () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new BybitBookSync(book, changes, 1);
    const top = (u: number, bid: string) => ({ ...frame('snapshot', u, [[bid, '1.5']], [['100.5', '2']]), topic: 'orderbook.1.BTCUSDT' });
    assert.equal(push(sync, top(41, '100.0')), 'synced');
    assert.equal(push(sync, top(41, '100.0')), 'applied');
    assert.deepEqual(changes, []);
    assert.equal(push(sync, top(42, '100.1')), 'applied');
    assert.deepEqual(changes, [Side.BID, 100_000_000_000, 0, Side.BID, 100_100_000_000, 150_000_000]);
  });

  it('keeps the book to the subscribed depth, publishing what falls out as removed', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new BybitBookSync(book, changes, 1);
    push(sync, { ...frame('snapshot', 1, [['100', '1']], [['101', '1']]), topic: 'orderbook.1.BTCUSDT' });
    // A better bid arrives without a deletion of the one it pushes out of the top level.
    assert.equal(push(sync, frame('delta', 2, [['100.5', '2']], [])), 'applied');
    assert.deepEqual(changes, [Side.BID, 100_500_000_000, 200_000_000, Side.BID, 100_000_000_000, 0]);
    assert.deepEqual(book.flat(Side.BID, 10), [100_500_000_000, 200_000_000]);
    assert.equal(sync.depth, 1);
    assert.deepEqual(SPOT_BOOK_DEPTHS, [1, 50, 200, 1000]);
  });

  it('a push it cannot read is a gap at once; a reset forgets the book', () => {
    const sync = new BybitBookSync(new L2Book(), []);
    push(sync, frame('snapshot', 1, [['100', '1']], [['101', '1']]));
    const unreadable = decodeBookFrame(frame('delta', 2, [['100', '0.000000001']], []));
    assert.ok(unreadable !== undefined);
    assert.equal(unreadable.data, null, 'a size past 8 decimals is not rounded into the book');
    assert.equal(sync.onUnreadable(), 'gap');
    assert.equal(sync.synced, false);
    assert.equal(sync.onUnreadable(), 'gap', 'also while awaiting a snapshot: resubscribe');
    push(sync, frame('snapshot', 3, [['100', '1']], [['101', '1']]));
    sync.reset();
    assert.equal(sync.synced, false);
    assert.equal(push(sync, frame('delta', 4, [['100', '1']], [])), 'buffered');
  });

  it('any stream agrees with a naive model of the venue: the book is the venue\'s top levels whenever whole, and the published changes rebuild it (property)', () => {
    type Op = { bid: boolean; tick: number; qty: number };
    type Step = { kind: 'delta' | 'snapshot' | 'restart' | 'restartLost' | 'drop' | 'repeat' | 'reconnect'; ops: Op[]; omitExits: boolean };
    const op = fc.record({ bid: fc.boolean(), tick: fc.integer({ min: 1, max: 70 }), qty: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 900_000_000 })) });
    const step = fc.record({
      kind: fc.constantFrom<Step['kind']>('delta', 'delta', 'delta', 'delta', 'snapshot', 'restart', 'restartLost', 'drop', 'repeat', 'reconnect'),
      ops: fc.array(op, { maxLength: 12 }),
      omitExits: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.constantFrom<BybitBookDepth>(1, 50), fc.array(op, { minLength: 1, maxLength: 150 }), fc.array(step, { minLength: 1, maxLength: 40 }), (depth, initial, steps) => {
        // The venue: its whole book, and what the topic shows of it (the top `depth` levels a side).
        const MID = 20_000;
        const px = (o: Op) => (o.bid ? MID - o.tick : MID + o.tick) * 10_000_000; // 2-decimal prices, 1e9
        const full = [new Map<number, number>(), new Map<number, number>()];
        const apply = (ops: readonly Op[]) => {
          for (const o of ops) {
            const side = o.bid ? Side.BID : Side.ASK;
            if (o.qty === 0) full[side]!.delete(px(o));
            else full[side]!.set(px(o), o.qty);
          }
        };
        const windowOf = (side: Side) =>
          new Map(
            [...full[side]!]
              .sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0]))
              .slice(0, depth),
          );
        const flat = (m: Map<number, number>, side: Side) => [...m].sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0])).flat();
        const levels = (m: Map<number, number>) => [...m].map(([p, q]): Level => [formatScaled(p, 9), formatScaled(q, 8)]);
        let u = 0;
        let shown = [windowOf(Side.BID), windowOf(Side.ASK)];
        // A message as the venue would send it after `ops`, and the book it shows.
        const next = (ops: readonly Op[], type: 'snapshot' | 'delta', omitExits: boolean, restart = false) => {
          const before = shown;
          apply(ops);
          shown = [windowOf(Side.BID), windowOf(Side.ASK)];
          u = restart ? 1 : u + 1;
          const sides = [Side.BID, Side.ASK].map((side) => {
            if (type === 'snapshot') return levels(shown[side]!);
            const out: Level[] = [];
            for (const p of new Set([...before[side]!.keys(), ...shown[side]!.keys()])) {
              const now = shown[side]!.get(p) ?? 0;
              if (now === (before[side]!.get(p) ?? 0)) continue;
              // A level pushed out of the window but still on the venue's book: maybe not told.
              if (now === 0 && omitExits && full[side]!.has(p)) continue;
              out.push([formatScaled(p, 9), formatScaled(now, 8)]);
            }
            return out;
          });
          return { frame: frame(type, u, sides[0]!, sides[1]!), window: [flat(shown[Side.BID]!, Side.BID), flat(shown[Side.ASK]!, Side.ASK)] };
        };

        const book = new L2Book();
        const changes: number[] = [];
        const sync = new BybitBookSync(book, changes, depth);
        const shadow = new L2Book();
        // The documented rules, written out as a table of what each push must do.
        let whole = false;
        let lastU = -1;
        let acceptedWindow: number[][] = [];
        const expect = (type: string, pu: number) => {
          if (type === 'snapshot') {
            const outcome = whole && pu !== 1 && (pu === lastU + 1 || pu === lastU) ? 'applied' : 'synced';
            whole = true;
            lastU = pu;
            return outcome;
          }
          if (!whole) return 'buffered';
          if (pu === lastU + 1 && pu !== 1) {
            lastU = pu;
            return 'applied';
          }
          if (pu === lastU && pu !== 1) return 'buffered';
          whole = false;
          return 'gap';
        };
        const deliver = (m: { frame: Record<string, unknown>; window: number[][] }) => {
          const type = m.frame['type'] as string;
          const pu = (m.frame['data'] as { u: number }).u;
          const want = expect(type, pu);
          const got = push(sync, m.frame);
          assert.equal(got, want, `${type} u=${pu}`);
          if (got === 'applied' || got === 'synced') acceptedWindow = m.window;
          if (got === 'synced') {
            assert.equal(changes.length, 0, 'a sync publishes the book, not levels');
            shadow.clear();
            for (const side of [Side.BID, Side.ASK]) {
              const l = book.flat(side, 10_000);
              for (let i = 0; i < l.length; i += 2) shadow.set(side, l[i]!, l[i + 1]!);
            }
          } else if (got === 'applied') {
            for (let c = 0; c < changes.length; c += 3) shadow.set(changes[c] as Side, changes[c + 1]!, changes[c + 2]!);
          } else {
            assert.equal(changes.length, 0, `${got}: nothing published`);
            if (got === 'gap') shadow.clear();
          }
          changes.length = 0;
          assert.equal(sync.synced, whole);
          if (sync.synced) {
            assert.deepEqual([book.flat(Side.BID, 10_000), book.flat(Side.ASK, 10_000)], acceptedWindow, 'whole means the venue\'s book as of the last push taken');
            assert.deepEqual([shadow.flat(Side.BID, 10_000), shadow.flat(Side.ASK, 10_000)], acceptedWindow, 'what was published rebuilds it');
          } else assert.equal(book.depth(Side.BID) + book.depth(Side.ASK), 0, 'a book not whole holds nothing');
          return got;
        };

        apply(initial);
        shown = [windowOf(Side.BID), windowOf(Side.ASK)];
        let last = next([], 'snapshot', false);
        deliver(last);
        // Pushes went missing since the last snapshot taken: the book may be behind the venue's
        // (the count shows it at the next push), until a snapshot is taken again.
        let lost = false;
        for (const s of steps) {
          let outcome: string | undefined;
          const take = (m: typeof last) => {
            last = m;
            outcome = deliver(m);
          };
          switch (s.kind) {
            case 'delta':
              take(next(s.ops, 'delta', s.omitExits));
              break;
            case 'snapshot':
              take(next(s.ops, 'snapshot', false));
              break;
            case 'restart':
              take(next(s.ops, 'snapshot', false, true));
              break;
            case 'restartLost':
              // The venue restarts and its u = 1 snapshot is lost; u = 2 comes next. Only where
              // the count cannot coincide with ours (a whole book at u 1 or 2 would take it: no
              // sequence number catches a loss that lands on the expected value).
              if (whole && lastU <= 2) {
                take(next(s.ops, 'delta', s.omitExits));
                break;
              }
              next([], 'snapshot', false, true);
              lost = true;
              take(next(s.ops, 'delta', s.omitExits));
              break;
            case 'drop':
              next(s.ops, 'delta', s.omitExits);
              lost = true;
              break;
            case 'repeat':
              outcome = deliver(last);
              break;
            case 'reconnect':
              sync.reset();
              shadow.clear();
              whole = false;
              lastU = -1;
              take(next(s.ops, 'snapshot', false));
              break;
          }
          // A fresh snapshot taken makes the book current again (a repeated old one does not).
          if (s.kind !== 'repeat' && (outcome === 'synced' || (outcome === 'applied' && last.frame['type'] === 'snapshot'))) lost = false;
          // With nothing lost since, a whole book is the venue's book now.
          if (sync.synced && !lost) assert.deepEqual([book.flat(Side.BID, 10_000), book.flat(Side.ASK, 10_000)], [flat(shown[Side.BID]!, Side.BID), flat(shown[Side.ASK]!, Side.ASK)]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('Bybit public WebSocket codec', () => {
  it('names the stream and topics, and builds subscriptions of at most 10 topics (the spot limit)', () => {
    assert.equal(PUBLIC_SPOT_PATH, '/v5/public/spot');
    assert.equal(bookTopic(50, 'BTCUSDT'), 'orderbook.50.BTCUSDT');
    // The docs' request example, key for key.
    assert.deepEqual(subscriptionRequests('subscribe', ['orderbook.1.BTCUSDT'], 'test'), ['{"req_id":"test","op":"subscribe","args":["orderbook.1.BTCUSDT"]}']);
    assert.deepEqual(subscriptionRequests('unsubscribe', ['orderbook.50.ETHUSDT']), ['{"op":"unsubscribe","args":["orderbook.50.ETHUSDT"]}']);
    const topics = Array.from({ length: 23 }, (_, i) => bookTopic(50, `C${i}USDT`));
    const requests = subscriptionRequests('subscribe', topics, 'books');
    assert.equal(MAX_ARGS_PER_REQUEST, 10);
    assert.deepEqual(requests.map((r) => (JSON.parse(r) as { args: string[] }).args.length), [10, 10, 3]);
    assert.deepEqual(requests.map((r) => (JSON.parse(r) as { req_id: string }).req_id), ['books-0', 'books-1', 'books-2']);
    assert.deepEqual(requests.flatMap((r) => (JSON.parse(r) as { args: string[] }).args), topics, 'every topic once, in order');
    assert.deepEqual(subscriptionRequests('subscribe', []), []);
  });

  it("recognises the docs' pongs (spot, linear, option, private) and subscription answers", () => {
    assert.equal(PING, '{"op":"ping"}');
    assert.deepEqual(decodeControl({ success: true, ret_msg: 'pong', conn_id: '0970e817-426e-429a-a679-ff7f55e0b16a', op: 'ping' }), { kind: 'pong' });
    assert.deepEqual(decodeControl({ success: true, ret_msg: 'pong', conn_id: '465772b1-7630-4fdc-a492-e003e6f0f260', req_id: '', op: 'ping' }), { kind: 'pong' });
    assert.deepEqual(decodeControl({ args: ['1672916271846'], op: 'pong' }), { kind: 'pong' });
    assert.deepEqual(decodeControl({ req_id: 'test', op: 'pong', args: ['1675418560633'], conn_id: 'cfcb4ocsvfriu23r3er0-1b' }), { kind: 'pong' });
    assert.deepEqual(decodeControl({ success: true, ret_msg: 'subscribe', conn_id: '2324d924-aa4d-45b0-a858-7b8be29ab52b', req_id: '10001', op: 'subscribe' }), { kind: 'subscribe', success: true, reqId: '10001', message: 'subscribe' });
    // A refused topic (not from the docs: the shape of their answers with success false).
    assert.deepEqual(decodeControl({ success: false, ret_msg: 'Invalid topic: orderbook.7.BTCUSDT', conn_id: 'x', op: 'subscribe' }), { kind: 'subscribe', success: false, reqId: null, message: 'Invalid topic: orderbook.7.BTCUSDT' });
    assert.equal(decodeControl(DOC_SNAPSHOT), undefined, 'a data push is not a control frame');
    assert.equal(decodeControl({ success: true, ret_msg: '', op: 'auth' }), undefined);
  });

  it('takes ts as a number or a numeric string, and refuses what it cannot read rather than rounding it', () => {
    assert.equal(decodeBookFrame({ ...DOC_SNAPSHOT, ts: '1772694601512' })!.data!.ts_ms, 1772694601512);
    assert.equal(decodeBookFrame({ ...DOC_SNAPSHOT, cts: undefined })!.data!.cts_ms, null);
    const bad = (data: Record<string, unknown>) => decodeBookFrame({ ...DOC_SNAPSHOT, data: { ...DOC_SNAPSHOT.data, ...data } })!.data;
    assert.equal(bad({ b: [['1e3', '1']] }), null, 'an exponent');
    assert.equal(bad({ a: [['16611.0000000001', '1']] }), null, 'a price past 9 decimals');
    assert.equal(bad({ u: undefined }), null, 'no update id');
    assert.equal(bad({ s: 'ETHUSDT' }), null, 'data of another symbol than the topic');
    assert.equal(bad({ b: [['0', '1']] }), null, 'a price of 0');
    assert.notEqual(bad({ seq: undefined }), null, 'seq is informative only');
    assert.equal(decodeBookFrame({ topic: 'publicTrade.BTCUSDT', type: 'snapshot', data: [] }), undefined);
    assert.equal(decodeBookFrame({ topic: 'orderbook.50.BTCUSDT', type: 'other', data: {} }), undefined);
    assert.equal(decodeBookFrame('pong'), undefined);
  });
});

// ---------------------------------------------------------------------------------------------

// Get Instruments Info, the spot example as printed, beside listings not from the docs.
const INSTRUMENTS = {
  retCode: 0,
  retMsg: 'OK',
  result: {
    category: 'spot',
    list: [
      {
        symbolId: 9,
        symbol: 'BTCUSDT',
        baseCoin: 'BTC',
        quoteCoin: 'USDT',
        innovation: '0',
        status: 'Trading',
        marginTrading: 'utaOnly',
        stTag: '0',
        lotSizeFilter: { basePrecision: '0.000001', quotePrecision: '0.0000001', minOrderQty: '0.000011', maxOrderQty: '83', minOrderAmt: '5', maxOrderAmt: '8000000', maxLimitOrderQty: '83', maxMarketOrderQty: '41.5', postOnlyMaxLimitOrderSize: '60000' },
        priceFilter: { tickSize: '0.1' },
        riskParameters: { priceLimitRatioX: '0.005', priceLimitRatioY: '0.01' },
        symbolType: '',
      },
      { symbol: 'USDEUSDT', baseCoin: 'USDE', quoteCoin: 'USDT', status: 'Trading', lotSizeFilter: { basePrecision: '0.01', minOrderAmt: '1.0000000001' }, priceFilter: { tickSize: '0.0001' } },
      { symbol: 'NEWUSDT', baseCoin: 'NEW', quoteCoin: 'USDT', status: 'PreLaunch', lotSizeFilter: { basePrecision: '1', minOrderAmt: '5' }, priceFilter: { tickSize: '0.001' } },
      { symbol: 'TINYUSDT', baseCoin: 'TINY', quoteCoin: 'USDT', status: 'Trading', lotSizeFilter: { basePrecision: '1' }, priceFilter: { tickSize: '0.0000000001' } },
      { symbol: 'AAPLxUSDT', baseCoin: 'AAPLx', quoteCoin: 'USDT', status: 'Trading', lotSizeFilter: { basePrecision: '0.001' }, priceFilter: { tickSize: '0.01' } },
    ],
  },
  retExtInfo: {},
  time: 1760027412300,
};

const BTCUSDT: BybitInstrument = {
  symbol: 'BTC-USDT',
  venueSymbol: 'BTCUSDT',
  base: 'BTC',
  quote: 'USDT',
  status: 'Trading',
  trading: true,
  tick_1e9: 100_000_000,
  lot_1e8: 100,
  min_qty_1e8: 1_100,
  min_amount_1e9: 5_000_000_000,
  max_limit_qty_1e8: 8_300_000_000,
  max_market_qty_1e8: 4_150_000_000,
};

describe('Bybit symbols and instruments', () => {
  it("reads the docs' spot listing into engine units; a minimum past our scale rounds up; a tick finer than 1e-9 or coins outside our symbols are left out", () => {
    const decoded = decodeInstruments(INSTRUMENTS)!;
    assert.equal(decoded.cursor, '', 'spot is not paged');
    assert.deepEqual(decoded.instruments[0], BTCUSDT);
    assert.deepEqual(
      decoded.instruments.slice(1).map((i) => [i.symbol, i.venueSymbol, i.trading, i.tick_1e9, i.lot_1e8, i.min_amount_1e9, i.max_limit_qty_1e8]),
      [
        ['USDE-USDT', 'USDEUSDT', true, 100_000, 1_000_000, 1_000_000_001, 0],
        ['NEW-USDT', 'NEWUSDT', false, 1_000_000, 100_000_000, 5_000_000_000, 0],
      ],
    );
    assert.equal(decodeInstruments({ retCode: 10001, retMsg: 'Request parameter error', result: {} }), undefined);
    assert.equal(INSTRUMENTS_PATH, '/v5/market/instruments-info?category=spot');
  });

  it('maps symbols both ways from baseCoin and quoteCoin, never by splitting the venue symbol', () => {
    assert.equal(venueSymbolOf('BTC-USDT'), 'BTCUSDT');
    const symbols = new BybitSymbols(decodeInstruments(INSTRUMENTS)!.instruments);
    assert.equal(symbols.venueOf('BTC-USDT'), 'BTCUSDT');
    assert.equal(symbols.ourOf('BTCUSDT'), 'BTC-USDT');
    // USDEUSDT splits as USD/EUSDT or USDE/USDT: only the listing's coins say which.
    assert.equal(symbols.ourOf('USDEUSDT'), 'USDE-USDT');
    assert.equal(symbols.ourOf('TINYUSDT'), undefined);
    assert.equal(symbols.venueOf('ETH-USDT'), undefined);
  });
});

describe('Bybit orderLinkId', () => {
  it('is our child id itself: letters, digits, "_" and "-", at most 36 characters (Place Order)', () => {
    assert.equal(bybitOrderLinkId('ord_0mwz4ka3500001oq-1'), 'ord_0mwz4ka3500001oq-1');
    assert.equal(bybitOrderLinkId('ord_0mwz4ka3500001oq-99999'), 'ord_0mwz4ka3500001oq-99999');
    assert.equal(childIdOfBybit('ord_0mwz4ka3500001oq-1'), 'ord_0mwz4ka3500001oq-1');
    assert.equal(bybitOrderLinkId(`ord_${'a'.repeat(30)}-1`), `ord_${'a'.repeat(30)}-1`, '36 characters');
    assert.equal(bybitOrderLinkId(`ord_${'a'.repeat(31)}-1`), undefined, '37 characters');
    assert.equal(bybitOrderLinkId('spot-test-postonly'), undefined, 'not a child id');
    assert.equal(childIdOfBybit('spot-test-postonly'), undefined, 'an order placed by hand is not ours');
    assert.equal(childIdOfBybit(''), undefined);
    assert.ok(ORDER_LINK_ID.test('Ab_9-'));
    assert.ok(!ORDER_LINK_ID.test('a.b') && !ORDER_LINK_ID.test('a:b'));
  });

  it('every child id of up to 36 characters is its own orderLinkId, and round-trips (property)', () => {
    const alnum = fc.string({ unit: fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(alnum, fc.integer({ min: 0, max: 99_999 }), (body, n) => {
        const child = `ord_${body}-${n}`;
        const link = bybitOrderLinkId(child);
        if (child.length > 36) assert.equal(link, undefined);
        else {
          assert.equal(link, child);
          assert.match(link, ORDER_LINK_ID);
          assert.equal(childIdOfBybit(link), child);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('Bybit orders', () => {
  const CHILD = 'ord_0mwz4ka3500001oq-1';

  it("puts a child on the listing's terms: quantity down to basePrecision, limit onto the tick away from crossing, minOrderAmt and the maximums checked", () => {
    assert.deepEqual(orderTerms(BTCUSDT, 'buy', 1_234_567, 65_000_070_000_000), { ok: true, terms: { qty_1e8: 1_234_500, price_1e9: 65_000_000_000_000 } });
    assert.deepEqual(orderTerms(BTCUSDT, 'sell', 1_234_567, 65_000_070_000_000), { ok: true, terms: { qty_1e8: 1_234_500, price_1e9: 65_000_100_000_000 } });
    assert.deepEqual(orderTerms(BTCUSDT, 'buy', 1_234_567, null), { ok: true, terms: { qty_1e8: 1_234_500, price_1e9: null } });
    const refused = (r: ReturnType<typeof orderTerms>) => (r.ok ? '' : r.reason);
    assert.match(refused(orderTerms(BTCUSDT, 'buy', 99, 65_000e9)), /quantity step/);
    // 0.00005 BTC at 65,000 is 3.25 USDT, under minOrderAmt 5; 0.0001 BTC (6.5 USDT) passes.
    assert.match(refused(orderTerms(BTCUSDT, 'buy', 5_000, 65_000e9)), /minimum order value.*minOrderAmt 5 USDT/);
    assert.equal(orderTerms(BTCUSDT, 'buy', 10_000, 65_000e9).ok, true);
    assert.match(refused(orderTerms(BTCUSDT, 'buy', 8_400_000_000, 65_000e9)), /maximum limit order quantity/);
    assert.match(refused(orderTerms(BTCUSDT, 'sell', 4_200_000_000, null)), /maximum market order quantity/);
    assert.equal(orderTerms(BTCUSDT, 'sell', 4_150_000_000, null).ok, true);
  });

  it('builds the create, cancel and cancel-all bodies byte for byte, and the query paths', () => {
    assert.equal(CREATE_ORDER_PATH, '/v5/order/create');
    assert.equal(
      createOrderBody('BTCUSDT', CHILD, 'buy', { qty_1e8: 1_234_500, price_1e9: 65_000_000_000_000 }, 'ioc'),
      '{"category":"spot","symbol":"BTCUSDT","side":"Buy","orderType":"Limit","qty":"0.012345","price":"65000","timeInForce":"IOC","orderLinkId":"ord_0mwz4ka3500001oq-1"}',
    );
    assert.equal(
      createOrderBody('BTCUSDT', CHILD, 'sell', { qty_1e8: 10_000, price_1e9: 65_000_100_000_000 }, 'gtc'),
      '{"category":"spot","symbol":"BTCUSDT","side":"Sell","orderType":"Limit","qty":"0.0001","price":"65000.1","timeInForce":"GTC","orderLinkId":"ord_0mwz4ka3500001oq-1"}',
    );
    // A market buy is sized in base only with marketUnit baseCoin (by default its qty is quote).
    assert.equal(createOrderBody('BTCUSDT', CHILD, 'buy', { qty_1e8: 1_234_500, price_1e9: null }, 'ioc'), '{"category":"spot","symbol":"BTCUSDT","side":"Buy","orderType":"Market","qty":"0.012345","marketUnit":"baseCoin","orderLinkId":"ord_0mwz4ka3500001oq-1"}');
    assert.equal(createOrderBody('BTCUSDT', 'manual-1', 'buy', { qty_1e8: 1, price_1e9: null }, 'ioc'), undefined, 'no orderLinkId, no order');
    assert.equal(CANCEL_ORDER_PATH, '/v5/order/cancel');
    assert.equal(cancelOrderBody('BTCUSDT', CHILD), '{"category":"spot","symbol":"BTCUSDT","orderLinkId":"ord_0mwz4ka3500001oq-1"}');
    assert.equal(CANCEL_ALL_PATH, '/v5/order/cancel-all');
    assert.equal(cancelAllBody('BTCUSDT'), '{"category":"spot","symbol":"BTCUSDT"}');
    assert.equal(orderRealtimePath({ orderLinkId: CHILD }), '/v5/order/realtime?category=spot&orderLinkId=ord_0mwz4ka3500001oq-1');
    assert.equal(orderHistoryPath({ orderId: '1321003749386327552' }), '/v5/order/history?category=spot&orderId=1321003749386327552');
    assert.equal(openOrdersPath(), '/v5/order/realtime?category=spot&openOnly=0&limit=50');
    assert.equal(openOrdersPath('page_args%3Dfd4300ae%26symbol%3D6%26'), '/v5/order/realtime?category=spot&openOnly=0&limit=50&cursor=page_args%3Dfd4300ae%26symbol%3D6%26');
    assert.equal(executionsPath({ orderId: '1321003749386327552' }), '/v5/execution/list?category=spot&orderId=1321003749386327552&limit=100');
    assert.equal(executionsPath({ orderLinkId: CHILD }, '132766%3A2%2C132766%3A2'), '/v5/execution/list?category=spot&orderLinkId=ord_0mwz4ka3500001oq-1&limit=100&cursor=132766%3A2%2C132766%3A2');
  });

  it("reads the place and cancel answers (docs' examples) and the venue's refusals by kind", () => {
    assert.deepEqual(decodeOrderAck({ retCode: 0, retMsg: 'OK', result: { orderId: '1321003749386327552', orderLinkId: 'spot-test-postonly' }, retExtInfo: {}, time: 1672211918471 }), { ok: true, orderId: '1321003749386327552', orderLinkId: 'spot-test-postonly' });
    assert.deepEqual(decodeOrderAck({ retCode: 0, retMsg: 'OK', result: { orderId: 'c6f055d9-7f21-4079-913d-e6523a9cfffa', orderLinkId: 'linear-004' }, retExtInfo: {}, time: 1672217377164 }), { ok: true, orderId: 'c6f055d9-7f21-4079-913d-e6523a9cfffa', orderLinkId: 'linear-004' });
    const refusal = (retCode: number, retMsg: string) => decodeOrderAck({ retCode, retMsg, result: {}, retExtInfo: {}, time: 1 });
    assert.deepEqual(refusal(170131, 'Balance insufficient'), { ok: false, retCode: 170131, retMsg: 'Balance insufficient', kind: 'funds', reason: 'bybit 170131: Balance insufficient', unknownOrder: false });
    assert.equal((refusal(170213, 'Order does not exist.') as { unknownOrder: boolean }).unknownOrder, true);
    assert.equal((refusal(170141, 'Duplicate clientOrderId') as { kind: string }).kind, 'duplicate');
    assert.equal(decodeOrderAck({ retCode: 0, retMsg: 'OK', result: {} }), undefined, 'no orderId: not an answer');
    assert.equal(decodeOrderAck('<html>'), undefined);
    // Cancel All Orders, the docs' example.
    assert.deepEqual(
      decodeCancelAll({ retCode: 0, retMsg: 'OK', result: { list: [{ orderId: '1616024329462743808', orderLinkId: '1616024329462743809' }, { orderId: '1616024287544869632', orderLinkId: '1616024287544869633' }], success: '1' }, retExtInfo: {}, time: 1707381118116 }),
      { cancelled: [{ orderId: '1616024329462743808', orderLinkId: '1616024329462743809' }, { orderId: '1616024287544869632', orderLinkId: '1616024287544869633' }], success: true },
    );
  });

  it('classifies retCodes: does not exist, nothing to cancel, fate unknown, duplicate, signature, clock, rate limit, funds', () => {
    const kinds: [number, string][] = [
      [110001, 'unknown-order'],
      [170213, 'unknown-order'],
      [110008, 'not-cancellable'],
      [170142, 'not-cancellable'],
      [170139, 'not-cancellable'],
      [10000, 'fate-unknown'],
      [10016, 'fate-unknown'],
      [170007, 'fate-unknown'],
      [170146, 'fate-unknown'],
      [110072, 'duplicate'],
      [170141, 'duplicate'],
      [10004, 'auth'],
      [10003, 'auth'],
      [10010, 'auth'],
      [10002, 'clock'],
      [10006, 'rate-limit'],
      [10018, 'rate-limit'],
      [170005, 'rate-limit'],
      [110007, 'funds'],
      [170131, 'funds'],
      [170140, 'refused'],
      [10001, 'refused'],
    ];
    assert.deepEqual(
      kinds.map(([code]) => [code, errorKindOf(code)]),
      kinds,
    );
    assert.ok(NO_SUCH_ORDER.has(110001) && NO_SUCH_ORDER.has(170213) && NO_SUCH_ORDER.size === 2);
    for (const code of NO_SUCH_ORDER) assert.ok(NOTHING_TO_CANCEL.has(code), 'what does not exist cannot be cancelled');
    assert.equal(bybitError({ retCode: 0, retMsg: 'OK', result: {} }), undefined);
    assert.deepEqual(bybitError({ retCode: 10004, retMsg: 'error sign! origin_string[...]' }), { retCode: 10004, retMsg: 'error sign! origin_string[...]', kind: 'auth', reason: 'bybit 10004: error sign! origin_string[...]', unknownOrder: false });
    assert.deepEqual([200, 401, 403, 404, 429, 502].map(statusKind), [undefined, 'auth', 'rate-limit', 'refused', 'rate-limit', 'fate-unknown']);
  });

  it("reads the rate limit headers (Rate Limit Rules' example), whatever their case", () => {
    const headers = new Headers({ 'Content-Type': 'application/json; charset=utf-8', 'X-Bapi-Limit': '10', 'X-Bapi-Limit-Status': '9', 'X-Bapi-Limit-Reset-Timestamp': '1672738134824' });
    assert.deepEqual(decodeLimitHeaders((name) => headers.get(name)), { limit: 10, remaining: 9, resetAtMs: 1672738134824 });
    assert.equal(decodeLimitHeaders(() => null), undefined);
    assert.deepEqual([RATE_LIMITS.ipPer5s, RATE_LIMITS.perSecond.create, RATE_LIMITS.perSecond.feeRate, RATE_LIMITS.ipBanMs], [600, 20, 5, 600_000]);
  });

  it("reads orders: the docs' open order, and spot rows by status (an IOC partly filled then cancelled rests nothing)", () => {
    // Get Open & Closed Orders, the docs' example row (a linear order), cut to the fields read.
    const doc = decodeOrders({
      retCode: 0,
      retMsg: 'OK',
      result: {
        list: [{ orderId: 'fd4300ae-7847-404e-b947-b46980a4d140', orderLinkId: 'test-000005', symbol: 'ETHUSDT', price: '1600.00', qty: '0.10', side: 'Buy', orderStatus: 'New', rejectReason: 'EC_NoError', avgPrice: '0', leavesQty: '0.10', leavesValue: '160', cumExecQty: '0.00', cumExecValue: '0', cumExecFee: '0', timeInForce: 'GTC', orderType: 'Limit', createdTime: '1684738540559', updatedTime: '1684738540561', cumFeeDetail: { MNT: '0.00242968' } }],
        nextPageCursor: 'page_args%3Dfd4300ae-7847-404e-b947-b46980a4d140%26symbol%3D6%26',
        category: 'linear',
      },
      retExtInfo: {},
      time: 1684765770483,
    })!;
    assert.equal(doc.cursor, 'page_args%3Dfd4300ae-7847-404e-b947-b46980a4d140%26symbol%3D6%26');
    assert.deepEqual(doc.orders[0], {
      orderId: 'fd4300ae-7847-404e-b947-b46980a4d140',
      orderLinkId: 'test-000005',
      child_id: null,
      venueSymbol: 'ETHUSDT',
      side: 'buy',
      orderType: 'Limit',
      status: 'New',
      open: true,
      qty_1e8: 10_000_000,
      filled_qty_1e8: 0,
      resting_qty_1e8: 10_000_000,
      rejectReason: 'EC_NoError',
      updated_ms: 1684738540561,
    });
    // Spot rows, not from the docs.
    const row = (o: Record<string, unknown>) => ({ orderId: '1', orderLinkId: CHILD, symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.01', cumExecQty: '0', leavesQty: '0.01', orderStatus: 'New', ...o });
    const orders = decodeOrders({ retCode: 0, retMsg: 'OK', result: { list: [row({ orderStatus: 'PartiallyFilledCanceled', cumExecQty: '0.004', leavesQty: '0' }), row({ orderStatus: 'PartiallyFilled', cumExecQty: '0.004', leavesQty: '0.006' }), row({ orderType: 'Market', marketUnit: 'quoteCoin', qty: '100', orderStatus: 'Filled', cumExecQty: '0.0015', leavesQty: '' }), row({ orderStatus: 'PartiallyFilled', cumExecQty: '0.004', leavesQty: undefined })] } })!.orders;
    assert.deepEqual(
      orders.map((o) => [o.status, o.open, o.qty_1e8, o.filled_qty_1e8, o.resting_qty_1e8, o.child_id]),
      [
        ['PartiallyFilledCanceled', false, 1_000_000, 400_000, 0, CHILD],
        ['PartiallyFilled', true, 1_000_000, 400_000, 600_000, CHILD],
        ['Filled', false, null, 150_000, 0, CHILD],
        ['PartiallyFilled', true, 1_000_000, 400_000, 600_000, CHILD],
      ],
    );
    assert.deepEqual(legReportOf(orders[1]!, []), { ok: true, reason: null, fills: [], resting_qty_1e8: 600_000 });
    assert.equal(decodeOrders({ retCode: 0, retMsg: 'OK', result: { list: [row({ orderStatus: 'Open' })] } }), undefined, 'an unknown status');
    assert.equal(decodeOrders({ retCode: 0, retMsg: 'OK', result: { list: [row({ cumExecQty: '0.000000001' })] } }), undefined, 'a size past 8 decimals');
    assert.deepEqual(decodeOrders({ retCode: 0, retMsg: 'OK', result: { list: [], nextPageCursor: '' } }), { orders: [], cursor: '' }, 'nothing found: empty, not an error');
    assert.equal(decodeOrders({ retCode: 10005, retMsg: 'Permission denied', result: {} }), undefined);
  });
});

describe('Bybit fills', () => {
  const fees = feeContextOf({ base: 'BTC', quote: 'USDT' }, { maker_bps: 10, taker_bps: 10 });
  const row = (o: Record<string, unknown>) => ({ symbol: 'BTCUSDT', orderId: '1321003749386327552', orderLinkId: 'ord_0mwz4ka3500001oq-1', side: 'Buy', orderPrice: '65000.1', orderQty: '0.01', leavesQty: '0', orderType: 'Limit', stopOrderType: '', execPrice: '65000.1', execQty: '0.002', execType: 'Trade', execValue: '130.0002', execTime: '1700000000100', feeRate: '0.001', isMaker: false, execFee: '0.000002', feeCurrency: 'BTC', execId: 'e-1', extraFees: '', seq: 1, ...o });
  const decode = (...rows: Record<string, unknown>[]) => decodeExecutions({ retCode: 0, retMsg: 'OK', result: { nextPageCursor: '', category: 'spot', list: rows }, retExtInfo: {}, time: 1 }, fees);

  it("names the fee coin as the docs' Spot Fee Currency Instruction does", () => {
    // [side, isMaker, negative maker rate] -> coin, for BTCUSDT.
    const table: [('buy' | 'sell'), boolean, boolean, string][] = [
      ['buy', false, false, 'BTC'],
      ['sell', false, false, 'USDT'],
      ['buy', true, false, 'BTC'],
      ['sell', true, false, 'USDT'],
      ['buy', true, true, 'USDT'],
      ['sell', true, true, 'BTC'],
      ['buy', false, true, 'BTC'],
      ['sell', false, true, 'USDT'],
    ];
    for (const [side, maker, negative, coin] of table) assert.equal(spotFeeCoin(side, maker, negative, 'BTC', 'USDT'), coin, `${side} maker=${maker} negative=${negative}`);
  });

  it('prices a base-coin fee as a commission in base plus its USD value, rounding against us', () => {
    const [fill] = decode(row({}))!.fills;
    assert.deepEqual(fill, { price_1e9: 65_000_100_000_000, qty_1e8: 200_000, trade_id: 'e-1', ts_ns: 1_700_000_000_100_000_000, fee_1e9: 130_000_200, commission: { asset: 'BTC', qty_1e8: 200 }, is_maker: false });
    // 0.0000020001 BTC: 200.01 units of 1e-8 -> 201; worth 0.0000020001 x 65000.1 = 0.13000670001 USD -> 130_006_701 (1e-9 units, up).
    const [odd] = decode(row({ execFee: '0.0000020001' }))!.fills;
    assert.deepEqual([odd!.commission, odd!.fee_1e9], [{ asset: 'BTC', qty_1e8: 201 }, 130_006_701]);
    assert.equal(Number((20_001n * 65_000_100_000_000n + 10n ** 10n - 1n) / 10n ** 10n), 130_006_701, 'the same, by hand');
  });

  it('a quote-coin fee is USD; a rebate is negative and rounds toward zero; a third coin is priced at the account rate; the fee coin is inferred when not sent', () => {
    const fills = decode(
      row({ execId: 'e-2', side: 'Sell', isMaker: true, execFee: '0.1300002', feeCurrency: 'USDT' }),
      row({ execId: 'e-3', side: 'Buy', isMaker: true, feeRate: '-0.0001', execFee: '-0.0000000005', feeCurrency: '' }),
      row({ execId: 'e-4', execFee: '0.5', feeCurrency: 'MNT' }),
      row({ execId: 'e-5', side: 'Sell', execFee: '0.13', feeCurrency: '' }),
    )!.fills;
    assert.deepEqual(
      fills.map((f) => [f.trade_id, f.fee_1e9, f.commission ?? null, f.is_maker]),
      [
        ['e-2', 130_000_200, null, true],
        ['e-3', 0, null, true], // -0.5e-9 USDT: a rebate rounded up is credited nothing
        ['e-4', fees.fallbackFee(65_000_100_000_000, 200_000, false), { asset: 'MNT', qty_1e8: 50_000_000 }, false],
        ['e-5', 130_000_000, null, false], // a taker sell pays in quote
      ],
    );
    assert.equal(decode(row({ feeRate: '-0.0001', isMaker: true, execFee: '-0.0065', feeCurrency: '' }))!.fills[0]!.fee_1e9, -6_500_000, 'a maker buy on a rebate rate is paid in quote');
  });

  it("adds extraFees (taxes) in the fee's coin, as a JSON string (REST) or a list (stream); another coin's are left out", () => {
    // The execution stream example's GST entry, on a sell paying its fee in USDT.
    const gst = [{ feeCoin: 'USDT', feeType: 'GST', subFeeType: 'IND_GST', feeRate: '0.0000675', fee: '0.006403779' }];
    const sell = { side: 'Sell', execFee: '0.1', feeCurrency: 'USDT' };
    assert.equal(decode(row({ ...sell, extraFees: JSON.stringify(gst) }))!.fills[0]!.fee_1e9, 106_403_779);
    assert.equal(decode(row({ ...sell, extraFees: gst }))!.fills[0]!.fee_1e9, 106_403_779);
    assert.equal(decode(row({ ...sell, extraFees: [{ ...gst[0], feeCoin: 'BTC' }] }))!.fills[0]!.fee_1e9, 100_000_000);
    assert.equal(decode(row({ ...sell, extraFees: 'not json' }))!.fills[0]!.fee_1e9, 100_000_000);
  });

  it("returns one order's trades oldest first (ties by execId), skips what is not a trade, and keeps the cursor", () => {
    const page = decodeExecutions(
      {
        retCode: 0,
        retMsg: 'OK',
        result: {
          nextPageCursor: '132766%3A2%2C132766%3A2',
          list: [row({ execId: 'c', execTime: '1700000000300' }), row({ execId: 'b', execTime: '1700000000100' }), row({ execId: 'a', execTime: '1700000000100' }), row({ execId: 'x', execType: 'Funding' }), row({ execId: 'y', orderId: 'other' })],
        },
      },
      fees,
      '1321003749386327552',
    )!;
    assert.deepEqual(page.fills.map((f) => f.trade_id), ['a', 'b', 'c']);
    assert.equal(page.cursor, '132766%3A2%2C132766%3A2');
    assert.equal(decode(row({ execQty: '0' })), undefined, 'a fill of nothing');
    assert.equal(decode(row({ execId: '' })), undefined);
    assert.equal(decode(row({ execFee: '1e-8' })), undefined, 'a fee that is not a plain decimal');
    assert.equal(decodeExecutions({ retCode: 10006, retMsg: 'Too many visits!' }, fees), undefined);
  });
});

describe('Bybit account', () => {
  it("reads the docs' wallet balance, and splits owned coin into free and locked, exactly past 2^53 and rounded down", () => {
    // Get Wallet Balance, the docs' example cut to the coin fields read.
    const doc = { retCode: 0, retMsg: 'OK', result: { list: [{ totalEquity: '3.31216591', accountType: 'UNIFIED', coin: [{ availableToBorrow: '3', bonus: '0', accruedInterest: '0', availableToWithdraw: '0', totalOrderIM: '0', equity: '0', usdValue: '0', borrowAmount: '0.0', walletBalance: '0', locked: '0', coin: 'BTC', spotBorrow: '0' }] }] }, retExtInfo: {}, time: 1690872862481 };
    assert.deepEqual(decodeBalances(doc), [{ asset: 'BTC', free_1e8: 0n, locked_1e8: 0n }]);
    assert.equal(WALLET_BALANCE_PATH, '/v5/account/wallet-balance?accountType=UNIFIED');
    // Not from the docs.
    const coins = (rows: Record<string, unknown>[]) => decodeBalances({ retCode: 0, retMsg: 'OK', result: { list: [{ accountType: 'UNIFIED', coin: rows }] } });
    assert.deepEqual(coins([{ coin: 'USDT', walletBalance: '1000.123456789', locked: '100.5', spotBorrow: '0' }]), [{ asset: 'USDT', free_1e8: 89_962_345_678n, locked_1e8: 10_050_000_000n }]);
    assert.deepEqual(coins([{ coin: 'USDT', walletBalance: '123456789012.12345678', locked: '', spotBorrow: '' }]), [{ asset: 'USDT', free_1e8: 12_345_678_901_212_345_678n, locked_1e8: 0n }]);
    assert.deepEqual(coins([{ coin: 'ETH', walletBalance: '10', locked: '2', spotBorrow: '3' }]), [{ asset: 'ETH', free_1e8: 500_000_000n, locked_1e8: 200_000_000n }], 'what is borrowed is not owned');
    assert.deepEqual(coins([{ coin: 'ETH', walletBalance: '1', locked: '2' }]), [{ asset: 'ETH', free_1e8: 0n, locked_1e8: 100_000_000n }], 'never more locked than owned');
    assert.deepEqual(coins([{ coin: 'ETH', walletBalance: '1', spotBorrow: '3' }]), [{ asset: 'ETH', free_1e8: 0n, locked_1e8: 0n }], 'a debt is not a balance');
    assert.equal(coins([{ coin: 'ETH', walletBalance: '1e3' }]), undefined);
    assert.deepEqual(decodeBalances({ retCode: 0, retMsg: 'OK', result: { list: [] } }), []);
  });

  it("reads the fee rate (docs' example) in bps, a rebate negative", () => {
    assert.equal(feeRatePath('BTCUSDT'), '/v5/account/fee-rate?category=spot&symbol=BTCUSDT');
    const doc = { retCode: 0, retMsg: 'OK', result: { list: [{ symbol: 'ETHUSDT', takerFeeRate: '0.0006', makerFeeRate: '0.0001' }] }, retExtInfo: {}, time: 1676360412576 };
    assert.deepEqual(decodeFeeRate(doc, 'ETHUSDT'), { maker_bps: 1, taker_bps: 6 });
    assert.equal(decodeFeeRate(doc, 'BTCUSDT'), undefined);
    assert.deepEqual(decodeFeeRate({ retCode: 0, retMsg: 'OK', result: { list: [{ symbol: 'BTCUSDT', takerFeeRate: '0.00055', makerFeeRate: '-0.00005' }] } }, 'BTCUSDT'), { maker_bps: -0.5, taker_bps: 5.5 });
  });

  it("probes the key (docs' example: read only, no withdrawal) with its VIP level and fee rate", () => {
    assert.equal(API_KEY_PATH, '/v5/user/query-api');
    // Get API Key Information, the docs' example cut to the fields read.
    const doc = {
      retCode: 0,
      retMsg: '',
      result: {
        id: '2208369',
        note: 'testnet',
        apiKey: 'XXXXXXXX',
        readOnly: 1,
        secret: '',
        permissions: { ContractTrade: ['Order', 'Position'], Spot: ['SpotTrade'], Wallet: ['AccountTransfer', 'SubMemberTransfer'], Options: [], Derivatives: ['DerivativesTrade'], CopyTrading: [], BlockTrade: [], Exchange: ['ExchangeHistory'], NFT: [], Affiliate: [], Earn: ['Earn'] },
        type: 1,
        uta: 1,
        vipLevel: 'PRO-1',
        isMaster: true,
      },
    };
    const key = decodeKeyInfo(doc)!;
    assert.deepEqual(key, { readOnly: true, spotTrade: true, withdraw: false, vipLevel: 'PRO-1', unified: true });
    const schedule = { maker_bps: 10, taker_bps: 10 };
    assert.deepEqual(accountProbeOf(key, { maker_bps: 1, taker_bps: 6 }, schedule), { tier: 'PRO-1', maker_bps: 1, taker_bps: 6, can_trade: false, can_withdraw: false });
    // Not from the docs: a read-write key that may withdraw, and one whose answer lists no permissions.
    const rw = decodeKeyInfo({ ...doc, result: { ...doc.result, readOnly: 0, vipLevel: 'No VIP', permissions: { Spot: ['SpotTrade'], Wallet: ['AccountTransfer', 'Withdraw'] } } })!;
    assert.deepEqual(accountProbeOf(rw, undefined, schedule), { tier: 'No VIP', maker_bps: 10, taker_bps: 10, can_trade: true, can_withdraw: true });
    assert.equal(decodeKeyInfo({ retCode: 0, retMsg: '', result: { readOnly: 0 } })!.withdraw, null);
    assert.equal(decodeKeyInfo({ retCode: 10003, retMsg: 'API key is invalid.' }), undefined);
  });
});
