/**
 * The live KuCoin adapter's pure core: REST signing headers, the public WebSocket protocol
 * (token, URL, subscribe, ping, frames), the level-2 sync (buffer, snapshot, drop covered
 * pushes, take a push that reaches back to the book and only its changes past the book's
 * sequence, a hole is a gap), and the REST codec of instruments, HF orders, fills, balances,
 * fees and key permissions.
 *
 * Samples, by source:
 *   - KuCoin's previous API docs (Kucoin/kucoin-api-docs, source/localizable/index.html.md):
 *     "Signing a Message" (the worked example whose KC-API-SIGN is
 *     7QP/oM0ykidMdrfNEUmng8eZjg/ZvPafjIqmxiVfYu4=), the WebSocket frames (welcome, ping/pong,
 *     subscribe/ack), the Level-2 push of BTC-USDT at 14103844..14103847 and the calibration
 *     example (snapshot at sequence 16, one push; the docs print its sequenceStart and
 *     sequenceEnd swapped, 19 and 15, for a push whose changes run 15..19).
 *   - The official SDK's unit test of its signer (Kucoin/kucoin-universal-sdk,
 *     sdk/python/kucoin_universal_sdk/internal/infra/test_default_signer.py): HMAC-SHA256 of
 *     "test_plain" under "test_api_secret" is jie/gxS38wLFFaBwl/cAzFbAzlI8MIny96jSXrB+iP4=, the
 *     primitive a version 2/3 key's KC-API-PASSPHRASE is.
 *   - The API reference as that SDK's generator holds it (spec/rest/api/*.json
 *     `x-response-example`, spec/ws/openapi-spot-public.json): the bullet-public, level2
 *     snapshot, symbols, add order, order by clientOid, open orders, active symbols, cancel
 *     (plain and sync), cancel all, HF fills, accounts, trade fees and API key answers, values
 *     as printed.
 *   - Error bodies other than those are built from the reference's error-code tables (spot
 *     system codes, gateway codes) and messages seen in public client code (ccxt's KuCoin
 *     exceptions: `{"code":"400100","msg":"order_not_exist_or_not_allow_to_cancel"}`); KuCoin
 *     prints no example of an HF order lookup that finds nothing.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { formatScaled, parseScaled } from '../../actors/edge/live/decimal.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { kucoinSignature, kucoinSignedPassphrase } from '../../actors/edge/live/signing.ts';
import { MAX_BUFFERED_EVENTS } from '../../actors/edge/live/binance/depth-sync.ts';
import { KucoinBookSync, type Level2Update } from '../../actors/edge/live/kucoin/book-sync.ts';
import { DEFAULT_KEY_VERSION, keyVersionOf, kucoinHeaders } from '../../actors/edge/live/kucoin/signing.ts';
import {
  cancelAllPath,
  cancelSyncPath,
  childIdOfKucoin,
  classifyFailure,
  clientOrderPath,
  decodeActiveSymbols,
  decodeApiKeyInfo,
  decodeBalances,
  decodeBulletToken,
  decodeCancelAck,
  decodeCancelAllAck,
  decodeCancelSync,
  decodeFills,
  decodeFrame,
  decodeOpenOrders,
  decodeOrder,
  decodeOrderAck,
  decodeSnapshot,
  decodeSymbols,
  decodeTradeFees,
  fillsPath,
  kucoinClientOid,
  kucoinError,
  legReportOf,
  level2Subscriptions,
  openOrdersPath,
  orderBody,
  PATHS,
  pingFrame,
  probeOf,
  rateLimitResetMs,
  snapshotPath,
  streamUrl,
  tradeFeesPath,
} from '../../actors/edge/live/kucoin/codec.ts';

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64');
const creds = { api_key: '5c2db93503aa674c74a31734', api_secret: 'f03a5284-5c39-4aaa-9b20-dea10bdcf8e3', passphrase: 'my passphrase' };

describe('KuCoin signing', () => {
  it("reproduces the docs' worked example: KC-API-SIGN of 1547015186532POST/api/v1/deposit-addresses{\"currency\":\"BTC\"}", () => {
    const body = '{"currency":"BTC"}';
    assert.equal(kucoinSignature('1547015186532', 'POST', '/api/v1/deposit-addresses', body, creds.api_secret), '7QP/oM0ykidMdrfNEUmng8eZjg/ZvPafjIqmxiVfYu4=');
    assert.equal(kucoinSignature('1547015186532', 'post', '/api/v1/deposit-addresses', body, creds.api_secret), '7QP/oM0ykidMdrfNEUmng8eZjg/ZvPafjIqmxiVfYu4=', 'the method in capitals');
    const headers = kucoinHeaders(creds, 'POST', '/api/v1/deposit-addresses', body, 1547015186532);
    assert.equal(headers['KC-API-SIGN'], '7QP/oM0ykidMdrfNEUmng8eZjg/ZvPafjIqmxiVfYu4=');
    assert.equal(headers['KC-API-TIMESTAMP'], '1547015186532', 'the same text as signed');
    assert.equal(headers['KC-API-KEY'], '5c2db93503aa674c74a31734');
    assert.equal(headers['Content-Type'], 'application/json');
  });

  it("signs the passphrase with the HMAC primitive of the official SDK's signer test", () => {
    // Kucoin/kucoin-universal-sdk test_default_signer.py: sign(b"test_plain", b"test_api_secret").
    assert.equal(kucoinSignedPassphrase('test_plain', 'test_api_secret'), 'jie/gxS38wLFFaBwl/cAzFbAzlI8MIny96jSXrB+iP4=');
    const headers = kucoinHeaders({ api_key: 'test_api_key', api_secret: 'test_api_secret', passphrase: 'test_plain' }, 'GET', '/api/v1/accounts', '', 1234567890000);
    assert.equal(headers['KC-API-PASSPHRASE'], 'jie/gxS38wLFFaBwl/cAzFbAzlI8MIny96jSXrB+iP4=', 'never the passphrase itself');
    assert.equal(headers['KC-API-TIMESTAMP'], '1234567890000', "the SDK test's timestamp text for time() = 1234567890");
  });

  it('a GET signs its query and has no body or content type (computed here independently)', () => {
    const endpoint = fillsPath('BTC-USDT', '6717422bd51c29000775ea03');
    assert.equal(endpoint, '/api/v1/hf/fills?symbol=BTC-USDT&orderId=6717422bd51c29000775ea03&limit=100');
    const headers = kucoinHeaders(creds, 'GET', endpoint, '', 1729577515500.7);
    assert.equal(headers['KC-API-TIMESTAMP'], '1729577515500', 'whole milliseconds');
    assert.equal(headers['KC-API-SIGN'], hmac(creds.api_secret, `1729577515500GET${endpoint}`));
    assert.notEqual(headers['KC-API-SIGN'], kucoinHeaders(creds, 'GET', '/api/v1/hf/fills', '', 1729577515500)['KC-API-SIGN'], 'the query is signed');
    assert.equal(headers['Content-Type'], undefined);
    assert.equal(headers['KC-API-PASSPHRASE'], hmac(creds.api_secret, 'my passphrase'));
  });

  it('sends the key version the credentials say, 3 by default (what KuCoin issues now)', () => {
    assert.equal(DEFAULT_KEY_VERSION, 3);
    assert.equal(kucoinHeaders(creds, 'GET', PATHS.apiKey, '', 1)['KC-API-KEY-VERSION'], '3');
    assert.equal(keyVersionOf({ ...creds, extra_json: { key_version: 2 } }), 2);
    assert.equal(keyVersionOf({ ...creds, extra_json: { key_version: '2' } }), 2);
    assert.equal(keyVersionOf({ ...creds, extra_json: { key_version: 1 } }), 3, 'version 1 keys (passphrase in clear) are not supported');
    const v2 = kucoinHeaders({ ...creds, extra_json: { key_version: 2 } }, 'GET', PATHS.apiKey, '', 1);
    assert.equal(v2['KC-API-KEY-VERSION'], '2');
    assert.equal(v2['KC-API-PASSPHRASE'], hmac(creds.api_secret, 'my passphrase'), 'versions 2 and 3 sign the passphrase alike');
  });
});

// ---------------------------------------------------------------------------------------------

/** A level2 push as KuCoin sends it. */
function push(start: number, end: number, bids: (string | number)[][], asks: (string | number)[][], symbol = 'BTC-USDT'): unknown {
  return { type: 'message', topic: `/market/level2:${symbol}`, subject: 'trade.l2update', data: { changes: { asks, bids }, sequenceEnd: end, sequenceStart: start, symbol, time: 1663747970273 } };
}

function update(frame: unknown): Level2Update {
  const decoded = decodeFrame(frame);
  assert.ok(decoded !== undefined && decoded.type === 'level2', 'a readable level2 push');
  return decoded.update;
}

const px = (text: string) => parseScaled(text, 9);
const qty = (text: string) => parseScaled(text, 8);

describe('KuCoin public WebSocket', () => {
  it('reads the bullet-public answer and builds the connection URL', () => {
    const answer = {
      code: '200000',
      data: {
        token: '2neAiuYvAU61ZDXANAGAsiL4-iAExhsBXZxftpOeh_55i3Ysy2q2LEsEWU64mdzUOPusi34M_wGoSf7iNyEWJ93g2WHl-j4M7tCZ_S21PuIByWXUJFDywtiYB9J6i9GjsxUuhPw3Blq6rhZlGykT3Vp1phUafnulOOpts-MEmEF-3bpfetLOAq79RbGaLlE4JBvJHl5Vs9Y=.ymP9jIr6v-vucrZr8761yA==',
        instanceServers: [{ endpoint: 'wss://ws-api-spot.kucoin.com/', encrypt: true, protocol: 'websocket', pingInterval: 18000, pingTimeout: 10000 }],
      },
    };
    const token = decodeBulletToken(answer);
    assert.ok(token !== undefined);
    assert.deepEqual([token.endpoint, token.pingIntervalMs, token.pingTimeoutMs], ['wss://ws-api-spot.kucoin.com/', 18000, 10000]);
    const url = streamUrl(token, '1729816425625');
    assert.ok(url.startsWith('wss://ws-api-spot.kucoin.com/?token=2neAiuYvAU61'));
    assert.ok(url.endsWith('Vs9Y%3D.ymP9jIr6v-vucrZr8761yA%3D%3D&connectId=1729816425625'), 'the token encoded');
    assert.equal(new URL(url).searchParams.get('token'), answer.data.token, 'and read back whole');
    assert.equal(decodeBulletToken({ code: '200000', data: { token: 't', instanceServers: [] } }), undefined, 'no server');
    assert.equal(decodeBulletToken({ code: '400100', msg: 'x' }), undefined);
  });

  it('subscribes level2 at most 100 symbols a frame, each frame acked by its id', () => {
    const two = level2Subscriptions('subscribe', ['BTC-USDT', 'ETH-USDT'], 'l2');
    assert.deepEqual(two, [{ id: 'l2-0', text: '{"id":"l2-0","type":"subscribe","topic":"/market/level2:BTC-USDT,ETH-USDT","privateChannel":false,"response":true}' }]);
    const many = level2Subscriptions('unsubscribe', Array.from({ length: 250 }, (_, i) => `C${i}-USDT`), 'x');
    assert.equal(many.length, 3);
    assert.equal((JSON.parse(many[2]!.text) as { topic: string }).topic.split(',').length, 50);
    assert.equal((JSON.parse(many[1]!.text) as { type: string }).type, 'unsubscribe');
    assert.throws(() => level2Subscriptions('subscribe', ['BTC/USDT'], 'x'), /not a KuCoin symbol/);
    assert.equal(pingFrame('1545910590801'), '{"id":"1545910590801","type":"ping"}');
  });

  it("reads the docs' control frames", () => {
    assert.deepEqual(decodeFrame({ id: 'hQvf8jkno', type: 'welcome' }), { type: 'welcome', id: 'hQvf8jkno' });
    assert.deepEqual(decodeFrame({ id: '1545910590801', type: 'pong' }), { type: 'pong', id: '1545910590801' });
    assert.deepEqual(decodeFrame({ id: '1545910660739', type: 'ack' }), { type: 'ack', id: '1545910660739' });
    assert.deepEqual(decodeFrame({ id: 'l2-0', type: 'error', code: 404, data: 'topic /market/level2:NOPE-USDT is not found' }), { type: 'error', id: 'l2-0', code: 404, message: 'topic /market/level2:NOPE-USDT is not found' });
    assert.equal(decodeFrame({ type: 'message', topic: '/market/ticker:BTC-USDT', subject: 'trade.ticker', data: {} }), undefined, 'another topic');
  });

  it("decodes the docs' level2 pushes (price, size and sequence as strings)", () => {
    // docs-new, Orderbook - Increment
    const recent = decodeFrame({ topic: '/market/level2:BTC-USDT', type: 'message', subject: 'trade.l2update', data: { changes: { asks: [['67993.3', '1.21427407', '14701689783']], bids: [] }, sequenceEnd: 14701689783, sequenceStart: 14701689783, symbol: 'BTC-USDT', time: 1729816425625 } });
    assert.deepEqual(recent, { type: 'level2', symbol: 'BTC-USDT', update: { sequenceStart: 14701689783, sequenceEnd: 14701689783, bids: [], asks: [px('67993.3'), qty('1.21427407'), 14701689783], ts_ms: 1729816425625 } });
    // previous docs: changes of one push are not in sequence order
    const u = update(push(14103844, 14103847, [['18891.9', '0.15688', '14103847']], [['18906', '0.00331', '14103845'], ['18907.3', '0.58751503', '14103844']]));
    assert.deepEqual(u.asks, [18_906_000_000_000, 331_000, 14103845, 18_907_300_000_000, 58_751_503, 14103844]);
    assert.deepEqual(u.bids, [18_891_900_000_000, 15_688_000, 14103847]);
  });

  it('keeps a price-0 entry as sequence-only, and refuses what it cannot read exactly', () => {
    assert.deepEqual(update(push(5, 6, [['0', '0', '5']], [['10', '1', 6]])).bids, [0, 0, 5]);
    assert.equal(decodeFrame(push(5, 6, [['1e3', '1', '5']], [])), undefined, 'an exponent');
    assert.equal(decodeFrame(push(5, 6, [['100', '0.000000001', '5']], [])), undefined, 'past 8 decimals of size');
    assert.equal(decodeFrame(push(5, 6, [['100', '1']], [])), undefined, 'no sequence');
    assert.equal(decodeFrame(push(5, 6, [['-1', '1', '5']], [])), undefined, 'a negative price');
    assert.equal(decodeFrame(push(7, 6, [], [])), undefined, 'sequenceStart after sequenceEnd');
    assert.equal(decodeFrame(push(5, 2 ** 53 + 2, [], [])), undefined, 'a sequence past 2^53');
  });

  it("reads the REST snapshot (the reference's example; sequence is a string)", () => {
    const snap = decodeSnapshot({ code: '200000', data: { time: 1729176273859, sequence: '14610502970', bids: [['66976.4', '0.69109872'], ['66976.3', '0.14377']], asks: [['66976.5', '0.05408199'], ['66976.8', '0.0005']] } });
    assert.deepEqual(snap, { sequence: 14610502970, bids: [66_976_400_000_000, 69_109_872, 66_976_300_000_000, 14_377_000], asks: [66_976_500_000_000, 5_408_199, 66_976_800_000_000, 50_000], ts_ms: 1729176273859 });
    assert.equal(snapshotPath('BTC-USDT', true), '/api/v3/market/orderbook/level2?symbol=BTC-USDT');
    assert.equal(snapshotPath('BTC-USDT', false), '/api/v1/market/orderbook/level2_100?symbol=BTC-USDT');
    assert.equal(decodeSnapshot({ code: '200000', data: { sequence: 'x', bids: [], asks: [] } }), undefined);
  });
});

describe('KuCoin level2 sync', () => {
  const docsSnapshot = (sync: KucoinBookSync) =>
    sync.onSnapshot(
      16,
      [px('3988.51'), qty('56'), px('3988.50'), qty('15'), px('3988.49'), qty('100'), px('3988.48'), qty('10')],
      [px('3988.62'), qty('8'), px('3988.61'), qty('32'), px('3988.60'), qty('47'), px('3988.59'), qty('3')],
    );
  // The docs print "sequenceEnd": 15, "sequenceStart": 19 for this push; its changes run 15..19.
  const docsPush = () => update(push(15, 19, [['3988.50', '44', '18']], [['3988.59', '3', 16], ['3988.61', '0', 19], ['3988.62', '8', 15]]));

  it("follows the docs' calibration example: changes at or below the snapshot's 16 are ignored, 18 and 19 applied", () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new KucoinBookSync(book, changes);
    assert.equal(sync.onUpdate(docsPush()), 'buffered');
    assert.equal(docsSnapshot(sync), 'synced');
    assert.equal(sync.sequence, 19);
    assert.deepEqual(changes, [], 'a sync publishes the whole book');
    assert.deepEqual(book.flat(Side.ASK, 10), [px('3988.59'), qty('3'), px('3988.60'), qty('47'), px('3988.62'), qty('8')]);
    assert.deepEqual(book.flat(Side.BID, 10), [px('3988.51'), qty('56'), px('3988.50'), qty('44'), px('3988.49'), qty('100'), px('3988.48'), qty('10')]);
  });

  it('the same push after the snapshot is applied and its changes recorded', () => {
    const changes: number[] = [];
    const sync = new KucoinBookSync(new L2Book(), changes);
    assert.equal(docsSnapshot(sync), 'synced', 'nothing buffered: whole at once');
    assert.equal(sync.onUpdate(docsPush()), 'applied');
    assert.deepEqual(changes, [Side.BID, px('3988.50'), qty('44'), Side.ASK, px('3988.61'), 0]);
    changes.length = 0;
    assert.equal(sync.onUpdate(docsPush()), 'buffered', 'a push the book already covers is dropped');
    assert.deepEqual(changes, []);
    assert.equal(sync.onUpdate(update(push(20, 20, [['0', '0', '20']], []))), 'applied', 'a sequence-only push moves the sequence');
    assert.deepEqual(changes, []);
    assert.equal(sync.sequence, 20);
    assert.equal(sync.onUpdate(update(push(22, 23, [], [['4000', '1', '23']]))), 'gap', '21 is missing');
    assert.equal(sync.synced, false);
    assert.equal(sync.sequence, -1);
    assert.equal(sync.buffered, 1, 'the push that showed the gap waits for the next snapshot');
  });

  it('a snapshot older than the first buffered push is stale and the buffer is kept; a newer one syncs', () => {
    const book = new L2Book();
    const sync = new KucoinBookSync(book, []);
    sync.onUpdate(update(push(101, 102, [['10', '1', '102']], [])));
    sync.onUpdate(update(push(103, 103, [['11', '1', '103']], [])));
    assert.equal(sync.onSnapshot(99, [px('9'), qty('1')], []), 'stale', '100 is in neither');
    assert.equal(sync.synced, false);
    assert.equal(book.depth(Side.BID), 0);
    assert.equal(sync.buffered, 2);
    assert.equal(sync.onSnapshot(100, [px('9'), qty('1')], []), 'synced');
    assert.equal(sync.sequence, 103);
    assert.deepEqual(book.flat(Side.BID, 10), [px('11'), qty('1'), px('10'), qty('1'), px('9'), qty('1')]);
  });

  it('a hole inside the buffered stream is a gap, kept from the push after it', () => {
    const sync = new KucoinBookSync(new L2Book(), []);
    sync.onUpdate(update(push(101, 102, [], [])));
    sync.onUpdate(update(push(104, 105, [], [])));
    assert.equal(sync.onSnapshot(101, [], []), 'gap');
    assert.equal(sync.buffered, 1);
    assert.equal(sync.onSnapshot(104, [], []), 'synced');
    assert.equal(sync.sequence, 105);
  });

  it('holds at most MAX_BUFFERED_EVENTS pushes, dropping the oldest; reset forgets the book and the buffer', () => {
    const book = new L2Book();
    const sync = new KucoinBookSync(book, []);
    for (let i = 0; i <= MAX_BUFFERED_EVENTS; i++) sync.onUpdate(update(push(i + 1, i + 1, [], [])));
    assert.equal(sync.buffered, MAX_BUFFERED_EVENTS);
    assert.equal(sync.onSnapshot(0, [], []), 'stale', 'push 1 was dropped');
    assert.equal(sync.onSnapshot(1, [px('5'), qty('1')], []), 'synced');
    sync.reset();
    assert.deepEqual([sync.synced, sync.buffered, book.depth(Side.BID)], [false, 0, 0]);
  });

  it('whatever the stream and snapshots, a whole book is the venue book at its sequence, and a consumer of syncs and changes sees the same book (property)', () => {
    type Ev = { kind: number; bid: boolean; tick: number; q: number };
    const ev = fc.record({ kind: fc.integer({ min: 0, max: 7 }), bid: fc.boolean(), tick: fc.integer({ min: 1, max: 25 }), q: fc.integer({ min: 0, max: 4 }) });
    const fault = fc.record({ at: fc.nat({ max: 25 }), kind: fc.constantFrom('drop', 'drop', 'dup', 'overlap', 'old') });
    const BASE = 5_000;
    const priceText = (bid: boolean, tick: number) => formatScaled(bid ? 100_000 - 5 * tick : 100_000 + 5 * tick, 2);
    const sizeText = (q: number) => formatScaled(q * 12_345, 8);

    fc.assert(
      fc.property(
        fc.array(ev, { maxLength: 30 }),
        fc.array(ev, { minLength: 1, maxLength: 90 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 10 }),
        fc.nat({ max: 5 }),
        fc.array(fault, { maxLength: 5 }),
        fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (initial, events, cuts, first, faults, snapshotAfter, snapshotPick) => {
          // The venue: a book at BASE, then one change (or, kind 0, a sequence-only step) per sequence number.
          const truthAt = (seq: number) => {
            const sides = [new Map<number, number>(), new Map<number, number>()];
            const set = (e: Ev) => {
              const side = sides[e.bid ? Side.BID : Side.ASK]!;
              const p = parseScaled(priceText(e.bid, e.tick), 9);
              if (e.q === 0) side.delete(p);
              else side.set(p, parseScaled(sizeText(e.q), 8));
            };
            for (const e of initial) set(e);
            for (let i = 0; i < events.length && BASE + 1 + i <= seq; i++) if (events[i]!.kind !== 0) set(events[i]!);
            const flat = (side: Side) => [...sides[side]!].sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0])).flat();
            return [flat(Side.BID), flat(Side.ASK)];
          };
          const lastSeq = BASE + events.length;
          // Its pushes: consecutive events batched, each price's last change in the batch, and
          // sequence-only entries at price 0 (with a size, which must not matter).
          type Msg = { start: number; end: number };
          const entriesOf = ({ start, end }: Msg) => {
            const last = new Map<string, [boolean, string, string, string]>();
            const bids: string[][] = [];
            const asks: string[][] = [];
            for (let s = start; s <= end; s++) {
              const e = events[s - BASE - 1]!;
              if (e.kind === 0) (e.bid ? bids : asks).push(['0', sizeText(e.q), String(s)]);
              else last.set(`${e.bid}:${e.tick}`, [e.bid, priceText(e.bid, e.tick), sizeText(e.q), String(s)]);
            }
            for (const [bid, p, q, s] of last.values()) (bid ? bids : asks).push([p, q, s]);
            return { bids, asks };
          };
          const msgs: Msg[] = [];
          for (let s = BASE + 1, c = 0; s <= lastSeq; c++) {
            const end = Math.min(lastSeq, s + cuts[c % cuts.length]! - 1);
            msgs.push({ start: s, end });
            s = end + 1;
          }
          // What the client receives: from its subscription on, with drops, repeats, overlapping and late old pushes.
          const received: Msg[] = [];
          let dropped = false;
          for (let j = Math.min(first, msgs.length - 1); j < msgs.length; j++) {
            const f = faults.find((x) => x.at === j)?.kind;
            if (f === 'drop') dropped = true;
            else if (f === 'dup') received.push(msgs[j]!, msgs[j]!);
            else if (f === 'overlap' && j > 0) received.push({ start: msgs[j - 1]!.start, end: msgs[j]!.end });
            else if (f === 'old' && j > 1) received.push(msgs[j]!, msgs[j - 2]!);
            else received.push(msgs[j]!);
          }

          // The documented rule on sequence numbers alone, with the changes a taken push must publish.
          const model = { whole: false, seq: -1, held: [] as Msg[] };
          const modelNext = (m: Msg): { outcome: string; changes: number[] } => {
            if (m.end <= model.seq) return { outcome: 'buffered', changes: [] };
            if (m.start > model.seq + 1) return { outcome: 'gap', changes: [] };
            const { bids, asks } = entriesOf(m);
            const changes: number[] = [];
            for (const [side, entries] of [[Side.BID, bids], [Side.ASK, asks]] as const) {
              for (const [p, q, s] of entries) if (p !== '0' && Number(s) > model.seq) changes.push(side, parseScaled(p!, 9), parseScaled(q!, 8));
            }
            model.seq = m.end;
            return { outcome: 'applied', changes };
          };
          const modelUpdate = (m: Msg) => {
            if (!model.whole) {
              model.held.push(m);
              return { outcome: 'buffered', changes: [] };
            }
            const r = modelNext(m);
            if (r.outcome === 'gap') Object.assign(model, { whole: false, seq: -1, held: [m] });
            return r;
          };
          const modelSnapshot = (seq: number) => {
            Object.assign(model, { whole: true, seq });
            const held = model.held;
            model.held = [];
            let taken = false;
            for (let i = 0; i < held.length; i++) {
              const r = modelNext(held[i]!);
              if (r.outcome === 'gap') {
                Object.assign(model, { whole: false, seq: -1, held: held.slice(i) });
                return taken ? 'gap' : 'stale';
              }
              if (r.outcome === 'applied') taken = true;
            }
            return 'synced';
          };

          const book = new L2Book();
          const changes: number[] = [];
          const sync = new KucoinBookSync(book, changes);
          const mirror = new L2Book();
          let delivered = -1;
          let snaps = 0;
          const check = (outcome: string, expected: string, expectedChanges: number[], label: string) => {
            assert.equal(outcome, expected, `${label}: outcome`);
            if (outcome === 'applied') assert.deepEqual(changes, expectedChanges, `${label}: the changes published`);
            else assert.deepEqual(changes, [], `${label}: nothing to publish`);
            if (outcome === 'synced') {
              mirror.clear();
              const bids = book.flat(Side.BID, 10_000);
              const asks = book.flat(Side.ASK, 10_000);
              for (let i = 0; i < bids.length; i += 2) mirror.set(Side.BID, bids[i]!, bids[i + 1]!);
              for (let i = 0; i < asks.length; i += 2) mirror.set(Side.ASK, asks[i]!, asks[i + 1]!);
            } else for (let i = 0; i < changes.length; i += 3) mirror.set(changes[i] as Side, changes[i + 1]!, changes[i + 2]!);
            changes.length = 0;
            if (outcome === 'gap') assert.ok(dropped, `${label}: a gap only where a push was lost`);
            assert.equal(sync.synced, model.whole, `${label}: whole`);
            assert.equal(sync.buffered, model.held.length, `${label}: pushes held for the next snapshot`);
            if (!sync.synced) return;
            assert.equal(sync.sequence, model.seq, `${label}: sequence`);
            const [bids, asks] = truthAt(sync.sequence);
            assert.deepEqual(book.flat(Side.BID, 10_000), bids, `${label}: bids at ${sync.sequence}`);
            assert.deepEqual(book.flat(Side.ASK, 10_000), asks, `${label}: asks at ${sync.sequence}`);
            assert.deepEqual(mirror.flat(Side.BID, 10_000), bids, `${label}: the consumer's bids`);
            assert.deepEqual(mirror.flat(Side.ASK, 10_000), asks, `${label}: the consumer's asks`);
          };
          // A snapshot: a lagging one may be at any sequence (a REST replica behind the stream); a
          // fresh one is at least as far as anything the venue has pushed.
          const snapshot = (label: string, fresh: boolean) => {
            let newest = BASE;
            for (let k = 0; k <= delivered; k++) newest = Math.max(newest, received[k]!.end);
            const seq = !fresh ? BASE + (snapshotPick % (events.length + 1)) : Math.min(lastSeq, newest + (snapshotPick % 3));
            snaps++;
            const [bids, asks] = truthAt(seq);
            changes.push(Side.BID, 1, 1); // left undrained by a careless caller: a sync publishes none of it
            const expected = modelSnapshot(seq);
            const outcome = sync.onSnapshot(seq, bids!, asks!);
            if (outcome !== 'synced') changes.length = 0;
            check(outcome, expected, [], label);
            if (outcome === 'stale') assert.ok(!fresh, `${label}: only a lagging snapshot can predate the stream`);
            return outcome;
          };
          let nextSnapshot = snapshotAfter[0]!;
          for (let i = 0; i < received.length; i++) {
            delivered = i;
            const m = received[i]!;
            const expected = modelUpdate(m);
            const { bids, asks } = entriesOf(m);
            check(sync.onUpdate(update(push(m.start, m.end, bids, asks))), expected.outcome, expected.changes, `push ${i}`);
            if (!sync.synced && i >= nextSnapshot) {
              const outcome = snapshot(`snapshot after push ${i}`, snaps > 0);
              if (outcome !== 'synced') nextSnapshot = i + 1 + snapshotAfter[snaps % snapshotAfter.length]!;
            }
          }
          // At the end a fresh snapshot always makes the book whole, with every push delivered in it.
          if (!sync.synced) assert.equal(snapshot('last snapshot', true), 'synced');
          assert.ok(received.every((m) => sync.sequence >= m.end), 'every push delivered is in the book');
        },
      ),
      { numRuns: 500 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('KuCoin instruments', () => {
  it("reads the reference's BTC-USDT row", () => {
    const [btc] = decodeSymbols({
      code: '200000',
      data: [
        { symbol: 'BTC-USDT', name: 'BTC-USDT', baseCurrency: 'BTC', quoteCurrency: 'USDT', feeCurrency: 'USDT', market: 'USDS', baseMinSize: '0.00001', quoteMinSize: '0.1', baseMaxSize: '10000000000', quoteMaxSize: '99999999', baseIncrement: '0.00000001', quoteIncrement: '0.000001', priceIncrement: '0.1', priceLimitRate: '0.1', minFunds: '0.1', isMarginEnabled: true, enableTrading: true, feeCategory: 1, makerFeeCoefficient: '1.00', takerFeeCoefficient: '1.00', st: false },
        { symbol: 'TINY-USDT', baseCurrency: 'TINY', quoteCurrency: 'USDT', baseMinSize: '1', baseIncrement: '1', priceIncrement: '0.0000000001', minFunds: '0.1', enableTrading: true },
        { symbol: 'OFF-USDT', baseCurrency: 'OFF', quoteCurrency: 'USDT', baseMinSize: '1', baseIncrement: '1', priceIncrement: '0.01', minFunds: '0.1', enableTrading: false },
      ],
    });
    assert.deepEqual(btc, { symbol: 'BTC-USDT', base: 'BTC', quote: 'USDT', trading: true, tick_1e9: 100_000_000, lot_1e8: 1, min_qty_1e8: 1_000, min_funds_1e9: 100_000_000 });
    const all = decodeSymbols({ code: '200000', data: [{ symbol: 'OFF-USDT', baseCurrency: 'OFF', quoteCurrency: 'USDT', baseIncrement: '1', priceIncrement: '0.01', enableTrading: false }, { symbol: 'TINY-USDT', baseCurrency: 'TINY', quoteCurrency: 'USDT', baseIncrement: '1', priceIncrement: '0.0000000001', enableTrading: true }] });
    assert.deepEqual(all.map((i) => [i.symbol, i.trading, i.min_qty_1e8]), [['OFF-USDT', false, 0]], 'a tick finer than 1e-9 is left out');
    assert.deepEqual(decodeSymbols({ code: '400100', msg: 'x' }), []);
  });
});

describe('KuCoin client order ids', () => {
  it('our child id is the clientOid as is: letters, digits, _ and -, at most 40', () => {
    assert.equal(kucoinClientOid('ord_0mwz4ka3500001oq-1'), 'ord_0mwz4ka3500001oq-1');
    assert.equal(childIdOfKucoin('ord_0mwz4ka3500001oq-1'), 'ord_0mwz4ka3500001oq-1');
    assert.equal(kucoinClientOid(`ord_${'a'.repeat(31)}-12345`), undefined, 'past 40 characters');
    assert.equal(kucoinClientOid(`ord_${'a'.repeat(30)}-12345`), `ord_${'a'.repeat(30)}-12345`, '40 is allowed');
    assert.equal(kucoinClientOid('5c52e11203aa677f33e493fb'), undefined, 'not one of ours');
    assert.equal(childIdOfKucoin('5c52e11203aa677f33e493fb'), undefined, 'an order placed by hand');
    assert.equal(childIdOfKucoin('ord_x.y-1'), undefined);
  });
});

describe('KuCoin orders', () => {
  const fees = { base: 'BTC', quote: 'USDT', fallbackFee: () => 777 };

  it('builds the HF order body: limit IOC/GTC, market by size, the accept window', () => {
    assert.equal(orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-1', 'buy', 1_000, 70_000_000_000_000, 'ioc'), '{"clientOid":"ord_0mwz4ka3500001oq-1","side":"buy","symbol":"BTC-USDT","type":"limit","price":"70000","size":"0.00001","timeInForce":"IOC"}');
    assert.equal(orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-2', 'sell', 150_000_000, 66_976_500_000_000, 'gtc'), '{"clientOid":"ord_0mwz4ka3500001oq-2","side":"sell","symbol":"BTC-USDT","type":"limit","price":"66976.5","size":"1.5","timeInForce":"GTC"}');
    assert.equal(orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-3', 'buy', 1_000, null, 'ioc'), '{"clientOid":"ord_0mwz4ka3500001oq-3","side":"buy","symbol":"BTC-USDT","type":"market","size":"0.00001"}');
    assert.equal(
      orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-4', 'buy', 1_000, 1_000_000_000, 'ioc', { clientTimestampMs: 1740711735178, allowMaxTimeWindowMs: 5_000 }),
      '{"clientOid":"ord_0mwz4ka3500001oq-4","side":"buy","symbol":"BTC-USDT","type":"limit","price":"1","size":"0.00001","timeInForce":"IOC","allowMaxTimeWindow":5000,"clientTimestamp":1740711735178}',
    );
    assert.equal(orderBody('BTC-USDT', 'not-ours', 'buy', 1_000, null, 'ioc'), undefined);
    assert.equal(orderBody('BTC-USDT', 'ord_0mwz4ka3500001oq-1', 'buy', 0, null, 'ioc'), undefined);
    assert.equal(PATHS.order, '/api/v1/hf/orders');
  });

  it("reads the reference's add-order answer, and refusals by what they mean", () => {
    assert.deepEqual(decodeOrderAck(200, { code: '200000', data: { orderId: '670fd33bf9406e0007ab3945', clientOid: '5c52e11203aa677f33e493fb' } }), { ok: true, orderId: '670fd33bf9406e0007ab3945', clientOid: '5c52e11203aa677f33e493fb' });
    const short = decodeOrderAck(200, { code: '200004', msg: 'Balance insufficient' });
    assert.deepEqual(short, { ok: false, failure: 'refused', error: { code: '200004', msg: 'Balance insufficient' }, reason: 'kucoin 200004: Balance insufficient' });
    const dup = decodeOrderAck(200, { code: '400100', msg: 'validation.createOrder.clientOidDuplicated' });
    assert.equal(dup?.ok === false && dup.failure, 'fate_unknown', 'an earlier send of this child got there: look it up');
    assert.equal(decodeOrderAck(200, { code: '200000', data: {} }), undefined);
    // Add Order Sync: the reference's answer, the order resting after matching.
    assert.deepEqual(decodeOrderAck(200, { code: '200000', data: { orderId: '67111a7cb7cbdf000703e1f6', clientOid: '5c52e11203aa677f33e493f', orderTime: 1729174140586, originSize: '0.00001', dealSize: '0', remainSize: '0.00001', canceledSize: '0', status: 'open', matchTime: 1729174140588 } }), {
      ok: true,
      orderId: '67111a7cb7cbdf000703e1f6',
      clientOid: '5c52e11203aa677f33e493f',
      sizes: { done: false, filled_qty_1e8: 0, cancelled_qty_1e8: 0, remain_qty_1e8: 1_000 },
    });
    assert.equal(PATHS.orderSync, '/api/v1/hf/orders/sync');
  });

  it('classifies errors: unknown order needs 400100 and a missing-order message; 400002 is the clock', () => {
    const c = (status: number, code: string, msg = '') => classifyFailure(status, { code, msg });
    assert.equal(c(200, '400100', 'order not exist.'), 'unknown_order');
    assert.equal(c(200, '400100', 'order_not_exist_or_not_allow_to_cancel'), 'unknown_order');
    assert.equal(c(200, 'order_not_exist', 'order_not_exist'), 'unknown_order');
    assert.equal(c(200, '400100', 'Order size below the minimum requirement.'), 'refused', '400100 alone is a parameter error');
    assert.equal(c(200, '400100', 'account.available.amount'), 'refused');
    assert.equal(c(200, '400002', 'Invalid KC-API-TIMESTAMP.'), 'clock');
    for (const code of ['400001', '400003', '400004', '400005', '400006', '400007', '400008', '400009', '411100']) assert.equal(c(401, code), 'auth', code);
    assert.equal(c(429, '429000', 'Too Many Requests'), 'rate_limited');
    assert.equal(c(200, '429000'), 'rate_limited');
    assert.equal(c(200, '500000', 'Internal Server Error'), 'fate_unknown');
    assert.equal(classifyFailure(502, undefined), 'fate_unknown');
    assert.equal(classifyFailure(401, undefined), 'auth');
    assert.equal(rateLimitResetMs(new Headers({ 'gw-ratelimit-reset': '1240' })), 1240);
    assert.equal(rateLimitResetMs(new Headers()), undefined);
    assert.deepEqual(kucoinError({ code: '400005', msg: 'Invalid KC-API-SIGN' }), { code: '400005', msg: 'Invalid KC-API-SIGN' });
    assert.equal(kucoinError({ code: '200000', data: null }), undefined);
  });

  it("reads the reference's order by clientOid: done, filled, nothing rests", () => {
    const answer = {
      code: '200000',
      data: { id: '6717422bd51c29000775ea03', clientOid: '5c52e11203aa677f33e493fb', symbol: 'BTC-USDT', opType: 'DEAL', type: 'limit', side: 'buy', price: '70000', size: '0.00001', funds: '0.7', dealSize: '0.00001', dealFunds: '0.677176', remainSize: '0', remainFunds: '0.022824', cancelledSize: '0', cancelledFunds: '0', fee: '0.000677176', feeCurrency: 'USDT', stp: null, timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false, visibleSize: '0', cancelAfter: 0, channel: 'API', remark: 'order remarks', tags: null, cancelExist: false, tradeType: 'TRADE', inOrderBook: false, active: false, tax: '0', createdAt: 1729577515444, lastUpdatedAt: 1729577515481 },
    };
    const read = decodeOrder(answer);
    assert.deepEqual(read, { found: true, order: { orderId: '6717422bd51c29000775ea03', clientOid: '5c52e11203aa677f33e493fb', symbol: 'BTC-USDT', type: 'limit', active: false, filled_qty_1e8: 1_000, resting_qty_1e8: 0 } });
    assert.equal(clientOrderPath('5c52e11203aa677f33e493fb', 'BTC-USDT'), '/api/v1/hf/orders/client-order/5c52e11203aa677f33e493fb?symbol=BTC-USDT');
    assert.deepEqual(decodeOrder({ code: '200000', data: null }), { found: false });
    assert.equal(decodeOrder({ code: '400100', msg: 'order not exist.' }), undefined, 'an error is read with kucoinError');
    // An active GTC partly filled: what remains rests; without remainSize, size - deal - cancelled.
    const resting = { ...answer.data, active: true, inOrderBook: true, dealSize: '0.000004', remainSize: '0.000006' };
    assert.equal(decodeOrder({ code: '200000', data: resting })?.found === true && (decodeOrder({ code: '200000', data: resting }) as { order: { resting_qty_1e8: number } }).order.resting_qty_1e8, 600);
    const { remainSize: _, ...noRemain } = resting;
    const derived = decodeOrder({ code: '200000', data: noRemain });
    assert.ok(derived?.found === true);
    assert.equal(derived.order.resting_qty_1e8, 600);
    const market = decodeOrder({ code: '200000', data: { ...resting, type: 'market' } });
    assert.ok(market?.found === true);
    assert.equal(market.order.resting_qty_1e8, 0, 'a market order never rests');
  });

  it("reads the reference's open orders, active symbols, cancels and cancel-all", () => {
    const open = decodeOpenOrders({
      code: '200000',
      data: [{ id: '67120bbef094e200070976f6', clientOid: '5c52e11203aa677f33e493fb', symbol: 'BTC-USDT', opType: 'DEAL', type: 'limit', side: 'buy', price: '50000', size: '0.00001', funds: '0.5', dealSize: '0', dealFunds: '0', fee: '0', feeCurrency: 'USDT', stp: null, timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false, visibleSize: '0', cancelAfter: 0, channel: 'API', remark: 'order remarks', tags: 'order tags', cancelExist: false, tradeType: 'TRADE', inOrderBook: true, cancelledSize: '0', cancelledFunds: '0', remainSize: '0.00001', remainFunds: '0.5', tax: '0', active: true, createdAt: 1729235902748, lastUpdatedAt: 1729235909862 }],
    });
    assert.deepEqual(open?.map((o) => [o.clientOid, o.resting_qty_1e8, childIdOfKucoin(o.clientOid)]), [['5c52e11203aa677f33e493fb', 1_000, undefined]]);
    assert.equal(openOrdersPath('BTC-USDT'), '/api/v1/hf/orders/active?symbol=BTC-USDT');
    assert.deepEqual(decodeActiveSymbols({ code: '200000', data: { symbols: ['ETH-USDT', 'BTC-USDT'] } }), ['ETH-USDT', 'BTC-USDT']);
    assert.deepEqual(decodeCancelAck({ code: '200000', data: { clientOid: '5c52e11203aa677f33e493fb' } }), { clientOid: '5c52e11203aa677f33e493fb' });
    assert.deepEqual(decodeCancelSync({ code: '200000', data: { clientOid: '5c52e11203aa677f33e493fb', originSize: '0.00001', dealSize: '0', remainSize: '0', canceledSize: '0.00001', status: 'done' } }), { done: true, filled_qty_1e8: 0, cancelled_qty_1e8: 1_000, remain_qty_1e8: 0 });
    assert.equal(cancelSyncPath('ord_0mwz4ka3500001oq-1', 'BTC-USDT'), '/api/v1/hf/orders/sync/client-order/ord_0mwz4ka3500001oq-1?symbol=BTC-USDT');
    assert.equal(decodeCancelAllAck({ code: '200000', data: 'success' }), true);
    assert.equal(cancelAllPath('BTC-USDT'), '/api/v1/hf/orders?symbol=BTC-USDT');
    assert.throws(() => clientOrderPath('a/b', 'BTC-USDT'), /clientOid/);
  });

  it("reads the reference's HF fill: fee in quote to USD 1e9, taker, the row id as trade id", () => {
    const body = {
      code: '200000',
      data: {
        items: [{ id: 19814995255305, orderId: '6717422bd51c29000775ea03', counterOrderId: '67174228135f9e000709da8c', tradeId: 11029373945659392, symbol: 'BTC-USDT', side: 'buy', liquidity: 'taker', type: 'limit', forceTaker: false, price: '67717.6', size: '0.00001', funds: '0.677176', fee: '0.000677176', feeRate: '0.001', feeCurrency: 'USDT', stop: '', tradeType: 'TRADE', taxRate: '0', tax: '0', createdAt: 1729577515473 }],
        lastId: 19814995255305,
      },
    };
    const read = decodeFills(body, fees);
    assert.deepEqual(read, { fills: [{ price_1e9: 67_717_600_000_000, qty_1e8: 1_000, trade_id: '19814995255305', ts_ns: 1729577515473_000_000, fee_1e9: 677_176, is_maker: false }], lastId: 19814995255305 });
    const order = decodeOrder({ code: '200000', data: { id: '6717422bd51c29000775ea03', clientOid: 'ord_0mwz4ka3500001oq-1', symbol: 'BTC-USDT', type: 'limit', active: false, dealSize: '0.00001', remainSize: '0' } });
    assert.ok(order?.found === true);
    assert.deepEqual(legReportOf(order.order, read!.fills), { ok: true, reason: null, fills: read!.fills, resting_qty_1e8: 0 });
    // Why not tradeId: a bare JSON number past 2^53 comes back rounded (the ledger example's 10046097631627265).
    assert.equal((JSON.parse('{"tradeId":10046097631627265}') as { tradeId: number }).tradeId, 10046097631627264);
  });

  it('fills: oldest first, maker, fees rounded against us, base and third-asset commissions', () => {
    const row = (id: number, createdAt: number, extra: Record<string, unknown>) => ({ id, orderId: 'ab12', tradeId: 1, symbol: 'BTC-USDT', side: 'buy', liquidity: 'maker', price: '50000', size: '0.1', fee: '0.005', feeCurrency: 'USDT', createdAt, ...extra });
    const read = decodeFills(
      {
        code: '200000',
        data: {
          items: [
            row(4, 3_000, { fee: '0.0000000011' }),
            row(3, 2_000, { fee: '-0.0000000019', liquidity: 'maker' }),
            row(2, 2_000, { fee: '0.0000001', feeCurrency: 'BTC', liquidity: 'taker' }),
            row(1, 1_000, { fee: '0.03', feeCurrency: 'KCS' }),
          ],
          lastId: 1,
        },
      },
      fees,
    );
    assert.ok(read !== undefined);
    assert.deepEqual(read.fills.map((f) => f.trade_id), ['1', '2', '3', '4'], 'oldest first, the venue lists newest first');
    assert.deepEqual(read.fills[0], { price_1e9: 50_000_000_000_000, qty_1e8: 10_000_000, trade_id: '1', ts_ns: 1_000_000_000, fee_1e9: 777, is_maker: true, commission: { asset: 'KCS', qty_1e8: 3_000_000 } });
    assert.deepEqual([read.fills[1]!.fee_1e9, read.fills[1]!.commission, read.fills[1]!.is_maker], [5_000_000, { asset: 'BTC', qty_1e8: 10 }, false], 'base fee at the fill price');
    assert.equal(read.fills[2]!.fee_1e9, -1, 'a rebate rounds toward zero');
    assert.equal(read.fills[3]!.fee_1e9, 2, 'a charge rounds up');
    assert.equal(decodeFills({ code: '200000', data: { items: [row(2 ** 53 + 2, 1, {})] } }, fees), undefined, 'an id past 2^53 is not guessed');
    assert.deepEqual(decodeFills({ code: '200000', data: { items: [], lastId: null } }, fees), { fills: [], lastId: undefined });
    assert.equal(fillsPath('BTC-USDT', 'ab12', 254062248624417), '/api/v1/hf/fills?symbol=BTC-USDT&orderId=ab12&limit=100&lastId=254062248624417');
  });
});

describe('KuCoin account', () => {
  it("reads the reference's accounts: the trading account only, rounded down past 8 places, zeros kept", () => {
    const balances = decodeBalances({
      code: '200000',
      data: [
        { id: '548674591753', currency: 'USDT', type: 'trade', balance: '26.66759503', available: '26.66759503', holds: '0' },
        { id: '63355cd156298d0001b66e61', currency: 'USDT', type: 'main', balance: '0.01', available: '0.01', holds: '0' },
        { id: '1', currency: 'BTC', type: 'trade', balance: '0', available: '0', holds: '0' },
        { id: '2', currency: 'ETH', type: 'trade', balance: '1.0000000099', available: '0.9000000099', holds: '0.1' },
      ],
    });
    assert.deepEqual(balances, [
      { asset: 'USDT', free_1e8: 2_666_759_503n, locked_1e8: 0n },
      { asset: 'BTC', free_1e8: 0n, locked_1e8: 0n },
      { asset: 'ETH', free_1e8: 90_000_000n, locked_1e8: 10_000_000n },
    ]);
    assert.equal(PATHS.accounts, '/api/v1/accounts?type=trade');
    assert.deepEqual(decodeBalances({ code: '200000', data: [{ currency: 'USDT', type: 'trade', available: '123456789012.12345678', holds: '0' }] })?.[0]?.free_1e8, 12_345_678_901_212_345_678n, 'past 2^53, exact');
    assert.equal(decodeBalances({ code: '400003', msg: 'KC-API-KEY not exists' }), undefined);
  });

  it("reads the reference's fee rates and key info into the probe", () => {
    const rates = decodeTradeFees({ code: '200000', data: [{ symbol: 'BTC-USDT', takerFeeRate: '0.001', makerFeeRate: '0.001' }, { symbol: 'ETH-USDT', takerFeeRate: '0.00045', makerFeeRate: '-0.00005' }] });
    assert.deepEqual(rates?.get('BTC-USDT'), { maker_bps: 10, taker_bps: 10 });
    assert.deepEqual(rates?.get('ETH-USDT'), { maker_bps: -0.5, taker_bps: 4.5 });
    assert.equal(tradeFeesPath(['BTC-USDT', 'ETH-USDT']), '/api/v1/trade-fees?symbols=BTC-USDT,ETH-USDT');
    assert.throws(() => tradeFeesPath(Array.from({ length: 11 }, () => 'BTC-USDT')), /10 symbols/);
    const key = decodeApiKeyInfo({ code: '200000', data: { remark: 'account1', apiKey: '6705f5c311545b000157d3eb', apiVersion: 3, permission: 'General,Futures,Spot,Earn,InnerTransfer,Transfer,Margin', ipWhitelist: '203.**.154,103.**.34', createdAt: 1728443843000, uid: 165111215, isMaster: true } });
    assert.deepEqual(key, { permissions: ['General', 'Futures', 'Spot', 'Earn', 'InnerTransfer', 'Transfer', 'Margin'], apiVersion: 3 });
    const schedule = { maker_bps: 10, taker_bps: 10 };
    assert.deepEqual(probeOf(key!, rates?.get('ETH-USDT'), schedule), { tier: 'maker -0.5 bps / taker 4.5 bps', maker_bps: -0.5, taker_bps: 4.5, can_trade: true, can_withdraw: true });
    const tradeOnly = probeOf({ permissions: ['General', 'Spot', 'InnerTransfer'], apiVersion: 3 }, undefined, schedule);
    assert.deepEqual([tradeOnly.can_trade, tradeOnly.can_withdraw, tradeOnly.maker_bps], [true, false, 10], 'an internal transfer right is not a withdrawal');
    const readOnly = probeOf({ permissions: ['General'], apiVersion: 2 }, undefined, schedule);
    assert.deepEqual([readOnly.can_trade, readOnly.can_withdraw], [false, false]);
    assert.equal(probeOf({ permissions: ['General', 'Withdrawal'], apiVersion: 3 }, undefined, schedule).can_withdraw, true);
  });
});
