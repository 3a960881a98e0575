/**
 * The live Coinbase Advanced Trade (spot) adapter's pure core: CDP key JWTs (ES256), the `level2`
 * book kept whole under a per-connection `sequence_num` gate, and the REST codec.
 *
 * Samples, by source:
 *   - Coinbase's WebSocket channels page (docs.cdp.coinbase.com, Advanced Trade "WebSocket
 *     Channels", as mirrored verbatim in public repositories): the `level2` subscribe request,
 *     the `l2_data` snapshot example (BTC-USD, bids 21921.73 / 0.06317902 and 21921.3 / 0.02,
 *     `event_time` 1970-01-01, envelope timestamp 2023-02-09T20:32:50.714964855Z, sequence_num
 *     0), the heartbeats request and message (`heartbeat_counter` "3049" as a string).
 *   - Captured `l2_data` traffic printed in hummingbot's Coinbase connector (an update at
 *     sequence_num 9: bid 62319.46 / 0.00169, bid 62318.81 / 0, offer 62336.65 / 0.03021537).
 *   - Coinbase's REST reference (OpenAPI, `RetailBrokerageApi_*`) for field names: products
 *     (`price_increment` "Minimum amount price can be increased or decreased at once", `alias`
 *     "Product id for the corresponding unified book", `alias_to`), orders, fills, accounts,
 *     transaction summary, key permissions, the cancel and new-order failure reasons.
 *   - A create-order answer captured in coinbase-advanced-py issue #49 (an `sor_limit_ioc` on
 *     LTC-USD, the pre-September-2024 shape with a top-level `order_id` and `failure_reason`).
 *   - The order-not-found body `{"error":"unknown","error_details":"order with this orderID was
 *     not found",...}` as ccxt records it, and the 403 "Missing required scopes" detail as
 *     Coinbase's SDK checks for it.
 *   - The JWT's header and claims as Coinbase's SDK (coinbase-advanced-py `jwt_generator.py`)
 *     builds them; keys are generated here (Coinbase publishes no test key).
 *   - The products rows' values: nautilus_trader's Coinbase adapter test data (BTC-USD with
 *     `alias_to` BTC-USDC, BTC-USDC with `alias` BTC-USD).
 *   - Everything else (order and account rows, fills, cancel rows, fee rates, the duplicate-id
 *     wording, which no source prints) is built here from the reference's field names, with
 *     made-up values.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { Side } from '../../domain/market.ts';
import { checkCredentials } from '../../storage/credential-shapes.ts';
import { BookFeeds } from '../../actors/edge/live/book-feeds.ts';
import { L2Book } from '../../actors/edge/live/l2-book.ts';
import type { MarketSink } from '../../actors/edge/live/venue.ts';
import { CoinbaseBookSync, SequenceGate, type CoinbaseL2Event } from '../../actors/edge/live/coinbase/book-sync.ts';
import { coinbaseKey, JWT_LIFETIME_S, jwtNonce, REST_HOST, restJwt, restUri, wsJwt } from '../../actors/edge/live/coinbase/jwt.ts';
import {
  accountsPath,
  cancelBody,
  childIdOfCoinbase,
  clientOrderLookupPath,
  coinbaseClientOrderId,
  coinbaseError,
  createOrderBody,
  createOrderOutcome,
  decodeAccounts,
  decodeCancel,
  decodeFills,
  decodeKeyPermissions,
  decodeOrder,
  decodeOrderList,
  decodeProducts,
  decodeTransactionSummary,
  decodeWsMessage,
  fillsCover,
  fillsPath,
  findByClientOrderId,
  heartbeatsSubscription,
  legReportOf,
  level2Subscription,
  mergeBalances,
  openOrdersPath,
  orderPath,
  orderTerms,
  probeOf,
  productsPath,
  rfc3339Ns,
  type CoinbaseInstrument,
} from '../../actors/edge/live/coinbase/codec.ts';

const KEY_NAME = 'organizations/00000000-0000-0000-0000-000000000000/apiKeys/11111111-1111-1111-1111-111111111111';
const NOW = 1_790_000_000;
const NONCE = 'a'.repeat(64);

function p256(): { privateKey: KeyObject; sec1: string; pkcs8: string } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, sec1: privateKey.export({ type: 'sec1', format: 'pem' }) as string, pkcs8: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

describe('coinbase jwt: CDP key tokens (ES256)', () => {
  it('signs a REST token verifiable with the public key derived from the SEC1 PEM, every header field and claim as Coinbase builds them', async () => {
    const { sec1 } = p256();
    assert.match(sec1, /^-----BEGIN EC PRIVATE KEY-----\n/);
    const key = coinbaseKey({ api_key: KEY_NAME, api_secret: sec1 });
    const token = await restJwt(key, 'post', REST_HOST, '/api/v3/brokerage/orders', NOW, NONCE);
    const publicKey = createPublicKey(sec1);
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, { algorithms: ['ES256'], issuer: 'cdp', subject: KEY_NAME, currentDate: new Date((NOW + 1) * 1000) });
    assert.deepEqual(protectedHeader, { alg: 'ES256', kid: KEY_NAME, nonce: NONCE, typ: 'JWT' });
    assert.deepEqual(payload, { uri: 'POST api.coinbase.com/api/v3/brokerage/orders', sub: KEY_NAME, iss: 'cdp', nbf: NOW, exp: NOW + 120 });
    assert.equal(JWT_LIFETIME_S, 120);
    // A JWS ES256 signature is r || s, 64 bytes (not DER).
    assert.equal(Buffer.from(token.split('.')[2]!, 'base64url').length, 64);
  });

  it('accepts PKCS#8 and encrypted PKCS#8 (with the passphrase) as the store does, and refuses what the store refuses', async () => {
    const { privateKey, pkcs8 } = p256();
    const encrypted = privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pem-pass' }) as string;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string;
    const accepted = [
      { api_key: KEY_NAME, api_secret: pkcs8 },
      { api_key: KEY_NAME, api_secret: encrypted, passphrase: 'pem-pass' },
      { api_key: KEY_NAME, api_secret: `\n${pkcs8}\n` },
      // The store lets a plain key carry a (legacy) passphrase; it is not needed to open it.
      { api_key: KEY_NAME, api_secret: pkcs8, passphrase: 'legacy' },
    ];
    for (const creds of accepted) {
      assert.deepEqual(checkCredentials('coinbase', creds), [], 'the store takes it');
      const token = await restJwt(coinbaseKey(creds), 'GET', REST_HOST, '/api/v3/brokerage/accounts', NOW, NONCE);
      await jwtVerify(token, createPublicKey(privateKey), { algorithms: ['ES256'], currentDate: new Date(NOW * 1000) });
    }
    const refused = [{ api_key: KEY_NAME, api_secret: encrypted, passphrase: 'wrong' }, { api_key: KEY_NAME, api_secret: rsa }, { api_key: KEY_NAME, api_secret: k1 }, { api_key: KEY_NAME, api_secret: 'not a pem' }];
    for (const creds of refused) {
      assert.notDeepEqual(checkCredentials('coinbase', creds), [], 'the store refuses it');
      assert.throws(() => coinbaseKey(creds), (err: Error) => !err.message.includes('BEGIN'), 'refused without echoing the key');
    }
  });

  it('names the request as METHOD host path, the query string left out', () => {
    assert.equal(restUri('get', REST_HOST, '/api/v3/brokerage/accounts?limit=250&cursor=abc'), 'GET api.coinbase.com/api/v3/brokerage/accounts');
    assert.equal(restUri('POST', REST_HOST, '/api/v3/brokerage/orders/batch_cancel'), 'POST api.coinbase.com/api/v3/brokerage/orders/batch_cancel');
  });

  it('a REST token for a path with a query signs the path alone', async () => {
    const { sec1 } = p256();
    const token = await restJwt(coinbaseKey({ api_key: KEY_NAME, api_secret: sec1 }), 'GET', REST_HOST, '/api/v3/brokerage/orders/historical/fills?order_ids=x&limit=100', NOW, NONCE);
    const { payload } = await jwtVerify(token, createPublicKey(sec1), { currentDate: new Date(NOW * 1000) });
    assert.equal(payload['uri'], 'GET api.coinbase.com/api/v3/brokerage/orders/historical/fills');
  });

  it('a WebSocket token carries no uri', async () => {
    const { sec1 } = p256();
    const token = await wsJwt(coinbaseKey({ api_key: KEY_NAME, api_secret: sec1 }), NOW, NONCE);
    const { payload, protectedHeader } = await jwtVerify(token, createPublicKey(sec1), { algorithms: ['ES256'], currentDate: new Date(NOW * 1000) });
    assert.deepEqual(payload, { sub: KEY_NAME, iss: 'cdp', nbf: NOW, exp: NOW + 120 });
    assert.equal(protectedHeader.kid, KEY_NAME);
    assert.equal('uri' in payload, false);
  });

  it('a shorter lifetime moves exp alone (the adapter signs orders for 10 s); none past two minutes or under a second', async () => {
    const { sec1 } = p256();
    const key = coinbaseKey({ api_key: KEY_NAME, api_secret: sec1 });
    const token = await restJwt(key, 'POST', REST_HOST, '/api/v3/brokerage/orders', NOW, NONCE, 10);
    const pub = createPublicKey(sec1);
    const { payload } = await jwtVerify(token, pub, { currentDate: new Date((NOW + 9) * 1000) });
    assert.deepEqual([payload.nbf, payload.exp], [NOW, NOW + 10]);
    await assert.rejects(jwtVerify(token, pub, { currentDate: new Date((NOW + 10) * 1000) }), /exp/);
    assert.equal(decodeJwt(await wsJwt(key, NOW, NONCE, 30)).exp, NOW + 30);
    for (const lifetime of [0, 121, 1.5]) assert.throws(() => restJwt(key, 'GET', REST_HOST, '/x', NOW, NONCE, lifetime), RangeError);
  });

  it('the clock and the nonce are the caller’s: same inputs, same header and claims; a token outside nbf..exp or under another key does not verify', async () => {
    const { sec1 } = p256();
    const key = coinbaseKey({ api_key: KEY_NAME, api_secret: sec1 });
    const a = await restJwt(key, 'GET', REST_HOST, '/api/v3/brokerage/key_permissions', NOW, NONCE);
    const b = await restJwt(key, 'GET', REST_HOST, '/api/v3/brokerage/key_permissions', NOW, NONCE);
    assert.equal(a.split('.').slice(0, 2).join('.'), b.split('.').slice(0, 2).join('.'), 'header and claims reproduce');
    const pub = createPublicKey(sec1);
    await assert.rejects(jwtVerify(a, pub, { currentDate: new Date((NOW + 121) * 1000) }), /exp/);
    await assert.rejects(jwtVerify(a, pub, { currentDate: new Date((NOW - 10) * 1000) }), /nbf/);
    await assert.rejects(jwtVerify(a, createPublicKey(p256().sec1), { currentDate: new Date(NOW * 1000) }));
    const fresh = jwtNonce();
    assert.match(fresh, /^[0-9a-f]{64}$/);
    assert.notEqual(jwtNonce(), fresh);
    assert.equal(decodeProtectedHeader(await wsJwt(key, NOW, fresh))['nonce'], fresh);
    assert.throws(() => restJwt(key, 'GET', REST_HOST, '/x', NOW + 0.5, NONCE), RangeError);
    assert.throws(() => restJwt(key, 'GET', REST_HOST, '/x', NOW, 'not-hex!'), RangeError);
  });
});

// ---------------------------------------------------------------------------------------------

/** The docs' `l2_data` snapshot example, verbatim but for the sequence number. */
function docsSnapshot(seq = 0): unknown {
  return {
    channel: 'l2_data',
    client_id: '',
    timestamp: '2023-02-09T20:32:50.714964855Z',
    sequence_num: seq,
    events: [
      {
        type: 'snapshot',
        product_id: 'BTC-USD',
        updates: [
          { side: 'bid', event_time: '1970-01-01T00:00:00Z', price_level: '21921.73', new_quantity: '0.06317902' },
          { side: 'bid', event_time: '1970-01-01T00:00:00Z', price_level: '21921.3', new_quantity: '0.02' },
        ],
      },
    ],
  };
}

/** The update captured in hummingbot's connector (sequence_num 9). */
const CAPTURED_UPDATE = {
  channel: 'l2_data',
  client_id: '',
  timestamp: '2024-10-08T09:10:36.04370306Z',
  sequence_num: 9,
  events: [
    {
      type: 'update',
      product_id: 'BTC-USD',
      updates: [
        { side: 'bid', event_time: '2024-10-08T09:10:34.970831Z', price_level: '62319.46', new_quantity: '0.00169' },
        { side: 'bid', event_time: '2024-10-08T09:10:34.970831Z', price_level: '62318.81', new_quantity: '0' },
        { side: 'offer', event_time: '2024-10-08T09:10:34.970831Z', price_level: '62336.65', new_quantity: '0.03021537' },
      ],
    },
  ],
};

const DOCS_HEARTBEAT = {
  channel: 'heartbeats',
  client_id: '',
  timestamp: '2023-06-23T20:31:26.122969572Z',
  sequence_num: 0,
  events: [{ current_time: '2023-06-23 20:31:56.121961769 +0000 UTC m=+91717.525857105', heartbeat_counter: '3049' }],
};

const usd = (text: string) => Math.round(Number(text) * 1e9);
/** Unix ns of a whole-second UTC time plus `ns`, as the nearest double (the codec's rounding). */
const nsOf = (isoSeconds: string, ns: bigint) => Number(BigInt(Date.parse(isoSeconds)) * 1_000_000n + ns);

/** An `l2_data` frame of one product's event (made up). */
function l2(seq: number, type: 'snapshot' | 'update', product: string, updates: [side: 'bid' | 'offer', px: string, qty: string][]): unknown {
  return { channel: 'l2_data', client_id: '', timestamp: '2026-01-01T00:00:00Z', sequence_num: seq, events: [{ type, product_id: product, updates: updates.map(([side, price_level, new_quantity]) => ({ side, event_time: '2026-01-01T00:00:00Z', price_level, new_quantity })) }] };
}

function heartbeat(seq: number, counter: number): unknown {
  return { channel: 'heartbeats', client_id: '', timestamp: '2026-01-01T00:00:00Z', sequence_num: seq, events: [{ current_time: '', heartbeat_counter: counter }] };
}

describe('coinbase market data: level2 frames', () => {
  it('builds the docs’ subscribe requests: one channel per message, a token only when given', () => {
    assert.equal(level2Subscription('subscribe', ['ETH-USD', 'BTC-USD']), '{"type":"subscribe","product_ids":["ETH-USD","BTC-USD"],"channel":"level2"}');
    assert.equal(level2Subscription('unsubscribe', ['BTC-USD'], 'XYZ'), '{"type":"unsubscribe","product_ids":["BTC-USD"],"channel":"level2","jwt":"XYZ"}');
    assert.equal(heartbeatsSubscription(), '{"type":"subscribe","channel":"heartbeats"}');
    assert.equal(heartbeatsSubscription('subscribe', 'XYZ'), '{"type":"subscribe","channel":"heartbeats","jwt":"XYZ"}');
  });

  it('decodes the docs’ snapshot exactly, with its sequence number and nanosecond timestamp', () => {
    const m = decodeWsMessage(docsSnapshot());
    assert.ok(m?.l2 !== undefined);
    assert.equal(m.channel, 'l2_data');
    assert.equal(m.seq, 0);
    assert.equal(m.ts_ns, nsOf('2023-02-09T20:32:50Z', 714_964_855n));
    assert.deepEqual(m.l2, { events: [{ type: 'snapshot', product_id: 'BTC-USD', bids: [21_921_730_000_000, 6_317_902, 21_921_300_000_000, 2_000_000], asks: [] }], unreadable: [], broken: false });
  });

  it('decodes the captured update: offer is the ask side, "0" removes', () => {
    const m = decodeWsMessage(CAPTURED_UPDATE);
    assert.equal(m?.seq, 9);
    assert.deepEqual(m?.l2?.events, [{ type: 'update', product_id: 'BTC-USD', bids: [usd('62319.46'), 169_000, usd('62318.81'), 0], asks: [usd('62336.65'), 3_021_537] }]);
  });

  it('decodes heartbeats (counter as the docs’ string or a number), subscriptions and error frames', () => {
    assert.deepEqual(decodeWsMessage(DOCS_HEARTBEAT), { channel: 'heartbeats', seq: 0, ts_ns: nsOf('2023-06-23T20:31:26Z', 122_969_572n), heartbeat: { counter: 3049 } });
    assert.equal(decodeWsMessage(heartbeat(5, 42))?.heartbeat?.counter, 42);
    const subs = decodeWsMessage({ channel: 'subscriptions', client_id: '', timestamp: '2023-02-09T20:32:15.790758381Z', sequence_num: 1, events: [{ subscriptions: { level2: ['BTC-USD'], heartbeats: ['heartbeats'] } }] });
    assert.deepEqual(subs?.subscriptions, { level2: ['BTC-USD'], heartbeats: ['heartbeats'] });
    assert.equal(subs?.seq, 1);
    assert.deepEqual(decodeWsMessage({ type: 'error', message: 'failure to subscribe' }), { channel: 'error', seq: null, ts_ns: null, error: 'failure to subscribe' });
    assert.equal(decodeWsMessage('pong'), undefined);
    assert.equal(decodeWsMessage({ hello: 1 }), undefined);
    // Another channel still yields its sequence number, for the gate.
    assert.equal(decodeWsMessage({ channel: 'market_trades', sequence_num: 328, events: [] })?.seq, 328);
  });

  it('a level it cannot read exactly makes that product unreadable, not rounded; a message without a product id or sequence number is broken', () => {
    const tooFine = l2(3, 'update', 'ETH-USD', [['bid', '0.0000000001', '1']]);
    assert.deepEqual(decodeWsMessage(tooFine)?.l2, { events: [], unreadable: ['ETH-USD'], broken: false });
    assert.deepEqual(decodeWsMessage(l2(3, 'update', 'ETH-USD', [['bid', '100', '0.000000001']]))?.l2?.unreadable, ['ETH-USD']);
    assert.deepEqual(decodeWsMessage(l2(3, 'update', 'ETH-USD', [['ask' as 'offer', '100', '1']]))?.l2?.unreadable, ['ETH-USD'], "the docs' sides are bid and offer");
    assert.deepEqual(decodeWsMessage(l2(3, 'update', 'ETH-USD', [['bid', '1e3', '1']]))?.l2?.unreadable, ['ETH-USD']);
    const mixed = { channel: 'l2_data', sequence_num: 4, events: [{ type: 'update', updates: [] }, (l2(0, 'update', 'BTC-USD', [['bid', '1', '1']]) as { events: unknown[] }).events[0]] };
    const m = decodeWsMessage(mixed);
    assert.equal(m?.l2?.broken, true);
    assert.equal(m?.l2?.events.length, 1, 'the readable event is still decoded');
    const noSeq = { ...(docsSnapshot() as object), sequence_num: undefined };
    assert.deepEqual([decodeWsMessage(noSeq)?.seq, decodeWsMessage(noSeq)?.l2?.broken], [null, true]);
  });

  it('reads RFC 3339 times to the nanosecond digit, zones included', () => {
    assert.equal(rfc3339Ns('2024-10-08T09:10:36.04370306Z'), nsOf('2024-10-08T09:10:36Z', 43_703_060n));
    assert.equal(rfc3339Ns('2021-05-31T09:59:59Z'), Date.parse('2021-05-31T09:59:59Z') * 1e6);
    assert.equal(rfc3339Ns('2021-05-31T11:59:59.5+02:00'), nsOf('2021-05-31T09:59:59Z', 500_000_000n));
    assert.equal(rfc3339Ns('2023-06-23 20:31:56.121961769 +0000 UTC m=+91717.525857105'), null);
  });
});

// ---------------------------------------------------------------------------------------------

function event(type: 'snapshot' | 'update', bids: [number, number][], asks: [number, number][] = [], product_id = 'BTC-USD'): CoinbaseL2Event {
  return { type, product_id, bids: bids.flat(), asks: asks.flat() };
}

describe('coinbase market data: SequenceGate (per connection)', () => {
  it('takes the first number as given, then expects each next one; a skip, a repeat or a step back is a gap, and the gate re-bases on it', () => {
    const gate = new SequenceGate();
    assert.deepEqual([5, 6, 7].map((s) => gate.observe(s)), ['first', 'next', 'next']);
    assert.equal(gate.observe(9), 'gap', 'one message lost');
    assert.equal(gate.observe(10), 'next', 'checked against the number after the gap');
    assert.equal(gate.observe(10), 'gap', 'a repeat');
    assert.equal(gate.observe(4), 'gap', 'a step back');
    assert.equal(gate.gaps, 3);
    gate.reset();
    assert.equal(gate.lastSeq, null);
    assert.equal(gate.observe(0), 'first', 'a new connection counts from its own start');
  });
});

describe('coinbase market data: CoinbaseBookSync', () => {
  it('buffers updates until the snapshot, publishes the whole book on it, then records each applied level as [side, price, qty]', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new CoinbaseBookSync(book, changes);
    assert.equal(sync.onEvent(event('update', [[100, 1]])), 'buffered');
    assert.equal(book.depth(Side.BID), 0);
    assert.equal(sync.onEvent(event('snapshot', [[100, 5], [99, 6]], [[101, 7]])), 'synced');
    assert.equal(sync.synced, true);
    assert.deepEqual(changes, [], 'a snapshot publishes the book, not levels');
    assert.equal(sync.onEvent(event('update', [[100, 0], [98, 2], [98, 3]], [[102, 4]])), 'applied');
    assert.deepEqual(changes, [Side.BID, 100, 0, Side.BID, 98, 2, Side.BID, 98, 3, Side.ASK, 102, 4], 'in order, a level set twice recorded twice');
    assert.deepEqual(book.flat(Side.BID, 10), [99, 6, 98, 3]);
    assert.deepEqual(book.flat(Side.ASK, 10), [101, 7, 102, 4]);
  });

  it('a snapshot on a whole book (a resubscription) replaces it; a connection gap clears it and answers gap, whole or not', () => {
    const book = new L2Book();
    const changes: number[] = [];
    const sync = new CoinbaseBookSync(book, changes);
    assert.equal(sync.onConnectionGap(), 'gap', 'a snapshot still awaited may be the message lost');
    sync.onEvent(event('snapshot', [[100, 5]], [[101, 1]]));
    changes.push(1, 2, 3);
    assert.equal(sync.onEvent(event('snapshot', [[90, 1]])), 'synced');
    assert.deepEqual([book.flat(Side.BID, 10), book.flat(Side.ASK, 10), changes], [[90, 1], [], []]);
    assert.equal(sync.onConnectionGap(), 'gap');
    assert.deepEqual([sync.synced, book.depth(Side.BID)], [false, 0]);
    assert.equal(sync.onEvent(event('update', [[90, 2]])), 'buffered', 'nothing to build on until the new snapshot');
    assert.equal(sync.onUnreadable(), 'gap');
  });

  it('a connection that loses one message breaks every book on it, whichever channel the loss shows on; resubscribing makes them whole again', () => {
    const gate = new SequenceGate();
    const books = new Map(['BTC-USD', 'ETH-USD'].map((p) => [p, new CoinbaseBookSync(new L2Book(), [])]));
    const outcomes: string[] = [];
    const feed = (frame: unknown) => {
      const m = decodeWsMessage(frame)!;
      if (m.seq !== null && gate.observe(m.seq) === 'gap') for (const [p, s] of books) outcomes.push(`${p}:${s.onConnectionGap()}`);
      for (const e of m.l2?.events ?? []) outcomes.push(`${e.product_id}:${books.get(e.product_id)!.onEvent(e)}`);
    };
    feed(heartbeat(0, 1));
    feed(l2(1, 'snapshot', 'BTC-USD', [['bid', '100', '1']]));
    feed(l2(2, 'snapshot', 'ETH-USD', [['offer', '10', '1']]));
    feed(l2(3, 'update', 'BTC-USD', [['bid', '100', '2']]));
    // Message 4 (an ETH-USD update, say) never arrives; the loss shows on the next heartbeat.
    feed(heartbeat(5, 2));
    assert.deepEqual(outcomes, ['BTC-USD:synced', 'ETH-USD:synced', 'BTC-USD:applied', 'BTC-USD:gap', 'ETH-USD:gap']);
    assert.equal([...books.values()].some((s) => s.synced), false);
    feed(l2(6, 'snapshot', 'BTC-USD', [['bid', '101', '1']]));
    feed(l2(7, 'snapshot', 'ETH-USD', [['offer', '11', '1']]));
    assert.equal([...books.values()].every((s) => s.synced), true);
  });

  it('drives the shared BookFeeds like the other venues’ syncs: whole, changes, broken with a resync', async () => {
    const events: string[] = [];
    const sink: MarketSink = {
      onBookWhole: (symbol, book) => events.push(`whole ${symbol} ${book.best(Side.BID)}`),
      onBookChanges: (symbol, changes) => events.push(`changes ${symbol} ${changes.join(',')}`),
      onBookBroken: (symbol, reason) => events.push(`broken ${symbol} ${reason}`),
    };
    const resyncs: string[] = [];
    const feeds = new BookFeeds<CoinbaseBookSync>({
      sink: () => sink,
      makeSync: (book, changes) => new CoinbaseBookSync(book, changes),
      resync: async (f) => {
        resyncs.push(f.venueSymbol);
        return false;
      },
    });
    feeds.connected = true;
    const f = feeds.add({ symbol: 'BTC-USD', base: 'BTC', quote: 'USD' }, 'BTC-USD');
    feeds.settle(f, f.sync.onEvent(event('snapshot', [[100, 1]])), 1);
    feeds.settle(f, f.sync.onEvent(event('update', [[100, 2]])), 2);
    feeds.settle(f, f.sync.onConnectionGap(), 3);
    await new Promise((resolve) => setImmediate(resolve));
    feeds.stop();
    assert.deepEqual(events, ['whole BTC-USD 100', `changes BTC-USD ${Side.BID},100,2`, 'broken BTC-USD book stream gap: resyncing']);
    assert.deepEqual(resyncs, ['BTC-USD']);
    assert.equal(feeds.whole('BTC-USD'), undefined);
  });

  it('any snapshot and updates give the reference book, and replaying the published changes onto the snapshot gives it too (property)', () => {
    // Bids at 1..40, asks at 101..140: the book never crosses.
    const level = (offset: number) => fc.tuple(fc.integer({ min: 1 + offset, max: 40 + offset }), fc.integer({ min: 0, max: 5 }));
    const side = (offset: number, max: number) => fc.array(level(offset), { maxLength: max });
    fc.assert(
      fc.property(side(0, 20), side(100, 20), fc.array(fc.tuple(side(0, 6), side(100, 6)), { maxLength: 15 }), (snapBids, snapAsks, updates) => {
        const book = new L2Book();
        const changes: number[] = [];
        const sync = new CoinbaseBookSync(book, changes);
        const ref = [new Map<number, number>(), new Map<number, number>()];
        const replay = new L2Book();
        const set = (s: Side, px: number, qty: number) => {
          if (qty > 0) ref[s]!.set(px, qty);
          else ref[s]!.delete(px);
        };
        assert.equal(sync.onEvent(event('snapshot', snapBids, snapAsks)), 'synced');
        for (const [px, qty] of snapBids) (set(Side.BID, px, qty), replay.set(Side.BID, px, qty));
        for (const [px, qty] of snapAsks) (set(Side.ASK, px, qty), replay.set(Side.ASK, px, qty));
        assert.equal(changes.length, 0);
        for (const [bids, asks] of updates) {
          assert.equal(sync.onEvent(event('update', bids, asks)), 'applied');
          for (const [px, qty] of bids) set(Side.BID, px, qty);
          for (const [px, qty] of asks) set(Side.ASK, px, qty);
        }
        for (let i = 0; i < changes.length; i += 3) replay.set(changes[i] as Side, changes[i + 1]!, changes[i + 2]!);
        for (const s of [Side.BID, Side.ASK]) {
          const expected = [...ref[s]!].sort((a, b) => (s === Side.BID ? b[0] - a[0] : a[0] - b[0])).flat();
          assert.deepEqual(book.flat(s, 1000), expected);
          assert.deepEqual(replay.flat(s, 1000), expected);
        }
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------

/** A products row with the reference's fields; values as nautilus_trader's Coinbase test data lists BTC-USD and its USDC alias. */
function product(over: Record<string, unknown>): Record<string, unknown> {
  return {
    product_id: 'BTC-USD',
    price: '68925.98',
    base_increment: '0.00000001',
    quote_increment: '0.01',
    quote_min_size: '1',
    quote_max_size: '150000000',
    base_min_size: '0.00000001',
    base_max_size: '3400',
    base_name: 'Bitcoin',
    quote_name: 'US Dollar',
    watched: false,
    is_disabled: false,
    new: false,
    status: 'online',
    cancel_only: false,
    limit_only: false,
    post_only: false,
    trading_disabled: false,
    auction_mode: false,
    product_type: 'SPOT',
    quote_currency_id: 'USD',
    base_currency_id: 'BTC',
    alias: '',
    alias_to: ['BTC-USDC'],
    base_display_symbol: 'BTC',
    quote_display_symbol: 'USD',
    view_only: false,
    price_increment: '0.01',
    product_venue: 'CBE',
    ...over,
  };
}

const BTC_USD: CoinbaseInstrument = {
  symbol: 'BTC-USD',
  base: 'BTC',
  quote: 'USD',
  bookProductId: 'BTC-USD',
  status: 'online',
  trading: true,
  limit_only: false,
  tick_1e9: 10_000_000,
  lot_1e8: 1,
  min_qty_1e8: 1,
  max_qty_1e8: 340_000_000_000,
  min_notional_1e9: 1_000_000_000,
};

describe('coinbase REST: instruments', () => {
  it('reads spot products into tick, lot, minimum size and value; a -USDC product streams its -USD alias book', () => {
    const body = { products: [product({}), product({ product_id: 'BTC-USDC', quote_currency_id: 'USDC', quote_name: 'USDC', alias: 'BTC-USD', alias_to: [] })], num_products: 2, pagination: null };
    const out = decodeProducts(body)!;
    assert.deepEqual(out.instruments[0], BTC_USD);
    assert.deepEqual([out.instruments[1]!.symbol, out.instruments[1]!.quote, out.instruments[1]!.bookProductId], ['BTC-USDC', 'USDC', 'BTC-USD']);
    assert.equal(out.next_cursor, null);
    assert.equal(productsPath(), '/api/v3/brokerage/market/products?product_type=SPOT');
    assert.equal(productsPath('QlRDLVVTRA=='), '/api/v3/brokerage/market/products?product_type=SPOT&cursor=QlRDLVVTRA%3D%3D');
  });

  it('takes the price increment over the quote increment, and falls back to it', () => {
    const [fine, fallback] = decodeProducts({ products: [product({ product_id: 'SHIB-USD', price_increment: '0.00000001', quote_increment: '0.01' }), product({ price_increment: undefined })] })!.instruments;
    assert.equal(fine!.tick_1e9, 10);
    assert.equal(fallback!.tick_1e9, 10_000_000);
  });

  it('trading only while online and neither disabled, cancel-only, post-only, in auction nor view-only; limit-only is fine', () => {
    const flags = ['is_disabled', 'trading_disabled', 'cancel_only', 'post_only', 'auction_mode', 'view_only'];
    const rows = [product({ limit_only: true }), product({ status: 'offline' }), product({ status: 'delisted' }), ...flags.map((f) => product({ [f]: true }))];
    assert.deepEqual(decodeProducts({ products: rows })!.instruments.map((i) => i.trading), [true, false, false, ...flags.map(() => false)]);
  });

  it('leaves out futures, rows it cannot read, and increments finer than our scales; pages on pagination.next_cursor', () => {
    const out = decodeProducts({
      products: [product({ product_type: 'FUTURE', product_id: 'BIT-28JUN24-CDE' }), product({ base_increment: '0.000000001' }), product({ price_increment: '0.0000000001' }), product({ base_currency_id: '', base_display_symbol: '' }), 'junk', product({ product_id: 'ETH-USD', base_currency_id: 'ETH' })],
      pagination: { next_cursor: 'RVRILVVTRA==', has_next: true },
    })!;
    assert.deepEqual(out.instruments.map((i) => i.symbol), ['ETH-USD']);
    assert.equal(out.next_cursor, 'RVRILVVTRA==');
    assert.equal(decodeProducts({ error: 'INTERNAL' }), undefined);
  });

  it('rounds minimums up and the maximum down past our scales; an absent or huge maximum checks nothing', () => {
    const [row] = decodeProducts({ products: [product({ base_min_size: '0.000000011', quote_min_size: '0.0000000001', base_max_size: '999999999999' })] })!.instruments;
    assert.deepEqual([row!.min_qty_1e8, row!.min_notional_1e9, row!.max_qty_1e8], [2, 1, 0]);
  });
});

describe('coinbase REST: client order ids and order bodies', () => {
  it('sends our child id as the client order id, and knows only ours back', () => {
    assert.equal(coinbaseClientOrderId('ord_0mwz4ka3500001oq-1'), 'ord_0mwz4ka3500001oq-1');
    assert.equal(coinbaseClientOrderId('not-a-child'), undefined);
    assert.equal(coinbaseClientOrderId(`ord_${'a'.repeat(130)}-1`), undefined, 'past 128 characters');
    assert.equal(childIdOfCoinbase('ord_0mwz4ka3500001oq-12'), 'ord_0mwz4ka3500001oq-12');
    assert.equal(childIdOfCoinbase('ccxt-853bb1f7-8f1a-4749-bb20-54d1c6b2e7de'), undefined);
    assert.equal(childIdOfCoinbase('clientOrderId'), undefined);
  });

  it('rounds the size down to the lot and the limit to the tick on the passive side, refusing below the minimum size or value', () => {
    const inst = { ...BTC_USD, lot_1e8: 1000, min_qty_1e8: 10_000 };
    assert.deepEqual(orderTerms(inst, 'buy', 123_456, usd('65000.019')), { ok: true, terms: { base_size_1e8: 123_000, limit_1e9: usd('65000.01') } });
    assert.deepEqual(orderTerms(inst, 'sell', 123_456, usd('65000.011')), { ok: true, terms: { base_size_1e8: 123_000, limit_1e9: usd('65000.02') } });
    assert.deepEqual(orderTerms(inst, 'sell', 123_456, null), { ok: true, terms: { base_size_1e8: 123_000, limit_1e9: null } });
    assert.match((orderTerms(inst, 'buy', 999, usd('65000')) as { reason: string }).reason, /size increment/);
    assert.match((orderTerms(inst, 'buy', 9_999, usd('65000')) as { reason: string }).reason, /base_min_size 0.0001/);
    // 0.0001 BTC at 5000 is 0.50 USD, under quote_min_size 1.
    assert.match((orderTerms(inst, 'buy', 10_000, usd('5000')) as { reason: string }).reason, /quote_min_size 1 USD/);
    assert.equal(orderTerms(inst, 'buy', 20_000, usd('5000')).ok, true, 'exactly 1 USD');
    assert.match((orderTerms({ ...inst, max_qty_1e8: 100_000 }, 'buy', 200_000, usd('65000')) as { reason: string }).reason, /base_max_size/);
  });

  it('builds the order bodies: limit_limit_gtc without post-only, sor_limit_ioc, market_market_ioc sized in base', () => {
    const terms = { base_size_1e8: 123_000, limit_1e9: usd('65000.01') };
    assert.equal(
      createOrderBody('BTC-USD', 'ord_0mwz4ka3500001oq-1', 'buy', terms, 'gtc'),
      '{"client_order_id":"ord_0mwz4ka3500001oq-1","product_id":"BTC-USD","side":"BUY","order_configuration":{"limit_limit_gtc":{"base_size":"0.00123","limit_price":"65000.01","post_only":false}}}',
    );
    assert.equal(
      createOrderBody('BTC-USD', 'ord_0mwz4ka3500001oq-2', 'sell', terms, 'ioc'),
      '{"client_order_id":"ord_0mwz4ka3500001oq-2","product_id":"BTC-USD","side":"SELL","order_configuration":{"sor_limit_ioc":{"base_size":"0.00123","limit_price":"65000.01"}}}',
    );
    assert.equal(
      createOrderBody('BTC-USD', 'ord_0mwz4ka3500001oq-3', 'buy', { base_size_1e8: 100_000_000, limit_1e9: null }, 'ioc'),
      '{"client_order_id":"ord_0mwz4ka3500001oq-3","product_id":"BTC-USD","side":"BUY","order_configuration":{"market_market_ioc":{"base_size":"1"}}}',
    );
    assert.equal(createOrderBody('BTC-USD', 'mine', 'buy', terms, 'gtc'), undefined);
  });
});

describe('coinbase REST: placement answers and error bodies', () => {
  it('reads an accepted order from success_response (current shape) and from the captured pre-2024 shape', () => {
    const current = { success: true, success_response: { order_id: '11111-00000-000000', product_id: 'BTC-USD', side: 'BUY', client_order_id: 'ord_0mwz4ka3500001oq-1' }, order_configuration: { limit_limit_gtc: { base_size: '0.001', limit_price: '10000.00', post_only: false } } };
    assert.deepEqual(createOrderOutcome(200, current), { kind: 'placed', order_id: '11111-00000-000000', client_order_id: 'ord_0mwz4ka3500001oq-1' });
    const captured = {
      success: true,
      failure_reason: 'UNKNOWN_FAILURE_REASON',
      order_id: 'vvvv-4ef9-9587-fc71dee4f912',
      success_response: { order_id: 'vvvd2a-4ef9-9587-fc71dee4f912', product_id: 'LTC-USD', side: 'BUY', client_order_id: 'clientOrderId' },
      order_configuration: { sor_limit_ioc: { base_size: '1', limit_price: '82.9' } },
    };
    assert.deepEqual(createOrderOutcome(200, captured), { kind: 'placed', order_id: 'vvvd2a-4ef9-9587-fc71dee4f912', client_order_id: 'clientOrderId' });
    assert.deepEqual(createOrderOutcome(200, { success: true, order_id: 'top-level-only' }), { kind: 'placed', order_id: 'top-level-only', client_order_id: null });
  });

  it('a 200 with success false is a refusal with the venue’s code and reasons', () => {
    const refused = { success: false, error_response: { error: 'INSUFFICIENT_FUND', message: 'Insufficient balance in source account', error_details: '', preview_failure_reason: 'PREVIEW_INSUFFICIENT_FUND', new_order_failure_reason: 'UNKNOWN_FAILURE_REASON' }, order_configuration: {} };
    assert.deepEqual(createOrderOutcome(200, refused), { kind: 'refused', code: 'INSUFFICIENT_FUND', reason: 'coinbase INSUFFICIENT_FUND: Insufficient balance in source account (PREVIEW_INSUFFICIENT_FUND)' });
    assert.deepEqual(createOrderOutcome(200, { success: false, failure_reason: 'INVALID_LIMIT_PRICE_POST_ONLY' }), { kind: 'refused', code: 'INVALID_LIMIT_PRICE_POST_ONLY', reason: 'coinbase INVALID_LIMIT_PRICE_POST_ONLY' });
  });

  it('a client order id already used is not a refusal: the order exists and is looked up', () => {
    const dup = { success: false, error_response: { error: 'INVALID_ARGUMENT', message: 'client_order_id already exists', error_details: '' } };
    assert.equal(createOrderOutcome(200, dup).kind, 'exists');
    assert.equal(createOrderOutcome(409, { error: 'ALREADY_EXISTS', message: 'duplicate client order id' }).kind, 'exists');
  });

  it('4xx refuses, 408/5xx and unreadable answers leave the fate unknown', () => {
    assert.deepEqual(createOrderOutcome(400, { error: 'INVALID_ARGUMENT', message: 'invalid product_id', error_details: 'invalid product_id' }), { kind: 'refused', code: 'INVALID_ARGUMENT', reason: 'coinbase 400 INVALID_ARGUMENT: invalid product_id' });
    assert.deepEqual(createOrderOutcome(401, undefined), { kind: 'refused', code: '401', reason: 'coinbase 401' });
    assert.deepEqual(createOrderOutcome(401, 'Unauthorized\n'), { kind: 'refused', code: '401', reason: 'coinbase 401: Unauthorized' }, 'a bare text body is the message');
    assert.equal(createOrderOutcome(429, { error: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests' }).kind, 'refused');
    for (const status of [408, 500, 502, 503, 504]) assert.equal(createOrderOutcome(status, { error: 'INTERNAL', message: 'internal error' }).kind, 'unknown', String(status));
    assert.equal(createOrderOutcome(200, undefined).kind, 'unknown');
    assert.equal(createOrderOutcome(200, { success: true, success_response: {} }).kind, 'unknown');
  });

  it('classifies error bodies: no such order, auth, rate limit, fate unknown, refused', () => {
    const kind = (status: number, body: unknown) => coinbaseError(status, body)?.kind;
    assert.equal(coinbaseError(200, { orders: [] }), undefined);
    assert.equal(kind(404, { error: 'NOT_FOUND', message: 'order not found', error_details: 'order not found' }), 'no-such-order');
    assert.equal(kind(400, { error: 'unknown', error_details: 'order with this orderID was not found', message: 'order with this orderID was not found' }), 'no-such-order', 'as ccxt records it');
    assert.equal(kind(404, undefined), 'refused', 'a 404 with no body is a wrong path, not an absent order');
    assert.equal(kind(401, undefined), 'auth');
    assert.equal(kind(403, { error: 'PERMISSION_DENIED', error_details: 'Missing required scopes', message: 'Missing required scopes' }), 'auth');
    assert.equal(kind(429, undefined), 'rate-limit');
    assert.equal(kind(503, { error: 'unavailable', code: 14, message: 'upstream unavailable', details: [] }), 'fate-unknown', "the gateway's shape");
    assert.equal(kind(400, { error: 'INVALID_ARGUMENT', message: 'bad cursor' }), 'refused');
    assert.equal(coinbaseError(403, { error: 'PERMISSION_DENIED', error_details: 'Missing required scopes', message: '' })?.reason, 'coinbase 403 PERMISSION_DENIED: Missing required scopes');
  });
});

// ---------------------------------------------------------------------------------------------

/** An order row with the reference's fields (made-up values). */
function order(over: Record<string, unknown>): Record<string, unknown> {
  return {
    order_id: '0000-000000-000001',
    product_id: 'BTC-USD',
    user_id: '2222-000000-000000',
    order_configuration: { limit_limit_gtc: { base_size: '0.01', limit_price: '60000.00', post_only: false } },
    side: 'BUY',
    client_order_id: 'ord_0mwz4ka3500001oq-1',
    status: 'OPEN',
    time_in_force: 'GOOD_UNTIL_CANCELLED',
    created_time: '2026-01-01T00:00:00Z',
    completion_percentage: '30',
    filled_size: '0.003',
    average_filled_price: '60000',
    number_of_fills: '2',
    filled_value: '180',
    pending_cancel: false,
    size_in_quote: false,
    total_fees: '1.08',
    size_inclusive_of_fees: false,
    total_value_after_fees: '181.08',
    trigger_status: 'INVALID_ORDER_TYPE',
    order_type: 'LIMIT',
    reject_reason: '',
    settled: false,
    product_type: 'SPOT',
    outstanding_hold_amount: '420.0',
    ...over,
  };
}

describe('coinbase REST: orders', () => {
  it('reads an open GTC order: what rests is base_size - filled_size', () => {
    const o = decodeOrder({ order: order({}) })!;
    assert.deepEqual(o, {
      order_id: '0000-000000-000001',
      client_order_id: 'ord_0mwz4ka3500001oq-1',
      child_id: 'ord_0mwz4ka3500001oq-1',
      product_id: 'BTC-USD',
      side: 'buy',
      status: 'OPEN',
      config: 'limit_limit_gtc',
      qty_1e8: 1_000_000,
      filled_qty_1e8: 300_000,
      working: true,
      resting_qty_1e8: 700_000,
      number_of_fills: 2,
    });
    assert.equal(orderPath('0000-000000-000001'), '/api/v3/brokerage/orders/historical/0000-000000-000001');
  });

  it('nothing rests once filled, cancelled, expired or failed; an IOC still working may fill; a cancel queued still rests', () => {
    const rest = (over: Record<string, unknown>) => {
      const o = decodeOrder({ order: order(over) })!;
      return [o.status, o.working, o.resting_qty_1e8];
    };
    assert.deepEqual(rest({ status: 'FILLED', filled_size: '0.01' }), ['FILLED', false, 0]);
    assert.deepEqual(rest({ status: 'CANCELLED' }), ['CANCELLED', false, 0]);
    assert.deepEqual(rest({ status: 'EXPIRED' }), ['EXPIRED', false, 0]);
    assert.deepEqual(rest({ status: 'FAILED', filled_size: '' }), ['FAILED', false, 0]);
    assert.deepEqual(rest({ status: 'CANCEL_QUEUED' }), ['CANCEL_QUEUED', true, 700_000]);
    assert.deepEqual(rest({ status: 'PENDING', order_configuration: { sor_limit_ioc: { base_size: '0.01', limit_price: '60000' } }, filled_size: '0' }), ['PENDING', true, 1_000_000]);
    assert.deepEqual(rest({ status: 'OPEN', order_configuration: { market_market_ioc: { quote_size: '10' } } }), ['OPEN', true, 0], 'a market order never rests');
  });

  it('an order it cannot read is undefined (unknown status, a working limit without base_size, an error body)', () => {
    assert.equal(decodeOrder({ order: order({ status: 'UNKNOWN_ORDER_STATUS' }) }), undefined);
    assert.equal(decodeOrder({ order: order({ order_configuration: { limit_limit_gtc: { quote_size: '10', limit_price: '1' } } }) }), undefined);
    assert.equal(decodeOrder({ order: order({ filled_size: '0.000000001' }) }), undefined);
    assert.equal(decodeOrder({ error: 'unknown', message: 'order with this orderID was not found' }), undefined);
  });

  it('lists orders page by page; a foreign row it cannot read is skipped, one of ours is not', () => {
    const page = decodeOrderList({ orders: [order({}), order({ order_id: 'x', client_order_id: 'by-hand', status: 'UNKNOWN_ORDER_STATUS' }), order({ order_id: '2', client_order_id: 'by-hand' })], sequence: '0', has_next: true, cursor: '789100' })!;
    assert.deepEqual(page.orders.map((o) => [o.order_id, o.child_id]), [['0000-000000-000001', 'ord_0mwz4ka3500001oq-1'], ['2', null]]);
    assert.equal(page.next_cursor, '789100');
    assert.equal(decodeOrderList({ orders: [order({ status: 'UNKNOWN_ORDER_STATUS' })], has_next: false, cursor: '' }), undefined);
    assert.equal(decodeOrderList({ orders: [], has_next: false, cursor: '' })!.next_cursor, null);
    assert.equal(findByClientOrderId(page.orders, 'ord_0mwz4ka3500001oq-1')?.order_id, '0000-000000-000001');
    assert.equal(findByClientOrderId(page.orders, 'ord_0mwz4ka3500001oq-9'), undefined);
  });

  it('lists by filters with repeated keys: open orders, and a child by its product and send time (List Orders takes no client order id)', () => {
    assert.equal(openOrdersPath(), '/api/v3/brokerage/orders/historical/batch?order_status=OPEN&product_type=SPOT&limit=100');
    assert.equal(openOrdersPath('a b'), '/api/v3/brokerage/orders/historical/batch?order_status=OPEN&product_type=SPOT&limit=100&cursor=a%20b');
    assert.equal(clientOrderLookupPath('BTC-USD', Date.parse('2026-01-01T00:00:00Z')), '/api/v3/brokerage/orders/historical/batch?product_ids=BTC-USD&start_date=2026-01-01T00%3A00%3A00.000Z&limit=100');
  });
});

/** A fill row with the reference's fields (made-up values). */
function fill(over: Record<string, unknown>): Record<string, unknown> {
  return {
    entry_id: '22222-2222222-22222222',
    trade_id: '1111-11111-111111',
    order_id: '0000-000000-000001',
    trade_time: '2026-01-01T00:00:01.250Z',
    trade_type: 'FILL',
    price: '60000.00',
    size: '0.001',
    commission: '0.36',
    product_id: 'BTC-USD',
    sequence_timestamp: '2026-01-01T00:00:01.251Z',
    liquidity_indicator: 'TAKER',
    size_in_quote: false,
    user_id: '3333-333333-3333333',
    side: 'BUY',
    ...over,
  };
}

describe('coinbase REST: fills', () => {
  it('reads fills oldest first, the commission in USD 1e9, maker by liquidity indicator', () => {
    const body = { fills: [fill({ trade_id: 't2', trade_time: '2026-01-01T00:00:02Z', size: '0.002', commission: '0.48', liquidity_indicator: 'MAKER' }), fill({ trade_id: 't1' })], cursor: '' };
    const out = decodeFills(body)!;
    assert.deepEqual(out.fills, [
      { price_1e9: usd('60000'), qty_1e8: 100_000, trade_id: 't1', ts_ns: nsOf('2026-01-01T00:00:01Z', 250_000_000n), fee_1e9: 360_000_000, is_maker: false },
      { price_1e9: usd('60000'), qty_1e8: 200_000, trade_id: 't2', ts_ns: Date.parse('2026-01-01T00:00:02Z') * 1e6, fee_1e9: 480_000_000, is_maker: true },
    ]);
    assert.equal(out.next_cursor, null);
  });

  it('rounds a commission past 1e-9 up (against us) and a price past 1e-9 to the nearest; a size must be exact', () => {
    const [f] = decodeFills({ fills: [fill({ commission: '0.0000000001', price: '0.1234567895' })], cursor: '' })!.fills;
    assert.deepEqual([f!.fee_1e9, f!.price_1e9], [1, 123_456_790]);
    assert.equal(decodeFills({ fills: [fill({ size: '0.000000001' })], cursor: '' }), undefined);
    assert.equal(decodeFills({ fills: [fill({ commission: '' })], cursor: '' })!.fills[0]!.fee_1e9, 0);
  });

  it('keeps one order’s fills when asked, and books nothing from a correction, a reversal or a size in quote', () => {
    const body = { fills: [fill({ order_id: 'other' }), fill({})], cursor: '' };
    assert.deepEqual(decodeFills(body, { orderId: '0000-000000-000001' })!.fills.map((f) => f.trade_id), ['1111-11111-111111']);
    assert.equal(decodeFills({ fills: [fill({}), fill({ trade_type: 'REVERSAL' })], cursor: '' }), undefined);
    assert.equal(decodeFills({ fills: [fill({ trade_type: 'CORRECTION' })], cursor: '' }), undefined);
    assert.equal(decodeFills({ fills: [fill({ size_in_quote: true })], cursor: '' }), undefined);
    assert.equal(decodeFills({ error: 'INTERNAL' }), undefined);
  });

  it('pages on the cursor until it is empty or a page comes short', () => {
    assert.equal(decodeFills({ fills: [fill({})], cursor: '42' })!.next_cursor, '42');
    assert.equal(decodeFills({ fills: [fill({})], cursor: '42' }, { limit: 100 })!.next_cursor, null, 'a short page is the last');
    assert.equal(fillsPath(['a', 'b/c']), '/api/v3/brokerage/orders/historical/fills?order_ids=a&order_ids=b%2Fc&limit=100');
    assert.equal(fillsPath(['a'], '42', 50), '/api/v3/brokerage/orders/historical/fills?order_ids=a&limit=50&cursor=42');
    assert.throws(() => fillsPath([]), RangeError);
  });

  it('reports a leg from its order and fills, and knows when the fills do not yet cover the order', () => {
    const o = decodeOrder({ order: order({}) })!;
    const fills = decodeFills({ fills: [fill({ size: '0.001' }), fill({ trade_id: 't2', size: '0.002' })], cursor: '' })!.fills;
    assert.deepEqual(legReportOf(o, fills), { ok: true, reason: null, fills, resting_qty_1e8: 700_000 });
    assert.equal(fillsCover(o, fills), true);
    assert.equal(fillsCover(o, fills.slice(1)), false);
  });
});

describe('coinbase REST: cancels, balances, fee tier, permissions', () => {
  it('builds the batch cancel and reads each row: requested, no such order, nothing left, refused', () => {
    assert.equal(cancelBody(['a', 'b']), '{"order_ids":["a","b"]}');
    assert.throws(() => cancelBody([]), RangeError);
    assert.throws(() => cancelBody(Array.from({ length: 101 }, (_, i) => String(i))), RangeError);
    const rows = decodeCancel({
      results: [
        { success: true, failure_reason: 'UNKNOWN_CANCEL_FAILURE_REASON', order_id: 'a' },
        { success: false, failure_reason: 'UNKNOWN_CANCEL_ORDER', order_id: 'b' },
        { success: false, failure_reason: 'ORDER_IS_FULLY_FILLED', order_id: 'c' },
        { success: false, failure_reason: 'DUPLICATE_CANCEL_REQUEST', order_id: 'd' },
        { success: false, failure_reason: 'COMMANDER_REJECTED_CANCEL_ORDER', order_id: 'e' },
      ],
    });
    assert.deepEqual(rows, [
      { order_id: 'a', outcome: 'requested', failure_reason: null },
      { order_id: 'b', outcome: 'no-such-order', failure_reason: 'UNKNOWN_CANCEL_ORDER' },
      { order_id: 'c', outcome: 'done', failure_reason: 'ORDER_IS_FULLY_FILLED' },
      { order_id: 'd', outcome: 'requested', failure_reason: 'DUPLICATE_CANCEL_REQUEST' },
      { order_id: 'e', outcome: 'refused', failure_reason: 'COMMANDER_REJECTED_CANCEL_ORDER' },
    ]);
    assert.equal(decodeCancel({ results: [{ order_id: 'a' }] }), undefined);
  });

  it('reads accounts exactly past 2^53, rounded down past 8 places, zero rows kept, vaults left out, summed by asset over pages', () => {
    const account = (currency: string, available: string, hold: string, type = 'ACCOUNT_TYPE_CRYPTO') => ({ uuid: `u-${currency}`, name: `${currency} Wallet`, currency, available_balance: { value: available, currency }, default: true, active: true, type, ready: true, hold: { value: hold, currency }, retail_portfolio_id: 'p' });
    const page1 = decodeAccounts({ accounts: [account('USDC', '123456789012.123456789', '1'), account('BTC', '0', '0'), account('ETH', '5', '0', 'ACCOUNT_TYPE_VAULT')], has_next: true, cursor: 'c2', size: 3 })!;
    assert.deepEqual(page1.balances, [
      { asset: 'USDC', free_1e8: 12_345_678_901_212_345_678n, locked_1e8: 100_000_000n },
      { asset: 'BTC', free_1e8: 0n, locked_1e8: 0n },
    ]);
    assert.equal(page1.next_cursor, 'c2');
    const page2 = decodeAccounts({ accounts: [account('USDC', '1', '0', 'ACCOUNT_TYPE_FIAT')], has_next: false, cursor: '', size: 1 })!;
    assert.equal(page2.next_cursor, null);
    assert.deepEqual(mergeBalances([...page1.balances, ...page2.balances])[0], { asset: 'USDC', free_1e8: 12_345_678_901_312_345_678n, locked_1e8: 100_000_000n });
    assert.equal(decodeAccounts({ accounts: [{ currency: 'BTC' }], has_next: false }), undefined);
    assert.equal(accountsPath(), '/api/v3/brokerage/accounts?limit=250');
    assert.equal(accountsPath('c2'), '/api/v3/brokerage/accounts?limit=250&cursor=c2');
  });

  it('reads the fee tier in basis points and the key’s permissions into the probe', () => {
    const summary = decodeTransactionSummary({ total_volume: 0, total_fees: 0, fee_tier: { pricing_tier: 'Intro 1', usd_from: '0', usd_to: '1000', taker_fee_rate: '0.012', maker_fee_rate: '0.006', aop_from: '', aop_to: '' }, has_promo_fee: false })!;
    assert.deepEqual(summary, { tier: 'Intro 1', maker_bps: 60, taker_bps: 120 });
    assert.deepEqual(decodeTransactionSummary({ fee_tier: { pricing_tier: '', maker_fee_rate: '0.00015', taker_fee_rate: '0.0005' } }), { tier: '', maker_bps: 1.5, taker_bps: 5 });
    assert.equal(decodeTransactionSummary({ fee_tier: { maker_fee_rate: 'n/a', taker_fee_rate: '0.001' } }), undefined);
    const perms = decodeKeyPermissions({ can_view: true, can_trade: true, can_transfer: false, portfolio_uuid: 'p-1', portfolio_type: 'DEFAULT' })!;
    assert.deepEqual(perms, { can_view: true, can_trade: true, can_transfer: false, portfolio_uuid: 'p-1' });
    assert.deepEqual(probeOf(summary, perms), { tier: 'Intro 1', maker_bps: 60, taker_bps: 120, can_trade: true, can_withdraw: false });
    assert.equal(probeOf({ tier: '', maker_bps: 1.5, taker_bps: 5 }, { can_trade: false, can_transfer: null }).tier, '1.5/5 bps');
    assert.equal(decodeKeyPermissions({ error: 'PERMISSION_DENIED' }), undefined);
  });
});
