/**
 * The live Bitstamp adapter's pure core: HTTP API v2 authentication (string to sign, headers,
 * the answer's X-Server-Auth-Signature), the public WebSocket frames, the diff-order-book sync
 * (buffer, snapshot, drop diffs at or before its `microtimestamp`, stale and gap rules) against
 * a naive model, and the REST codec of instruments, orders, order status, cancels, open orders,
 * balances, fees and errors.
 *
 * Samples, by source:
 *   - Bitstamp publishes no worked signature example (no fixed key, nonce and clock with the
 *     signature they give). The vectors here are its own Python example ("Authentication
 *     examples" of https://www.bitstamp.net/api/: key 'api_key', secret 'api_key_secret',
 *     payload offset=1, POST /api/v2/user_transactions/) with its random nonce and clock
 *     replaced by the header examples the same page gives ("f93c979d-b00d-43a9-9b9c-
 *     fd4cd9547fa6", "1567755304968"), run with CPython's hmac; each is also recomputed here
 *     with node:crypto from the string the docs define.
 *   - The reference's schemas, error tables and changelog (a markdown copy of its OpenAPI
 *     description); answers it gives no example of come from ccxt's bitstamp.js comments
 *     (order status, create order, cancel, cancel all, open orders, balances, trading fees,
 *     trading-pairs-info and markets rows, the error bodies of its handleErrors) and from
 *     JKorf/Bitstamp.Net's recorded test payloads (the ETH/USD diff of 2026-03-05, the order
 *     book snapshot).
 *   - WebSocket control frames as a 2026-09-15 probe write-up of the WebSocket v2 page captured
 *     or quoted them (heartbeat answer, bts:error messages, the maintenance notice).
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Side } from '../../domain/market.ts';
import { formatScaled, parseScaled } from '../../actors/edge/live/decimal.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import { VenueLimits } from '../../actors/edge/live/venue-limits.ts';
import { MAX_BUFFERED_EVENTS } from '../../actors/edge/live/binance/depth-sync.ts';
import { BitstampBookSync, type BitstampDiff } from '../../actors/edge/live/bitstamp/book-sync.ts';
import {
  acceptDeadlineMs,
  bitstampSignature,
  checkAnswer,
  FORM_CONTENT_TYPE,
  serverSignature,
  signRequest,
  stringToSign,
  TIMESTAMP_WINDOW_MS,
} from '../../actors/edge/live/bitstamp/signing.ts';
import {
  bitstampClientOrderId,
  bitstampError,
  cancelAllPath,
  cancelOrderBody,
  childIdOfBitstamp,
  classifyFailure,
  datetimeNs,
  decodeAccountBalances,
  decodeCancel,
  decodeCancelAll,
  decodeFrame,
  decodeLookup,
  decodeMarkets,
  decodeOpenOrders,
  decodeOrderAck,
  decodeOrderBook,
  decodeOrderStatus,
  decodeTradingFees,
  decodeTradingPairsInfo,
  diffChannel,
  executedOf,
  formBody,
  HEARTBEAT_FRAME,
  legReportOf,
  LIMIT_RULES,
  limitOrderPath,
  marketOrderPath,
  openOrdersPath,
  orderBody,
  orderBookPath,
  orderStatusBody,
  orderTerms,
  PATHS,
  probeOf,
  reasonOf,
  subscriptionFrame,
  symbolOfName,
  tradingFeePath,
  venueSymbolOf,
  type BitstampInstrument,
} from '../../actors/edge/live/bitstamp/codec.ts';

const px = (s: string) => parseScaled(s, 9);
const qty = (s: string) => parseScaled(s, 8);

// The docs' example values.
const DOCS = { api_key: 'api_key', api_secret: 'api_key_secret' };
const NONCE = 'f93c979d-b00d-43a9-9b9c-fd4cd9547fa6';
const TIMESTAMP = 1567755304968;
const hex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

describe('Bitstamp signing', () => {
  it("signs the docs' Python example as CPython's hmac does, with the docs' example nonce and timestamp", () => {
    const signed = signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/user_transactions/', 'offset=1', NONCE, TIMESTAMP);
    const text = 'BITSTAMP api_keyPOSTwww.bitstamp.net/api/v2/user_transactions/application/x-www-form-urlencodedf93c979d-b00d-43a9-9b9c-fd4cd9547fa61567755304968v2offset=1';
    // hmac.new(b'api_key_secret', msg=message, digestmod=hashlib.sha256).hexdigest(), CPython 3.
    assert.equal(signed.headers['X-Auth-Signature'], '526d7cd4184c381c21c2f8e6eeca15292edcc7ab8c4a188d68ee5c5ceb11b302');
    assert.equal(bitstampSignature(text, 'api_key_secret'), hex('api_key_secret', text), 'and as node:crypto computes it from the documented string');
    assert.equal(
      stringToSign({ apiKey: 'api_key', method: 'POST', host: 'www.bitstamp.net', path: '/api/v2/user_transactions/', query: '', contentType: FORM_CONTENT_TYPE, nonce: NONCE, timestamp: '1567755304968', body: 'offset=1' }),
      text,
    );
    assert.deepEqual(signed.headers, {
      'X-Auth': 'BITSTAMP api_key',
      'X-Auth-Signature': '526d7cd4184c381c21c2f8e6eeca15292edcc7ab8c4a188d68ee5c5ceb11b302',
      'X-Auth-Nonce': NONCE,
      'X-Auth-Timestamp': '1567755304968',
      'X-Auth-Version': 'v2',
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    assert.equal(signed.body, 'offset=1');
    assert.match(signed.headers['X-Auth-Signature'], /^[0-9a-f]{64}$/, 'lower-case hex, as the Python and C++ examples send it');
  });

  it("builds the same string as ccxt's sign(): key, method, URL without https://, content type, nonce, timestamp, v2, body", () => {
    const url = 'https://www.bitstamp.net/api/v2/buy/btcusd/';
    const body = 'amount=0.001&price=60000&client_order_id=ord_0mwz4ka3500001oq-1';
    const ccxt = 'BITSTAMP k' + 'POST' + url.replace('https://', '') + 'application/x-www-form-urlencoded' + NONCE + '1700000000000' + 'v2' + body;
    assert.equal(signRequest({ api_key: 'k', api_secret: 's' }, 'POST', url, body, NONCE, 1700000000000).headers['X-Auth-Signature'], hex('s', ccxt));
  });

  it('a bodiless request has no Content-Type, in the headers or the string, and sends no body at all', () => {
    const signed = signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/account_balances/', '', NONCE, TIMESTAMP);
    // The docs' Python example with content_type and payload_string both '' (computed with CPython's hmac).
    assert.equal(signed.headers['X-Auth-Signature'], '8f3fefb1c2af8e3dd40457b69482f20102f44f89d6c33cf6ae328669c60a123b');
    assert.equal(signed.headers['X-Auth-Signature'], hex('api_key_secret', `BITSTAMP api_keyPOSTwww.bitstamp.net/api/v2/account_balances/${NONCE}1567755304968v2`));
    assert.equal(signed.headers['Content-Type'], undefined);
    assert.equal(signed.body, undefined);
    // Node's fetch would give a '' body a Content-Type of its own (API0019/API0020); none without one.
    assert.equal(new Request(signed.url, { method: 'POST', headers: Object.entries(signed.headers), body: signed.body }).headers.get('content-type'), null);
    assert.equal(new Request(signed.url, { method: 'POST', body: '' }).headers.get('content-type'), 'text/plain;charset=UTF-8', 'the trap');
    const form = signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/order_status/', 'id=1', NONCE, TIMESTAMP);
    assert.equal(new Request(form.url, { method: 'POST', headers: Object.entries(form.headers), body: form.body }).headers.get('content-type'), 'application/x-www-form-urlencoded', 'exactly, no charset');
  });

  it("signs the query with its '?', as the docs' example '?limit=100&sort=asc' has it", () => {
    const signed = signRequest(DOCS, 'GET', 'https://www.bitstamp.net/api/v2/trade_history/?limit=100&sort=asc', '', NONCE, TIMESTAMP);
    // CPython's hmac of the docs' string with url.query '?limit=100&sort=asc'.
    assert.equal(signed.headers['X-Auth-Signature'], 'eecb6df0ed970315af2aa086b850097f8bb0a7a624a0230d8885f8dde0d231e3');
    assert.notEqual(signed.headers['X-Auth-Signature'], hex('api_key_secret', `BITSTAMP api_keyGETwww.bitstamp.net/api/v2/trade_history/limit=100&sort=asc${NONCE}1567755304968v2`), 'not without it');
    assert.equal(signed.url, 'https://www.bitstamp.net/api/v2/trade_history/?limit=100&sort=asc');
  });

  it('signs the host as the Host header carries it: lower case, with a port only when not the default', () => {
    const sig = (url: string, host: string, path: string) =>
      [signRequest(DOCS, 'POST', url, 'a=1', NONCE, TIMESTAMP).headers['X-Auth-Signature'], hex('api_key_secret', `BITSTAMP api_keyPOST${host}${path}${FORM_CONTENT_TYPE}${NONCE}1567755304968v2a=1`)];
    const [fake, fakeWant] = sig('http://127.0.0.1:9105/api/v2/cancel_order/', '127.0.0.1:9105', '/api/v2/cancel_order/');
    assert.equal(fake, fakeWant, 'a local fake on a port');
    const [dflt, dfltWant] = sig('https://www.bitstamp.net:443/api/v2/cancel_order/', 'www.bitstamp.net', '/api/v2/cancel_order/');
    assert.equal(dflt, dfltWant, ':443 is not sent in Host');
    const [upper, upperWant] = sig('https://WWW.Bitstamp.NET/api/v2/cancel_order/', 'www.bitstamp.net', '/api/v2/cancel_order/');
    assert.equal(upper, upperWant, 'hostname lower case');
  });

  it('refuses what would be sent otherwise than signed, or that the venue refuses', () => {
    const ok = (f: () => unknown) => assert.doesNotThrow(f);
    ok(() => signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/balance/', '', NONCE, TIMESTAMP));
    assert.throws(() => signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/balance/', '', NONCE.toUpperCase(), TIMESTAMP), /lower-case/);
    assert.throws(() => signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/balance/', '', '1567755304968', TIMESTAMP), /36-character/);
    assert.throws(() => signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/balance/', '', NONCE, 1567755304.968), /integer of ms/);
    assert.throws(() => signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/balance/?', '', NONCE, TIMESTAMP), /bare/);
    assert.throws(() => signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/balance/#x', '', NONCE, TIMESTAMP), /fragment/);
    assert.throws(() => signRequest(DOCS, 'GET', 'https://www.bitstamp.net/api/v2/balance/', 'a=1', NONCE, TIMESTAMP), /no body/);
  });

  it("checks the answer's X-Server-Auth-Signature: nonce + timestamp + content type + body bytes", () => {
    const request = signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/account_balances/', '', NONCE, TIMESTAMP);
    const body = '[{"currency": "usd", "total": "100.00", "available": "90.00", "reserved": "10.00"}]';
    // The docs' check, (nonce + timestamp + r.headers.get('Content-Type')).encode('utf-8') + r.content, by CPython's hmac.
    const venue = 'e45c92480e3edd516cde05102f17beed8a27bbd631a819adb79f2301621f8103';
    assert.equal(serverSignature(NONCE, '1567755304968', 'application/json', body, 'api_key_secret'), venue);
    assert.equal(serverSignature(NONCE, '1567755304968', 'application/json', Buffer.from(body), 'api_key_secret'), venue, 'bytes or text');
    assert.equal(checkAnswer(venue, request, 'application/json', Buffer.from(body), 'api_key_secret'), 'verified');
    assert.equal(checkAnswer(venue.toUpperCase(), request, 'application/json', body, 'api_key_secret'), 'verified', 'either case');
    assert.equal(checkAnswer(null, request, 'application/json', body, 'api_key_secret'), 'missing');
    assert.equal(checkAnswer(venue, request, 'application/json', body.replace('100.00', '900.00'), 'api_key_secret'), 'mismatch', 'a changed body');
    assert.equal(checkAnswer(venue, request, 'application/json; charset=utf-8', body, 'api_key_secret'), 'mismatch', 'the content type as received is signed');
    const other = signRequest(DOCS, 'POST', 'https://www.bitstamp.net/api/v2/account_balances/', '', '0b7a3c2e-9d4f-4b1a-8c6e-2f5d7e9a1b3c', TIMESTAMP);
    assert.equal(checkAnswer(venue, other, 'application/json', body, 'api_key_secret'), 'mismatch', "another request's answer");
    assert.equal(checkAnswer('not hex', request, 'application/json', body, 'api_key_secret'), 'mismatch');
  });

  it('a request is accepted until 150 s past its stamp on the venue clock: the lookup deadline', () => {
    assert.equal(TIMESTAMP_WINDOW_MS, 150_000);
    assert.equal(acceptDeadlineMs(1_000_000), 1_155_000, 'with 5 s of clock lead allowed');
    assert.equal(acceptDeadlineMs(1_000_000, 0), 1_150_000);
  });
});

// ---------------------------------------------------------------------------------------------

/** JKorf/Bitstamp.Net, Bitstamp.Net.UnitTests/Subscriptions/ExchangeApi/DiffBook.txt: a diff as received, levels trimmed. */
const JKORF_DIFF = {
  data: {
    timestamp: '1772723362',
    microtimestamp: '1772723362377013',
    bids: [['2087.28', '0.500000'], ['2087.19', '0.00000000'], ['2087.09', '0.056000']],
    asks: [['2087.29', '6.330796'], ['2087.32', '0.241000'], ['2087.37', '0.00000000']],
  },
  channel: 'diff_order_book_ethusd',
  event: 'data',
};

describe('Bitstamp public stream', () => {
  it('subscribes one channel a frame, and keeps the socket talking with bts:heartbeat', () => {
    assert.equal(diffChannel('btcusd'), 'diff_order_book_btcusd');
    assert.equal(subscriptionFrame('bts:subscribe', diffChannel('btcusd')), '{"event":"bts:subscribe","data":{"channel":"diff_order_book_btcusd"}}');
    assert.equal(subscriptionFrame('bts:unsubscribe', diffChannel('ethusd')), '{"event":"bts:unsubscribe","data":{"channel":"diff_order_book_ethusd"}}');
    assert.equal(HEARTBEAT_FRAME, '{"event":"bts:heartbeat"}');
    assert.throws(() => diffChannel('BTCUSD'), /market symbol/, 'the venue answers "Invalid channel provided." to a wrongly cased one');
    assert.throws(() => diffChannel('btc/usd'), /market symbol/);
  });

  it("reads JKorf's recorded ETH/USD diff: absolute amounts, zero written at size precision", () => {
    const frame = decodeFrame(JKORF_DIFF);
    assert.deepEqual(frame, {
      kind: 'diff',
      venueSymbol: 'ethusd',
      diff: {
        microtimestamp: 1772723362377013,
        ts_ms: 1772723362000,
        bids: [px('2087.28'), qty('0.5'), px('2087.19'), 0, px('2087.09'), qty('0.056')],
        asks: [px('2087.29'), qty('6.330796'), px('2087.32'), qty('0.241'), px('2087.37'), 0],
      },
    });
  });

  it('reads zero as "0" too, ignores a third element, and marks a diff it cannot read exactly', () => {
    // The probe's asterusd-perp diff, zero spelled "0" (a symbol the adapter never subscribed is ignored by it).
    const aster = decodeFrame({ data: { timestamp: '1789456316', microtimestamp: '1789456316294301', bids: [['0.68704', '18089'], ['0.68647', '0']], asks: [] }, channel: 'diff_order_book_asterusd-perp', event: 'data' });
    assert.equal(aster?.kind === 'diff' ? aster.venueSymbol : undefined, 'asterusd-perp');
    assert.deepEqual(aster?.kind === 'diff' ? aster.diff.bids : undefined, [px('0.68704'), qty('18089'), px('0.68647'), 0]);
    // ccxt's capture has [price, amount, order id].
    const three = decodeFrame({ data: { timestamp: '1583656800', microtimestamp: '1583656800237527', bids: [['8732.02', '0.00002478', '1207590500704256']], asks: [] }, channel: 'diff_order_book_btcusd', event: 'data' });
    assert.deepEqual(three?.kind === 'diff' ? three.diff.bids : undefined, [px('8732.02'), qty('0.00002478')]);
    const bad = (bids: unknown) => decodeFrame({ data: { timestamp: '1', microtimestamp: '1000000', bids, asks: [] }, channel: 'diff_order_book_btcusd', event: 'data' });
    assert.deepEqual(bad([['1e3', '1']]), { kind: 'unreadable', venueSymbol: 'btcusd' }, 'an exponent');
    assert.deepEqual(bad([['1.0', '0.000000001']]), { kind: 'unreadable', venueSymbol: 'btcusd' }, 'a size past 1e-8');
    assert.deepEqual(bad([[1.5, '1']]), { kind: 'unreadable', venueSymbol: 'btcusd' }, 'a JSON number');
    assert.deepEqual(bad([['0', '1']]), { kind: 'unreadable', venueSymbol: 'btcusd' }, 'price 0');
    assert.deepEqual(decodeFrame({ data: { bids: [], asks: [] }, channel: 'diff_order_book_btcusd', event: 'data' }), { kind: 'unreadable', venueSymbol: 'btcusd' }, 'no stamp');
  });

  it('recognises the control events, and ignores other channels', () => {
    assert.deepEqual(decodeFrame({ event: 'bts:subscription_succeeded', channel: 'diff_order_book_btcusd', data: {} }), { kind: 'subscribed', channel: 'diff_order_book_btcusd' });
    assert.deepEqual(decodeFrame({ event: 'bts:unsubscription_succeeded', channel: 'diff_order_book_btcusd', data: {} }), { kind: 'unsubscribed', channel: 'diff_order_book_btcusd' });
    assert.deepEqual(decodeFrame({ event: 'bts:request_reconnect', channel: '', data: null }), { kind: 'reconnect' }, 'as the page prints it');
    assert.deepEqual(decodeFrame({ event: 'bts:request_reconnect', channel: '', data: '' }), { kind: 'reconnect' }, 'as client tests write it');
    assert.deepEqual(decodeFrame({ event: 'bts:heartbeat', channel: '', data: { status: 'success' } }), { kind: 'heartbeat', ok: true });
    assert.deepEqual(decodeFrame({ event: 'bts:error', channel: '', data: { code: null, message: 'Invalid channel provided.' } }), { kind: 'error', channel: '', code: null, message: 'Invalid channel provided.' });
    assert.deepEqual(decodeFrame({ event: 'bts:error', channel: '', data: { code: 4009, message: 'Connection is unauthorized.' } }), { kind: 'error', channel: '', code: 4009, message: 'Connection is unauthorized.' });
    assert.equal(decodeFrame({ event: 'data', channel: 'order_book_btcusd', data: { bids: [], asks: [] } }), undefined);
    assert.equal(decodeFrame({ event: 'trade', channel: 'live_trades_btcusd', data: {} }), undefined);
    assert.equal(decodeFrame('text'), undefined);
  });

  it('reads a REST snapshot with its microtimestamp', () => {
    // JKorf/Bitstamp.Net, Endpoints/ExchangeApi/ExchangeData/GetOrderBook.txt.
    assert.deepEqual(decodeOrderBook({ timestamp: '1643643584', microtimestamp: '1643643584684047', bids: [['9484.34', '1.00000000']], asks: [['9484.34', '1.00000000']] }), {
      microtimestamp: 1643643584684047,
      bids: [px('9484.34'), qty('1')],
      asks: [px('9484.34'), qty('1')],
    });
    assert.equal(orderBookPath('btcusd'), '/api/v2/order_book/btcusd/');
    assert.equal(decodeOrderBook({ timestamp: '1', bids: [], asks: [] }), undefined, 'no microtimestamp');
    assert.equal(decodeOrderBook({ status: 'error', reason: 'Internal error.' }), undefined);
  });
});

// ---------------------------------------------------------------------------------------------

const diff = (microtimestamp: number, bids: [string, string][], asks: [string, string][] = []): BitstampDiff => ({
  microtimestamp,
  ts_ms: Math.floor(microtimestamp / 1000),
  bids: bids.flatMap(([p, q]) => [px(p), qty(q)]),
  asks: asks.flatMap(([p, q]) => [px(p), qty(q)]),
});
const flat = (levels: [string, string][]) => levels.flatMap(([p, q]) => [px(p), qty(q)]);

describe('Bitstamp diff-order-book sync', () => {
  it('drops the diffs at or before the snapshot, applies the rest, and publishes the whole book once', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new BitstampBookSync(book, changes);
    assert.equal(sync.onDiff(diff(100, [['10', '1']])), 'buffered');
    assert.equal(sync.onDiff(diff(200, [['11', '2']])), 'buffered');
    assert.equal(sync.onDiff(diff(300, [['12', '3']], [['20', '1']])), 'buffered');
    assert.equal(sync.synced, false);
    assert.equal(sync.onSnapshot(200, flat([['11', '2'], ['10', '1']]), flat([['21', '1']])), 'synced', 'stamped at the second diff: the first two are in it');
    assert.equal(sync.microtimestamp, 300);
    assert.deepEqual(changes, [], 'a sync publishes the whole book');
    assert.deepEqual(book.flat(Side.BID, 10), flat([['12', '3'], ['11', '2'], ['10', '1']]));
    assert.deepEqual(book.flat(Side.ASK, 10), flat([['20', '1'], ['21', '1']]));
    assert.equal(sync.onDiff(diff(400, [['11', '0']], [['21', '4']])), 'applied');
    assert.deepEqual(changes, [Side.BID, px('11'), 0, Side.ASK, px('21'), qty('4')]);
    changes.length = 0;
    assert.equal(sync.onDiff(diff(150, [['9', '1']])), 'buffered', 'a late diff the snapshot has');
    assert.equal(sync.onDiff(diff(400, [['11', '0']], [['21', '4']])), 'applied', 'an equal stamp is applied: levels are absolute');
    assert.deepEqual(book.flat(Side.BID, 10), flat([['12', '3'], ['10', '1']]));
  });

  it('a snapshot with nothing buffered is whole at once (a quiet book)', () => {
    const sync = new BitstampBookSync(new L2Book(), []);
    assert.equal(sync.onSnapshot(500, flat([['10', '1']]), flat([['11', '1']])), 'synced');
    assert.equal(sync.microtimestamp, 500);
    assert.equal(sync.onDiff(diff(600, [['10', '2']])), 'applied');
  });

  it('a snapshot older than the first buffered diff is stale; the stream is kept for a newer one', () => {
    const book = new L2Book();
    const sync = new BitstampBookSync(book, []);
    sync.onDiff(diff(1_000, [['10', '1']]));
    sync.onDiff(diff(1_010, [['11', '1']]));
    assert.equal(sync.onSnapshot(999, flat([['9', '1']]), []), 'stale', 'changes between 999 and the subscription may be missing');
    assert.equal(sync.synced, false);
    assert.equal(book.depth(Side.BID), 0);
    assert.equal(sync.buffered, 2);
    assert.equal(sync.onSnapshot(1_000, flat([['10', '1'], ['9', '1']]), []), 'synced');
    assert.deepEqual(book.flat(Side.BID, 10), flat([['11', '1'], ['10', '1'], ['9', '1']]));
  });

  it('a stamp that goes back is a gap; the next snapshot must reach every diff seen', () => {
    const sync = new BitstampBookSync(new L2Book(), []);
    sync.onSnapshot(100, flat([['10', '1']]), flat([['20', '1']]));
    assert.equal(sync.onDiff(diff(300, [['11', '1']])), 'applied');
    assert.equal(sync.onDiff(diff(200, [['12', '1']])), 'gap');
    assert.deepEqual([sync.synced, sync.buffered, sync.microtimestamp], [false, 0, -1]);
    assert.equal(sync.onSnapshot(250, flat([['10', '1']]), flat([['20', '1']])), 'stale', 'the diff at 300 went with the book: a snapshot before it cannot stand for it');
    assert.equal(sync.onSnapshot(300, flat([['11', '1'], ['10', '1']]), flat([['20', '1']])), 'synced');
  });

  it('a crossed book is tolerated for one diff ("will self-correct within the next message"), not two', () => {
    const changes: number[] = [];
    const sync = new BitstampBookSync(new L2Book(), changes);
    sync.onSnapshot(100, flat([['10', '1']]), flat([['11', '1']]));
    assert.equal(sync.onDiff(diff(200, [['11', '1']])), 'applied', 'bid 11 against ask 11: crossed once');
    assert.equal(sync.onDiff(diff(300, [], [['11', '0']])), 'applied', 'uncrossed by the next');
    changes.length = 0;
    assert.equal(sync.onDiff(diff(400, [['12', '1']])), 'applied', 'bid 12 against ask 12? no ask: uncrossed');
    assert.equal(sync.onDiff(diff(500, [], [['12', '1']])), 'applied', 'crossed');
    changes.length = 0;
    assert.equal(sync.onDiff(diff(600, [['5', '1']])), 'gap', 'still crossed: a change was missed');
    assert.deepEqual(changes, [], 'nothing of it is published');
    assert.equal(sync.synced, false);
    // A crossed snapshot is a book the venue may show for an instant: the next diff must uncross it.
    assert.equal(sync.onSnapshot(600, flat([['13', '1']]), flat([['12', '1']])), 'synced');
    assert.equal(sync.onDiff(diff(700, [['13', '0']])), 'applied');
    const again = new BitstampBookSync(new L2Book(), []);
    again.onDiff(diff(700, [['13', '1']]));
    again.onDiff(diff(800, [['1', '1']]));
    assert.equal(again.onSnapshot(700, flat([['13', '1']]), flat([['12', '1']])), 'gap', 'a crossed snapshot the buffered stream does not uncross');
  });

  it('out-of-order diffs in the buffer are a gap on the snapshot', () => {
    const sync = new BitstampBookSync(new L2Book(), []);
    sync.onDiff(diff(300, [['11', '1']]));
    sync.onDiff(diff(500, [['12', '1']]));
    sync.onDiff(diff(400, [['13', '1']]));
    assert.equal(sync.onSnapshot(300, [], []), 'gap');
    assert.equal(sync.buffered, 0);
    assert.equal(sync.onSnapshot(400, [], []), 'stale', 'the diff at 500 was seen');
    assert.equal(sync.onSnapshot(500, [], []), 'synced');
    const swapped = new BitstampBookSync(new L2Book(), []);
    swapped.onDiff(diff(500, [['12', '1']]));
    swapped.onDiff(diff(400, [['13', '1']]));
    assert.equal(swapped.onSnapshot(450, [], []), 'stale', 'older than the first buffered');
    assert.equal(swapped.onSnapshot(500, [], []), 'synced', 'both are in a snapshot at 500');
  });

  it('a snapshot taken in place of a whole book must reach what that book holds', () => {
    const sync = new BitstampBookSync(new L2Book(), []);
    sync.onSnapshot(100, [], []);
    sync.onDiff(diff(200, [['10', '1']]));
    assert.equal(sync.onSnapshot(150, [], []), 'stale');
    assert.equal(sync.onSnapshot(200, flat([['10', '1']]), []), 'synced');
  });

  it('holds at most MAX_BUFFERED_EVENTS diffs, dropping the oldest; reset forgets the book, the buffer and the stamps', () => {
    const book = new L2Book();
    const sync = new BitstampBookSync(book, []);
    for (let i = 0; i <= MAX_BUFFERED_EVENTS; i++) sync.onDiff(diff(1_000 + i, [['10', '1']]));
    assert.equal(sync.buffered, MAX_BUFFERED_EVENTS);
    assert.equal(sync.onSnapshot(1_000, [], []), 'stale', 'the diff at 1000 was dropped: the first held is at 1001');
    assert.equal(sync.onSnapshot(1_001, [], []), 'synced');
    sync.onDiff(diff(5_000, [['11', '1']]));
    sync.onDiff(diff(4_000, [['12', '1']]));
    sync.reset();
    assert.deepEqual([sync.synced, sync.buffered, book.depth(Side.BID)], [false, 0, 0]);
    assert.equal(sync.onSnapshot(10, [], []), 'synced', 'a new subscription owes nothing to the old one');
  });

  it('whatever the stream and snapshots, the sync is the naive model; a whole book is the venue book unless a diff was lost, and a consumer sees the same book (property)', () => {
    type Ev = { bid: boolean; tick: number; q: number };
    type Change = [Side, number, number];
    const ev = fc.record({ bid: fc.boolean(), tick: fc.integer({ min: 1, max: 24 }), q: fc.integer({ min: 0, max: 3 }) });
    const fault = fc.record({ at: fc.nat({ max: 40 }), kind: fc.constantFrom('drop', 'dup', 'swap', 'old') });
    const BASE = 1_772_723_362_000_000;
    const STEP = 10;
    const priceText = (tick: number) => formatScaled(200_000 + tick * 25, 2);
    const sizeText = (q: number) => formatScaled(q * 12_345, 8);

    fc.assert(
      fc.property(
        fc.array(ev, { maxLength: 30 }),
        fc.array(ev, { minLength: 30, maxLength: 100 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 10 }),
        fc.nat({ max: 6 }),
        fc.array(fault, { maxLength: 6 }),
        fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat({ max: 9 }), { minLength: 1, maxLength: 8 }),
        (initial, events, cuts, first, faults, snapshotAfter, picks) => {
          // The venue: a book that never crosses (an order that would cross takes the levels it
          // meets instead of resting), each event's level changes, one event per STEP µs.
          const bids = new Map<number, number>();
          const asks = new Map<number, number>();
          const applyEvent = (e: Ev): Change[] => {
            const out: Change[] = [];
            const [own, other] = e.bid ? [bids, asks] : [asks, bids];
            const ownSide = e.bid ? Side.BID : Side.ASK;
            if (e.q === 0) {
              if (own.delete(e.tick)) out.push([ownSide, e.tick, 0]);
              return out;
            }
            const met = [...other.keys()].filter((t) => (e.bid ? t <= e.tick : t >= e.tick)).sort((a, b) => a - b);
            if (met.length > 0) {
              for (const t of met) {
                other.delete(t);
                out.push([e.bid ? Side.ASK : Side.BID, t, 0]);
              }
              return out;
            }
            own.set(e.tick, e.q);
            out.push([ownSide, e.tick, e.q]);
            return out;
          };
          for (const e of initial) applyEvent(e);
          const states: [Map<number, number>, Map<number, number>][] = [[new Map(bids), new Map(asks)]];
          const eventChanges: Change[][] = [];
          for (const e of events) {
            eventChanges.push(applyEvent(e));
            states.push([new Map(bids), new Map(asks)]);
          }
          const stampOf = (i: number) => BASE + i * STEP; // event i (1-based); 0 is the initial book
          const versionAt = (stamp: number) => Math.max(0, Math.min(events.length, Math.floor((stamp - BASE) / STEP)));
          const sorted = (m: Map<number, number>, side: Side) =>
            [...m]
              .map(([t, q]) => [parseScaled(priceText(t), 9), parseScaled(sizeText(q), 8)] as const)
              .sort((a, b) => (side === Side.BID ? b[0] - a[0] : a[0] - b[0]))
              .flat();
          const truthAt = (stamp: number) => {
            const [b, a] = states[versionAt(stamp)]!;
            return [sorted(b, Side.BID), sorted(a, Side.ASK)] as const;
          };
          // Its broadcasts: consecutive events merged, each changed level's last amount, sent as
          // the venue writes them and decoded by the codec.
          type Broadcast = { index: number; from: number; to: number; stamp: number; diff: BitstampDiff };
          const broadcasts: Broadcast[] = [];
          for (let i = 1, c = 0; i <= events.length; c++) {
            const to = Math.min(events.length, i + cuts[c % cuts.length]! - 1);
            const merged = new Map<string, Change>();
            for (let k = i; k <= to; k++) for (const ch of eventChanges[k - 1]!) merged.set(`${ch[0]}:${ch[1]}`, ch);
            const level = (side: Side) => [...merged.values()].filter((ch) => ch[0] === side).map((ch) => [priceText(ch[1]), sizeText(ch[2])]);
            const stamp = stampOf(to);
            const frame = decodeFrame({ data: { timestamp: String(Math.floor(stamp / 1e6)), microtimestamp: String(stamp), bids: level(Side.BID), asks: level(Side.ASK) }, channel: 'diff_order_book_btcusd', event: 'data' });
            assert.ok(frame?.kind === 'diff');
            broadcasts.push({ index: broadcasts.length, from: i, to, stamp, diff: frame.diff });
            i = to + 1;
          }
          // What the client receives from its subscription on: drops, repeats, swapped neighbours, late old ones.
          const start = Math.min(first, broadcasts.length - 1);
          const received: { b: Broadcast; anomaly: boolean }[] = [];
          let afterDrop = false;
          for (let j = start; j < broadcasts.length; j++) {
            const f = faults.find((x) => x.at === j)?.kind;
            const b = broadcasts[j]!;
            if (f === 'drop') {
              afterDrop = true;
              continue;
            }
            if (f === 'dup') received.push({ b, anomaly: afterDrop }, { b, anomaly: false });
            else if (f === 'swap' && j + 1 < broadcasts.length) {
              received.push({ b: broadcasts[j + 1]!, anomaly: true }, { b, anomaly: true });
              j++;
            } else if (f === 'old' && j > start + 1) received.push({ b, anomaly: afterDrop }, { b: broadcasts[j - 2]!, anomaly: true });
            else received.push({ b, anomaly: afterDrop });
            afterDrop = false;
          }
          // A broadcast not received so far with a stamp in (from, to]: a book spanning it cannot be the venue's.
          const heard = new Set<number>();
          const lostIn = (from: number, to: number) => broadcasts.some((b) => !heard.has(b.index) && b.stamp > from && b.stamp <= to);

          // The naive model: the documented rule and this sync's checks, on maps.
          const model = { whole: false, snapAt: -1, stampAt: -1, wasCrossed: false, seenAt: -1, floorAt: -1, held: [] as BitstampDiff[], bids: new Map<number, number>(), asks: new Map<number, number>() };
          const crossedModel = () => model.bids.size > 0 && model.asks.size > 0 && Math.max(...model.bids.keys()) >= Math.min(...model.asks.keys());
          const clearModel = () => Object.assign(model, { whole: false, snapAt: -1, stampAt: -1, wasCrossed: false, bids: new Map(), asks: new Map() });
          const brokenModel = () => {
            clearModel();
            model.held = [];
            model.floorAt = model.seenAt;
          };
          const nextModel = (d: BitstampDiff): { outcome: string; changes: number[] } => {
            if (d.microtimestamp <= model.snapAt) return { outcome: 'buffered', changes: [] };
            if (d.microtimestamp < model.stampAt) return { outcome: 'gap', changes: [] };
            const changes: number[] = [];
            for (const [side, levels, map] of [[Side.BID, d.bids, model.bids], [Side.ASK, d.asks, model.asks]] as const) {
              for (let i = 0; i < levels.length; i += 2) {
                if (levels[i + 1] === 0) map.delete(levels[i]!);
                else map.set(levels[i]!, levels[i + 1]!);
                changes.push(side, levels[i]!, levels[i + 1]!);
              }
            }
            model.stampAt = d.microtimestamp;
            const crossed = crossedModel();
            if (crossed && model.wasCrossed) return { outcome: 'gap', changes: [] };
            model.wasCrossed = crossed;
            return { outcome: 'applied', changes };
          };
          const diffModel = (d: BitstampDiff) => {
            model.seenAt = Math.max(model.seenAt, d.microtimestamp);
            if (!model.whole) {
              model.held.push(d);
              return { outcome: 'buffered', changes: [] as number[] };
            }
            const r = nextModel(d);
            if (r.outcome === 'gap') brokenModel();
            return r;
          };
          const snapshotModel = (stamp: number, b: readonly number[], a: readonly number[]) => {
            if (model.whole) model.floorAt = Math.max(model.floorAt, model.seenAt);
            const held = model.held;
            clearModel();
            if (stamp < model.floorAt || (held.length > 0 && stamp < held[0]!.microtimestamp)) return 'stale';
            model.held = [];
            for (let i = 0; i < b.length; i += 2) model.bids.set(b[i]!, b[i + 1]!);
            for (let i = 0; i < a.length; i += 2) model.asks.set(a[i]!, a[i + 1]!);
            Object.assign(model, { whole: true, snapAt: stamp, stampAt: stamp });
            model.wasCrossed = crossedModel();
            for (const d of held) {
              if (nextModel(d).outcome === 'gap') {
                brokenModel();
                return 'gap';
              }
            }
            return 'synced';
          };

          const book = new L2Book();
          const changes: number[] = [];
          const sync = new BitstampBookSync(book, changes);
          const mirror = new L2Book();
          let snapshotAt = -1;
          let newest = 0; // the newest event the client has heard of
          let anomalies = 0; // lost, swapped or late diffs received so far
          let holeTaken = false;
          let takenEmpty = false; // the snapshot the book stands on came with nothing buffered
          let crossedBefore = false; // the whole book was crossed after the previous step
          const crossedNow = () => {
            const b = book.best(Side.BID);
            const a = book.best(Side.ASK);
            return b !== undefined && a !== undefined && b >= a;
          };
          const check = (outcome: string, expected: string, expectedChanges: number[], label: string) => {
            assert.equal(outcome, expected, `${label}: outcome`);
            if (outcome === 'applied') assert.deepEqual(changes, expectedChanges, `${label}: the changes published`);
            else assert.deepEqual(changes, [], `${label}: nothing to publish`);
            if (outcome === 'synced') {
              mirror.clear();
              const bb = book.flat(Side.BID, 10_000);
              const aa = book.flat(Side.ASK, 10_000);
              for (let i = 0; i < bb.length; i += 2) mirror.set(Side.BID, bb[i]!, bb[i + 1]!);
              for (let i = 0; i < aa.length; i += 2) mirror.set(Side.ASK, aa[i]!, aa[i + 1]!);
            } else for (let i = 0; i < changes.length; i += 3) mirror.set(changes[i] as Side, changes[i + 1]!, changes[i + 2]!);
            changes.length = 0;
            if (outcome === 'gap') assert.ok(anomalies > 0 || holeTaken, `${label}: a gap only where the stream or a snapshot missed something`);
            assert.equal(sync.synced, model.whole, `${label}: whole`);
            assert.equal(sync.buffered, model.held.length, `${label}: diffs held`);
            assert.equal(sync.microtimestamp, model.whole ? model.stampAt : -1, `${label}: stamp`);
            assert.deepEqual(book.flat(Side.BID, 10_000), sorted2(model.bids, Side.BID), `${label}: bids as the model has them`);
            assert.deepEqual(book.flat(Side.ASK, 10_000), sorted2(model.asks, Side.ASK), `${label}: asks as the model has them`);
            if (!sync.synced) {
              crossedBefore = false;
              return;
            }
            assert.ok(!(outcome === 'applied' && crossedBefore && crossedNow()), `${label}: a book is never left crossed two diffs running`);
            crossedBefore = crossedNow();
            // What a whole book has not heard: diffs lost mid-stream, or (the documented hole)
            // changes before the subscription when the snapshot came with nothing buffered.
            for (const b of broadcasts) {
              if (heard.has(b.index) || b.stamp <= snapshotAt || b.stamp > sync.microtimestamp) continue;
              assert.ok(b.index >= start || takenEmpty, `${label}: the book spans broadcast ${b.index}, from before the subscription`);
            }
            assert.deepEqual(mirror.flat(Side.BID, 10_000), book.flat(Side.BID, 10_000), `${label}: the consumer's bids`);
            assert.deepEqual(mirror.flat(Side.ASK, 10_000), book.flat(Side.ASK, 10_000), `${label}: the consumer's asks`);
            if (!lostIn(snapshotAt, sync.microtimestamp)) {
              const [tb, ta] = truthAt(sync.microtimestamp);
              assert.deepEqual(book.flat(Side.BID, 10_000), tb, `${label}: the venue's bids at ${sync.microtimestamp}`);
              assert.deepEqual(book.flat(Side.ASK, 10_000), ta, `${label}: the venue's asks at ${sync.microtimestamp}`);
            }
          };
          const sorted2 = (m: Map<number, number>, side: Side) => [...m].sort((x, y) => (side === Side.BID ? y[0] - x[0] : x[0] - y[0])).flat();
          // A snapshot as the REST book lags: at any event from a few before the newest heard of
          // to a couple after it, stamped at that event or between it and the next.
          let picked = 0;
          const snapshot = (label: string, version?: number) => {
            const p = picks[picked++ % picks.length]!;
            const v = version ?? Math.max(0, Math.min(events.length, newest - 6 + p));
            const stamp = v === 0 ? BASE : stampOf(v) + (p % 2 === 0 ? 0 : STEP / 2);
            const [sb, sa] = states[v]!;
            const body = { timestamp: String(Math.floor(stamp / 1e6)), microtimestamp: String(stamp), bids: [...sb].map(([t, q]) => [priceText(t), sizeText(q)]), asks: [...sa].map(([t, q]) => [priceText(t), sizeText(q)]) };
            const snap = decodeOrderBook(body);
            assert.ok(snap !== undefined);
            changes.push(Side.BID, 1, 1); // left undrained by a careless caller: a sync publishes none of it
            const expected = snapshotModel(stamp, snap.bids, snap.asks);
            const empty = sync.buffered === 0;
            const outcome = sync.onSnapshot(snap.microtimestamp, snap.bids, snap.asks);
            if (outcome !== 'synced') changes.length = 0;
            if (outcome === 'synced') {
              snapshotAt = stamp;
              takenEmpty = empty;
              // Nothing buffered, and older than the subscription: the documented hole.
              if (broadcasts.some((b) => b.index < start && b.stamp > stamp)) holeTaken = true;
            }
            check(outcome, expected, [], label);
            return outcome;
          };
          let nextSnapshot = snapshotAfter[0]!;
          let attempts = 0;
          for (let i = 0; i < received.length; i++) {
            const { b, anomaly } = received[i]!;
            if (anomaly) anomalies++;
            heard.add(b.index);
            newest = Math.max(newest, b.to);
            const expected = diffModel(b.diff);
            check(sync.onDiff(b.diff), expected.outcome, expected.changes, `diff ${i} (broadcast ${b.index})`);
            if (!sync.synced && i >= nextSnapshot) {
              attempts++;
              if (snapshot(`snapshot after diff ${i}`) !== 'synced') nextSnapshot = i + 1 + snapshotAfter[attempts % snapshotAfter.length]!;
            }
          }
          // At the end a snapshot of the venue's latest book always makes the book whole, and the venue's.
          assert.equal(snapshot('last snapshot', events.length), 'synced');
          const [tb, ta] = truthAt(stampOf(events.length));
          assert.deepEqual([book.flat(Side.BID, 10_000), book.flat(Side.ASK, 10_000)], [tb, ta]);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('Bitstamp instruments', () => {
  it("reads trading-pairs-info rows as ccxt captured them; minimum_order names the counter currency", () => {
    const [btc, eth, ...rest] = decodeTradingPairsInfo([
      { trading: 'Enabled', base_decimals: 8, url_symbol: 'btcusd', name: 'BTC/USD', instant_and_market_orders: 'Enabled', minimum_order: '20.0 USD', counter_decimals: 2, description: 'Bitcoin / U.S. dollar' },
      { trading: 'Disabled', base_decimals: 8, url_symbol: 'etheur', name: 'ETH/EUR', instant_and_market_orders: 'Disabled', minimum_order: '10.0 EUR', counter_decimals: 1, description: 'Ether / Euro' },
      { trading: 'Enabled', base_decimals: 9, url_symbol: 'finebtc', name: 'FINE/BTC', instant_and_market_orders: 'Enabled', minimum_order: '0.0002 BTC', counter_decimals: 8, description: 'too fine' },
      { trading: 'Enabled', base_decimals: 8, url_symbol: 'btcusd-perp', name: 'BTC/USD-PERP', instant_and_market_orders: 'Enabled', minimum_order: '10 USD', counter_decimals: 0 },
    ]);
    assert.deepEqual(btc, { symbol: 'BTC-USD', venueSymbol: 'btcusd', base: 'BTC', quote: 'USD', trading: true, market_orders: true, base_decimals: 8, counter_decimals: 2, tick_1e9: 10_000_000, lot_1e8: 1, min_value_1e9: 20_000_000_000, min_qty_1e8: 0 });
    assert.deepEqual([eth?.symbol, eth?.trading, eth?.market_orders, eth?.tick_1e9, eth?.min_value_1e9], ['ETH-EUR', false, false, 100_000_000, 10_000_000_000]);
    assert.deepEqual(rest, [], 'amounts past 1e-8 and perpetuals are left out');
    assert.equal(decodeTradingPairsInfo([{ trading: 'Enabled', base_decimals: 8, url_symbol: 'btcusd', name: 'BTC/USD', minimum_order: '20.0 EUR', counter_decimals: 2 }])[0]?.min_value_1e9, 0, 'a minimum in another currency is not read as the counter');
    assert.deepEqual(decodeTradingPairsInfo({ status: 'error' }), []);
  });

  it('reads /api/v2/markets/, its replacement, keeping spot markets only', () => {
    const markets = decodeMarkets([
      { name: 'BTC/USD', market_symbol: 'btcusd', base_currency: 'BTC', base_decimals: 8, counter_currency: 'USD', counter_decimals: 0, minimum_order_value: '10', trading: 'Enabled', instant_order_counter_decimals: 2, instant_and_market_orders: 'Enabled', description: 'Bitcoin / U.S. dollar', market_type: 'SPOT' },
      { name: 'BTC/USD-PERP', market_symbol: 'btcusd-perp', base_currency: 'BTC', base_decimals: 5, counter_currency: 'USD', counter_decimals: 0, minimum_order_value: '10', maximum_order_value: '500000.00000000', minimum_order_amount: '0.00001000', maximum_order_amount: '10.00000000', trading: 'Enabled', instant_order_counter_decimals: 2, instant_and_market_orders: 'Enabled', description: 'Bitcoin / U.S. dollar Perpetual', market_type: 'PERPETUAL', underlying_asset: 'Kaiko BTC Benchmark Reference Rate', payoff_type: 'Linear', contract_size: '1.00000000', isin: 'EZHKD4DNKHY3' },
      { name: 'XRP/USD', market_symbol: 'xrpusd', base_currency: 'XRP', base_decimals: 8, counter_currency: 'USD', counter_decimals: 5, minimum_order_value: '10', minimum_order_amount: '1.5', tick_size: '0.00010', trading: 'Enabled', instant_and_market_orders: 'Disabled', market_type: 'SPOT' },
    ]);
    assert.deepEqual(markets.map((m) => m.symbol), ['BTC-USD', 'XRP-USD']);
    assert.deepEqual([markets[0]!.tick_1e9, markets[0]!.min_value_1e9, markets[0]!.lot_1e8], [1_000_000_000, 10_000_000_000, 1], 'BTC/USD prices are whole dollars');
    assert.deepEqual([markets[1]!.tick_1e9, markets[1]!.min_qty_1e8, markets[1]!.market_orders], [100_000, 150_000_000, false], 'tick_size where given');
  });

  it("maps our symbols to Bitstamp's and back", () => {
    assert.equal(venueSymbolOf('BTC-USD'), 'btcusd');
    assert.equal(venueSymbolOf('1INCH-EUR'), '1incheur');
    assert.equal(venueSymbolOf('BTCUSD'), undefined);
    assert.equal(symbolOfName('BTC/USD'), 'BTC-USD');
    assert.equal(symbolOfName('BTC/USD-PERP'), undefined);
  });
});

// ---------------------------------------------------------------------------------------------

const BTCUSD: BitstampInstrument = { symbol: 'BTC-USD', venueSymbol: 'btcusd', base: 'BTC', quote: 'USD', trading: true, market_orders: true, base_decimals: 8, counter_decimals: 0, tick_1e9: 1_000_000_000, lot_1e8: 1, min_value_1e9: 10_000_000_000, min_qty_1e8: 0 };
const CHILD = 'ord_0mwz4ka3500001oq-1';

describe('Bitstamp orders', () => {
  it('paths of the order, status, cancel, open orders and fee calls', () => {
    assert.equal(limitOrderPath('buy', 'btcusd'), '/api/v2/buy/btcusd/');
    assert.equal(limitOrderPath('sell', 'btcusd'), '/api/v2/sell/btcusd/');
    assert.equal(marketOrderPath('buy', 'btcusd'), '/api/v2/buy/market/btcusd/');
    assert.equal(cancelAllPath('btcusd'), '/api/v2/cancel_all_orders/btcusd/');
    assert.equal(openOrdersPath('btcusd'), '/api/v2/open_orders/btcusd/');
    assert.equal(tradingFeePath('btcusd'), '/api/v2/fees/trading/btcusd/');
    assert.deepEqual([PATHS.orderStatus, PATHS.cancelOrder, PATHS.openOrders, PATHS.accountBalances, PATHS.tradingFees, PATHS.markets], ['/api/v2/order_status/', '/api/v2/cancel_order/', '/api/v2/open_orders/', '/api/v2/account_balances/', '/api/v2/fees/trading/', '/api/v2/markets/']);
    assert.throws(() => limitOrderPath('buy', 'btc/usd'));
  });

  it('our child id is the client_order_id as is (at most 180 characters, printable)', () => {
    assert.equal(bitstampClientOrderId(CHILD), CHILD);
    assert.equal(childIdOfBitstamp(CHILD), CHILD);
    assert.equal(bitstampClientOrderId('123123'), undefined, 'not one of ours');
    assert.equal(childIdOfBitstamp(''), undefined, 'older answers write "" for none');
    assert.equal(childIdOfBitstamp(null), undefined);
    assert.equal(bitstampClientOrderId(`ord_${'a'.repeat(170)}-1234567`), undefined, 'past 180');
  });

  it('terms: the amount down to base_decimals, the limit to the tick toward the passive side, the minimum value', () => {
    assert.deepEqual(orderTerms(BTCUSD, 'buy', 12_345_678, 60_000_700_000_000), { ok: true, terms: { amount_1e8: 12_345_678, price_1e9: 60_000_000_000_000 } });
    assert.deepEqual(orderTerms(BTCUSD, 'sell', 12_345_678, 60_000_700_000_000), { ok: true, terms: { amount_1e8: 12_345_678, price_1e9: 60_001_000_000_000 } });
    assert.deepEqual(orderTerms(BTCUSD, 'buy', 12_345_678, null), { ok: true, terms: { amount_1e8: 12_345_678, price_1e9: null } });
    const value = orderTerms(BTCUSD, 'buy', 10_000, 60_000_000_000_000); // 0.0001 BTC x 60,000 = 6 USD
    assert.equal(value.ok, false);
    assert.match(!value.ok ? value.reason : '', /minimum order value for btcusd \(10 USD\)/);
    const coarse: BitstampInstrument = { ...BTCUSD, base_decimals: 2, lot_1e8: 1_000_000 };
    assert.deepEqual(orderTerms(coarse, 'buy', 12_345_678, 60_000_000_000_000), { ok: true, terms: { amount_1e8: 12_000_000, price_1e9: 60_000_000_000_000 } });
    assert.equal(orderTerms(coarse, 'buy', 999_999, 60_000_000_000_000).ok, false, 'below one lot');
  });

  it('bodies: amount, price, ioc_order=True for an IOC, client_order_id; by id or client id for status and cancel', () => {
    assert.equal(orderBody(CHILD, { amount_1e8: 12_345_678, price_1e9: 60_000_000_000_000 }, 'ioc'), 'amount=0.12345678&price=60000&ioc_order=True&client_order_id=ord_0mwz4ka3500001oq-1');
    assert.equal(orderBody(CHILD, { amount_1e8: 10_000_000, price_1e9: 1_234_500_000 }, 'gtc'), 'amount=0.1&price=1.2345&client_order_id=ord_0mwz4ka3500001oq-1', 'a GTC limit is the default: no flag');
    assert.equal(orderBody(CHILD, { amount_1e8: 10_000_000, price_1e9: null }, 'ioc'), 'amount=0.1&client_order_id=ord_0mwz4ka3500001oq-1', 'a market order (its own path)');
    assert.equal(orderBody('not-ours', { amount_1e8: 1, price_1e9: 1 }, 'gtc'), undefined);
    assert.equal(orderStatusBody({ client_order_id: CHILD }), 'client_order_id=ord_0mwz4ka3500001oq-1');
    assert.equal(orderStatusBody({ id: '1429545880227846' }, true), 'id=1429545880227846&omit_transactions=True');
    assert.equal(cancelOrderBody({ client_order_id: CHILD }), 'client_order_id=ord_0mwz4ka3500001oq-1');
    assert.equal(cancelOrderBody({ id: '1453282316578816' }), 'id=1453282316578816');
    assert.equal(formBody([['a b', 'x&y=z']]), 'a%20b=x%26y%3Dz');
  });

  it('reads the placement answer (an acknowledgement: no fills) and its errors', () => {
    // The reference's BuySellOrderResponse fields; values of ccxt's capture.
    const ack = decodeOrderAck(200, { id: '2814205012', market: 'XRP/BTC', datetime: '2019-01-31 21:23:36', type: '0', price: '0.00008012', amount: '15.00000000', client_order_id: CHILD });
    assert.deepEqual(ack, { ok: true, id: '2814205012', client_order_id: CHILD, side: 'buy', price_1e9: 80_120, amount_1e8: 1_500_000_000, ts_ns: Date.UTC(2019, 0, 31, 21, 23, 36) * 1e6 });
    const refused = decodeOrderAck(200, { status: 'error', reason: { __all__: ['Minimum order size is 10.0 USD.'] } });
    assert.deepEqual(refused, { ok: false, failure: 'refused', error: { code: '', messages: ['Minimum order size is 10.0 USD.'] }, reason: 'bitstamp: Minimum order size is 10.0 USD.' });
    assert.equal(decodeOrderAck(200, { status: 'error', reason: { __all__: ['You need 61.00 USD to open that order. You have only 3.10 USD available. Check your account balance for details.'] } })?.ok === false, true);
    assert.deepEqual(decodeOrderAck(400, { status: 'error', reason: 'Order could not be placed.', response_code: '500.003' }), { ok: false, failure: 'fate_unknown', error: { code: '500.003', messages: ['Order could not be placed.'] }, reason: 'bitstamp 500.003: Order could not be placed.' });
    assert.equal(decodeOrderAck(200, { id: '1' }), undefined, 'not an order: fate unknown');
    assert.equal(decodeOrderAck(502, undefined), undefined);
    assert.equal(decodeOrderAck(200, { id: 9007199254740993, price: '1', amount: '1' }), undefined, 'an id JSON.parse has rounded');
  });

  // ccxt's fetchOrder capture (ETH/USDT), its partially filled cancelled one (ETH/USD).
  const FINISHED = { status: 'Finished', id: 1429545880227846, amount_remaining: '0.00000000', client_order_id: CHILD, transactions: [{ fee: '0.11128', price: '4451.25000000', datetime: '2021-11-25 12:59:59.322000', usdt: '22.25625000', tid: 209895701, eth: '0.00500000', type: 2 }] };
  const CANCELED = { id: 468646390, client_order_id: '', status: 'Canceled', amount_remaining: '0.27000000', transactions: [{ eth: '0.23000000', fee: '0.09', tid: 25810126, usd: '69.8947000000000000', type: 2, price: '303.89000000', datetime: '2017-11-11 07:22:20.710567' }] };

  it("reads an order's status into a leg report: fills with the venue's trade id and the fee in the counter currency, rounded up", () => {
    const order = decodeOrderStatus(FINISHED, { base: 'ETH' }, { tif: 'ioc' });
    assert.deepEqual(order, {
      id: '1429545880227846',
      client_order_id: CHILD,
      child_id: CHILD,
      status: 'Finished',
      working: false,
      remaining_1e8: 0,
      resting_qty_1e8: 0,
      fills: [{ price_1e9: 4_451_250_000_000, qty_1e8: 500_000, trade_id: '209895701', ts_ns: Date.UTC(2021, 10, 25, 12, 59, 59) * 1e6 + 322_000_000, fee_1e9: 111_280_000, is_maker: false }],
    });
    assert.deepEqual(legReportOf(order!), { ok: true, reason: null, fills: order!.fills, resting_qty_1e8: 0 });
    assert.equal(executedOf(order!, 500_000), 500_000);
    const cancelled = decodeOrderStatus(CANCELED, { base: 'ETH' }, { tif: 'gtc' })!;
    assert.deepEqual([cancelled.status, cancelled.working, cancelled.resting_qty_1e8, cancelled.child_id, cancelled.fills[0]!.qty_1e8, cancelled.fills[0]!.fee_1e9], ['Canceled', false, 0, null, 23_000_000, 90_000_000], 'the counter amount written to 16 decimals is not needed');
    assert.equal(executedOf(cancelled, 50_000_000), 23_000_000);
    const fee = decodeOrderStatus({ ...FINISHED, transactions: [{ ...FINISHED.transactions[0], fee: '0.0000000001' }] }, { base: 'ETH' }, { tif: 'ioc' })!;
    assert.equal(fee.fills[0]!.fee_1e9, 1, 'a fee past 1e-9 rounds up, against us');
  });

  it('an open order rests what is left; a cancel in progress still may fill', () => {
    const open = decodeOrderStatus({ id: '1', datetime: '2024-01-01 00:00:00', type: '0', status: 'Open', market: 'BTC/USD', amount_remaining: '0.40000000', transactions: [] }, { base: 'BTC' }, { tif: 'gtc' })!;
    assert.deepEqual([open.working, open.resting_qty_1e8], [true, 40_000_000]);
    const pending = decodeOrderStatus({ id: '1', status: 'Cancel pending', amount_remaining: '0.4', transactions: [] }, { base: 'BTC' }, { tif: 'gtc' })!;
    assert.equal(pending.resting_qty_1e8, 40_000_000);
    assert.equal(decodeOrderStatus({ id: '1', status: 'Partially filled', amount_remaining: '0.4', transactions: [] }, { base: 'BTC' }, { tif: 'gtc' }), undefined, 'an unknown status is not guessed');
    assert.equal(decodeOrderStatus({ id: '1', status: 'Open', amount_remaining: '0.4', transactions: [{ tid: 1, price: '1', fee: '0', datetime: 'x', btc: '0.1' }] }, { base: 'BTC' }, { tif: 'gtc' }), undefined, 'an unreadable fill');
    assert.equal(decodeOrderStatus({ id: '1', status: 'Open', amount_remaining: '0.4', transactions: [{ tid: 1, type: 0, btc: '1' }] }, { base: 'BTC' }, { tif: 'gtc' })?.fills.length, 0, 'a row that is not a trade');
    assert.equal(decodeOrderStatus({ id: '1', status: 'Finished', amount_remaining: '0' }, { base: 'BTC' }, { tif: 'gtc' })?.fills.length, 0, 'asked with omit_transactions');
  });

  it("tells a resting child's maker fills by their fee, the rows carrying no flag", () => {
    const row = (fee: string) => ({ id: '1', status: 'Finished', amount_remaining: '0', transactions: [{ tid: 7, price: '60000', fee, datetime: '2024-01-01 00:00:00', btc: '0.01000000', usd: '600.00', type: 2 }] });
    const rates = { maker_bps: 15, taker_bps: 25 };
    // 600 USD: maker 0.90, taker 1.50.
    assert.equal(decodeOrderStatus(row('0.90'), { base: 'BTC' }, { tif: 'gtc', rates })!.fills[0]!.is_maker, true);
    assert.equal(decodeOrderStatus(row('1.50'), { base: 'BTC' }, { tif: 'gtc', rates })!.fills[0]!.is_maker, false);
    assert.equal(decodeOrderStatus(row('0.91'), { base: 'BTC' }, { tif: 'gtc', rates })!.fills[0]!.is_maker, true, 'rounded by the venue');
    assert.equal(decodeOrderStatus(row('0.90'), { base: 'BTC' }, { tif: 'ioc', rates })!.fills[0]!.is_maker, false, 'an IOC never makes');
    assert.equal(decodeOrderStatus(row('0.90'), { base: 'BTC' }, { tif: 'gtc', rates: { maker_bps: 15, taker_bps: 15 } })!.fills[0]!.is_maker, false, 'equal rates: cannot be told');
  });

  it('a lookup that finds no order is final for the caller; any other error concludes nothing', () => {
    assert.deepEqual(decodeLookup(200, { status: 'error', reason: 'Order not found.' }, { base: 'BTC' }, { tif: 'ioc' }), { found: false });
    assert.deepEqual(decodeLookup(404, { status: 'error', reason: 'Order not found for corresponding request.', response_code: '404.002' }, { base: 'BTC' }, { tif: 'ioc' }), { found: false });
    assert.deepEqual(decodeLookup(200, { error: 'Order not found' }, { base: 'BTC' }, { tif: 'ioc' }), { found: false }, 'the older shape');
    assert.equal(decodeLookup(403, { status: 'error', reason: 'Invalid signature', code: 'API0005' }, { base: 'BTC' }, { tif: 'ioc' }), undefined);
    assert.equal(decodeLookup(500, undefined, { base: 'BTC' }, { tif: 'ioc' }), undefined);
    assert.deepEqual(decodeLookup(200, FINISHED, { base: 'ETH' }, { tif: 'ioc' })?.found, true);
  });

  it('reads cancel, cancel-all and open-orders answers', () => {
    assert.deepEqual(decodeCancel({ id: 1453282316578816, amount: '0.02035278', price: '2100.45', type: 0, market: 'BTC/USD', status: 'Canceled' }), { id: '1453282316578816', amount_1e8: 2_035_278, status: 'Canceled' });
    assert.deepEqual(decodeCancel({ id: 1453282316578816, amount: '0.02035278', price: '2100.45', type: 0, market: 'BTC/USD' }), { id: '1453282316578816', amount_1e8: 2_035_278, status: null }, 'before the 2025-10-23 status field');
    assert.equal(decodeCancel({ status: 'error', reason: 'Order not found' }), undefined);
    assert.equal(classifyFailure(200, bitstampError({ status: 'error', reason: 'Order not found' })), 'unknown_order', 'a cancel of what is gone: filled or cancelled');
    assert.deepEqual(decodeCancelAll({ canceled: [{ id: 1453282316578816, amount: '0.02035278', price: '2100.45', type: 0, currency_pair: 'BTC/USD', market: 'BTC/USD' }], success: true }), { success: true, ids: ['1453282316578816'] });
    assert.deepEqual(decodeCancelAll({ canceled: [], success: false }), { success: false, ids: [] });
    const open = decodeOpenOrders([
      { price: '0.00008012', currency_pair: 'XRP/BTC', client_order_id: '', datetime: '2019-01-31 21:23:36', amount: '15.00000000', type: '0', id: '2814205012' },
      { id: '2814205013', datetime: '2024-01-01 00:00:00', type: '1', price: '60000', amount: '0.10000000', amount_at_create: '0.20000000', market: 'BTC/USD', client_order_id: CHILD },
    ]);
    assert.deepEqual(open, [
      { id: '2814205012', client_order_id: null, child_id: null, symbol: 'XRP-BTC', side: 'buy', price_1e9: 80_120, remaining_1e8: 1_500_000_000 },
      { id: '2814205013', client_order_id: CHILD, child_id: CHILD, symbol: 'BTC-USD', side: 'sell', price_1e9: 60_000_000_000_000, remaining_1e8: 10_000_000 },
    ]);
    assert.equal(decodeOpenOrders({ status: 'error', reason: 'x' }), undefined);
  });
});

// ---------------------------------------------------------------------------------------------

describe('Bitstamp errors', () => {
  it('reads every error shape the venue answers in', () => {
    assert.deepEqual(bitstampError({ status: 'error', reason: 'Invalid nonce', code: 'API0004' }), { code: 'API0004', messages: ['Invalid nonce'] });
    assert.deepEqual(bitstampError({ status: 'error', reason: { amount: ['Ensure that there are no more than 0 decimal places.'], __all__: [''] } }), { code: '', messages: ['Ensure that there are no more than 0 decimal places.'] });
    assert.deepEqual(bitstampError({ status: 'error', reason: { __all__: ['Trading is currently unavailable for your account.'] }, response_code: '403.004' }), { code: '403.004', messages: ['Trading is currently unavailable for your account.'] });
    assert.deepEqual(bitstampError({ error: 'No permission found' }), { code: '', messages: ['No permission found'] });
    assert.deepEqual(bitstampError({ errors: [{ code: 'API5505', message: 'Invalid arguments.', field: 'market' }] }), { code: 'API5505', messages: ['Invalid arguments.'] });
    assert.equal(bitstampError({ status: 'Canceled', id: 1 }), undefined, "an order's status is not an error");
    assert.equal(bitstampError([]), undefined);
    assert.equal(reasonOf({ code: 'API0005', messages: ['Invalid signature'] }), 'bitstamp API0005: Invalid signature');
  });

  it('classifies them: rate, clock, nonce, auth, missing order, fate unknown, funds, refused', () => {
    const c = (status: number, body: unknown) => classifyFailure(status, bitstampError(body));
    assert.equal(c(400, { status: 'error', reason: 'Request rejected due to exceeded rate limit.', response_code: '400.002' }), 'rate_limited');
    assert.equal(c(400, { status: 'error', reason: 'x', response_code: '400.068' }), 'rate_limited');
    assert.equal(c(429, undefined), 'rate_limited');
    assert.equal(c(403, { status: 'error', reason: 'X-Auth-Timestamp header is out of boundaries', code: 'API0017' }), 'clock');
    assert.equal(c(403, { status: 'error', reason: 'Invalid nonce', code: 'API0004' }), 'nonce');
    for (const code of ['API0001', 'API0002', 'API0003', 'API0005', 'API0006', 'API0008', 'API0009', 'API0010', 'API0011', 'API0012', 'API0016', 'API0019', 'API0020', 'API0021']) {
      assert.equal(c(403, { status: 'error', reason: 'x', code }), 'auth', code);
    }
    assert.equal(c(200, { error: 'No permission found' }), 'auth', 'the older shape, no code');
    assert.equal(c(403, { status: 'error', reason: { __all__: ['Trading is blocked for user.'] }, response_code: '403.004' }), 'auth');
    assert.equal(c(403, undefined), 'auth', 'a bare 403 (the CDN, a whitelist): nothing was done');
    assert.equal(c(404, { status: 'error', reason: 'Order not found for corresponding request.', response_code: '404.002' }), 'unknown_order');
    assert.equal(c(200, { status: 'error', reason: 'Order not found.' }), 'unknown_order');
    assert.equal(c(500, { status: 'error', reason: 'Your request timed out before order confirmation. Please check order status with id in "order_id" field.', response_code: '500.016', order_id: 1 }), 'fate_unknown');
    assert.equal(c(400, { status: 'error', reason: 'x', response_code: '500.013' }), 'fate_unknown');
    assert.equal(c(200, { status: 'error', reason: { __all__: ['Order could not be placed.'] } }), 'fate_unknown', 'may have been placed: look it up before anything else');
    assert.equal(c(200, { status: 'error', reason: 'Order cancellation failed due to internal error. Please try again.' }), 'fate_unknown');
    assert.equal(c(502, undefined), 'fate_unknown');
    assert.equal(c(503, { status: 'error', reason: 'Service unavailable' }), 'fate_unknown', 'a 5xx naming no refusal');
    assert.equal(c(500, { status: 'error', reason: 'No sell orders for provided market.', response_code: '500.004' }), 'refused', 'a 5xx that names its refusal');
    assert.equal(c(400, { status: 'error', reason: 'Insufficient balance for provided user.', response_code: '400.009' }), 'funds');
    assert.equal(c(200, { status: 'error', reason: { __all__: ['You have only 0.00100000 BTC available. Check your account balance for details.'] } }), 'funds');
    assert.equal(c(400, { status: 'error', reason: 'Provided order size is lower than minimum order value.', response_code: '400.020' }), 'refused');
    assert.equal(c(200, { status: 'error', reason: { __all__: ['Price is more than 20% above market price.'] } }), 'refused');
  });

  it("counts the venue's limits: 400 a second, and never more than 10,000 in any ten minutes", () => {
    const limits = new VenueLimits(LIMIT_RULES);
    let t = 1_000_000;
    let sent = 0;
    while (limits.admit([1, 1], t) === 0) sent++;
    assert.equal(sent, 400, 'a second holds 400');
    // Flat out for half an hour: no 600 s span sees more than 10,000.
    const times: number[] = [];
    for (t = 2_000_000; t < 2_000_000 + 1_800_000; t += 5) if (limits.admit([1, 1], t) === 0) times.push(t);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= 600_000) j++;
      most = Math.max(most, i - j + 1);
    }
    assert.ok(most <= 10_000, `at most ${most} in ten minutes`);
    assert.ok(most >= 9_000, `and not far under (${most})`);
  });
});

// ---------------------------------------------------------------------------------------------

describe('Bitstamp account', () => {
  it("reads balances (ccxt's capture), free = available, locked = total - available, rounded down", () => {
    assert.deepEqual(decodeAccountBalances([
      { currency: 'usdt', total: '7.00000', available: '7.00000', reserved: '0.00000' },
      { currency: 'btc', total: '1.000000009', available: '0.5', reserved: '0.5' },
      { currency: 'eth', total: '0', available: '0', reserved: '0' },
      { currency: 'usd', total: '123456789012.12345678', available: '123456789000', reserved: '12.12345678' },
    ]), [
      { asset: 'USDT', free_1e8: 700_000_000n, locked_1e8: 0n },
      { asset: 'BTC', free_1e8: 50_000_000n, locked_1e8: 50_000_000n },
      { asset: 'ETH', free_1e8: 0n, locked_1e8: 0n },
      { asset: 'USD', free_1e8: 12_345_678_900_000_000_000n, locked_1e8: 1_212_345_678n },
    ]);
    assert.equal(decodeAccountBalances({ status: 'error', reason: 'Invalid signature', code: 'API0005' }), undefined);
  });

  it("reads trading fees (ccxt's capture) in percent as bps, and makes the probe: no endpoint tells the key's rights", () => {
    const fees = decodeTradingFees([{ currency_pair: 'btcusd', fees: { maker: '0.15000', taker: '0.16000' }, market: 'btcusd' }, { market: 'ethusd', fees: { maker: '0.07500', taker: '0.25000' } }]);
    assert.deepEqual(fees, new Map([['btcusd', { maker_bps: 15, taker_bps: 16 }], ['ethusd', { maker_bps: 7.5, taker_bps: 25 }]]));
    assert.deepEqual(decodeTradingFees({ market: 'btcusd', fees: { maker: '0', taker: '0.40000' } }), new Map([['btcusd', { maker_bps: 0, taker_bps: 40 }]]), 'one market');
    assert.equal(decodeTradingFees({ status: 'error', reason: 'x' }), undefined);
    assert.deepEqual(probeOf(fees!.get('btcusd'), { maker_bps: 30, taker_bps: 40 }, true), { tier: 'maker 15 bps / taker 16 bps', maker_bps: 15, taker_bps: 16, can_trade: true, can_withdraw: null });
    assert.deepEqual(probeOf(undefined, { maker_bps: 30, taker_bps: 40 }, false), { tier: 'maker 30 bps / taker 40 bps', maker_bps: 30, taker_bps: 40, can_trade: false, can_withdraw: null });
  });

  it('reads the datetimes the venue writes, UTC', () => {
    assert.equal(datetimeNs('2022-01-31 14:43:15'), Date.UTC(2022, 0, 31, 14, 43, 15) * 1e6);
    assert.equal(datetimeNs('2021-11-25 12:59:59.322000'), Date.UTC(2021, 10, 25, 12, 59, 59) * 1e6 + 322_000_000);
    assert.equal(datetimeNs('2025-10-17T14:23:01.725000Z'), Date.UTC(2025, 9, 17, 14, 23, 1) * 1e6 + 725_000_000);
    assert.equal(datetimeNs('1643698764'), undefined);
  });
});
