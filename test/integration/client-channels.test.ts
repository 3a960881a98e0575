/**
 * The typed client's channel frames and prediction lifecycle sockets against the real service
 * (a market resolution every 3 s on each simulated prediction venue). `ServiceStream.on` gives
 * each channel's frames typed by the service's OpenAPI document: the code below reads their
 * fields without a cast, so `tsc` holds the types to the document, and every frame received is
 * validated against the document's `x-websocket` schemas with ajv, so the document is held to
 * what the service sends. `PredictionLifecycle` receives resolutions and listings, and across a
 * service restart (same port and data) reconnects with a fresh ticket and delivers no event
 * twice although the service replays the ones it already sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import WebSocket from 'ws';
import {
  createClient,
  isFrameOf,
  ok,
  PredictionLifecycle,
  ServiceStream,
  type ChannelData,
  type DataFrameOf,
  type LifecycleEvents,
  type QuoteSnapshotFrame,
  type ServiceClient,
  type StreamFrame,
} from '../../client/src/index.ts';
import { freePort } from '../helpers/ports.ts';
import { call, clientWithKeys, startTestService, TEST_OPERATOR_KEY, until, type TestService } from '../helpers/service.ts';
import { assertNbbo } from '../helpers/nbbo.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC = 'urn:client-channels:openapi.json';
const SYMBOL = 'BTC-USDT';
const TERMINAL = ['COMPLETED', 'CANCELLED', 'REJECTED'];

describe('typed stream channels and prediction lifecycle sockets', { timeout: 90_000 }, () => {
  let svc: TestService;
  let port: number;
  let baseUrl: string;
  let key: string;
  let client: ServiceClient;
  let stream: ServiceStream | undefined;
  const lifecycles: PredictionLifecycle<'new_markets' | 'market_resolved'>[] = [];
  /** The server side of a WebSocket path, compiled from the served document. */
  let serverFrame: (path: string) => ValidateFunction;

  before(async () => {
    port = await freePort();
    svc = await startTestService({ port, simMarketResolveS: 3 });
    baseUrl = `http://127.0.0.1:${port}`;
    key = (await clientWithKeys(svc, 'channels-sdk')).sandbox;
    assert.equal((await call(baseUrl, 'POST', '/v1/sandbox/reset', { token: key })).status, 200);
    client = createClient({ baseUrl, apiKey: key, retry: { retries: 8, baseMs: 100 } });
    const doc = (await call<Record<string, unknown>>(baseUrl, 'GET', '/v1/openapi.json')).body;
    const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false }));
    ajv.addVocabulary(Object.keys(doc));
    ajv.addSchema(doc, DOC);
    const compiled = new Map<string, ValidateFunction>();
    serverFrame = (path) => {
      let v = compiled.get(path);
      if (v === undefined) compiled.set(path, (v = ajv.compile({ $ref: `${DOC}#/paths/${path.replace(/\//g, '~1')}/get/responses/101/x-websocket/server` })));
      return v;
    };
  });
  after(async () => {
    stream?.close();
    for (const l of lifecycles) l.close();
    await svc?.stop();
  });

  /** Asserts that a frame is what the document says the path's server sends. */
  const documented = (path: string, frame: unknown) => {
    const v = serverFrame(path);
    assert.ok(v(frame), `${path} frame not as documented: ${JSON.stringify(v.errors?.slice(0, 5))}\n${JSON.stringify(frame).slice(0, 1500)}`);
  };

  it('market, private and system channels deliver frames with their typed fields, as documented', async () => {
    // Every frame also through the untyped onFrame, narrowed there by isFrameOf.
    const raw: StreamFrame[] = [];
    let bookLevels = 0;
    const s = new ServiceStream({
      client,
      baseUrl,
      onFrame: (f) => {
        raw.push(f);
        if (isFrameOf(f, 'book') && f.type === 'data') bookLevels += f.data.bids.length + f.data.asks.length;
      },
    });
    stream = s;
    const snapshots: QuoteSnapshotFrame[] = [];
    const prices: DataFrameOf<`prices:${string}`>[] = [];
    const books: DataFrameOf<'book:BTC-USDT'>[] = [];
    const fair: ChannelData['fair_price'][] = [];
    const rates: Extract<ChannelData['funding'], { kind: 'rate' }>[] = [];
    const orders: ChannelData['orders'][] = [];
    const fills: ChannelData['fills'][] = [];
    const plans: ChannelData['routing'][] = [];
    const tca: ChannelData['tca'][] = [];
    const killSwitch: boolean[] = [];
    await s.connect();
    s.on(`prices:${SYMBOL}`, (f) => (f.type === 'snapshot' ? snapshots.push(f) : prices.push(f)));
    s.on('book:BTC-USDT', (f) => books.push(f));
    s.on('fair_price:BTC', (f) => fair.push(f.data));
    s.on('funding', (f) => {
      if (f.data.kind === 'rate') rates.push(f.data);
    });
    s.on('orders', (f) => orders.push(f.data));
    s.on('fills', (f) => fills.push(f.data));
    s.on('routing', (f) => plans.push(f.data));
    s.on('tca', (f) => tca.push(f.data));
    s.on('system', (f) => {
      if (f.data.event === 'kill_switch') killSwitch.push(f.data.active);
    });

    await until('a quote snapshot, prices, book and fair price frames', async () => (snapshots.length > 0 && prices.length > 0 && books.length > 0 && fair.length > 0 ? true : undefined), 15_000, 20);
    const snap = snapshots[0]!;
    assert.equal(snap.data.symbol, SYMBOL);
    assertNbbo(snap.data.nbbo);
    const nbbo = prices.at(-1)!.data;
    assert.ok(nbbo.bid > 0 && nbbo.ask > 0 && nbbo.bid_sz > 0 && nbbo.ask_sz > 0, JSON.stringify(nbbo));
    assert.ok(nbbo.mid === 0 || (nbbo.mid >= nbbo.bid && nbbo.mid <= nbbo.ask), 'mid between bid and ask (equal to both when locked) unless crossed');
    assert.ok(Number.isInteger(nbbo.ts_ns) && nbbo.ts_ns > 0);
    const book = books.at(-1)!.data;
    const [bestBid, bidSize] = book.bids[0]!;
    const [bestAsk] = book.asks[0]!;
    assert.ok(bestBid > 0 && bidSize > 0 && bestAsk > 0, JSON.stringify(book).slice(0, 300));
    assert.ok(book.bids.length <= 20 && book.asks.length <= 20);
    for (let i = 1; i < book.bids.length; i++) assert.ok(book.bids[i]![0] < book.bids[i - 1]![0], 'bids best first');
    const fp = fair.at(-1)!;
    assert.equal(fp.underlying, 'BTC');
    assert.ok(Number.isInteger(fp.fair_mid_1e9) && fp.fair_mid_1e9 > 0);
    assert.ok(fp.confidence >= 0 && fp.confidence <= 1);
    assert.ok(fp.contributors.length > 0 && fp.contributors.every((c) => c.mid_1e9 > 0 && (c.instrument_type === 'spot' || c.instrument_type === 'perp')));

    // An order: its states, fills, routing plan and TCA on the private channels.
    const placed = ok(await client.POST('/v1/orders', { body: { client_order_id: 'channels-1', symbol: SYMBOL, side: 'buy', order_type: 'market', qty_1e8: 1_000_000 } }));
    const id = placed.node_order_id;
    await until('the order ends on the stream, with its plan and TCA', async () => (orders.some((o) => o.node_order_id === id && TERMINAL.includes(o.status)) && plans.some((p) => p.node_order_id === id) && tca.some((t) => t.node_order_id === id) ? true : undefined), 20_000, 20);
    const last = orders.filter((o) => o.node_order_id === id).at(-1)!;
    assert.equal(last.status, 'COMPLETED', JSON.stringify(last).slice(0, 500));
    assert.equal(last.filled_qty_1e8, 1_000_000);
    const plan = plans.find((p) => p.node_order_id === id)!;
    assert.equal(plan.requested_qty_1e8, 1_000_000);
    assert.ok(plan.allocations.length > 0 && plan.allocations.reduce((sum, a) => sum + a.qty_1e8, 0) === 1_000_000, JSON.stringify(plan.allocations));
    const report = tca.find((t) => t.node_order_id === id)!.tca;
    assert.equal(report.filled_qty_1e8, 1_000_000);
    assert.ok(report.achieved_vwap_1e9 !== null && report.achieved_vwap_1e9 > 0);
    await until('its fills', async () => (fills.filter((f) => f.node_order_id === id).reduce((sum, f) => sum + f.qty_1e8, 0) === 1_000_000 ? true : undefined), 10_000, 20);

    // The kill switch on and off: the system channel tells both.
    for (const active of [true, false]) {
      assert.equal((await call(baseUrl, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active, reason: 'client-channels test' } })).status, 200);
    }
    await until('both kill switch changes', async () => (killSwitch.length >= 2 ? true : undefined), 10_000, 20);
    assert.deepEqual(killSwitch.slice(-2), [true, false]);

    // Perp funding rates: the public half of `funding`, read from the perp edges every 5 s.
    await until('a funding rate', async () => (rates.length > 0 ? true : undefined), 12_000, 50);
    const rate = rates[0]!;
    assert.ok(rate.edge_id.startsWith('venue-edge-') && rate.symbol.length > 0 && Number.isInteger(rate.rate_1e9) && rate.next_funding_ns > 0, JSON.stringify(rate));

    assert.ok(bookLevels > 0, 'onFrame saw the book frames, narrowed by isFrameOf');
    const data = raw.filter((f) => f.type === 'data');
    for (const f of data) documented('/v1/stream', f);
    assert.ok(new Set(data.map((f) => f.channel.split(':')[0])).size >= 9, `every channel sent: ${[...new Set(data.map((f) => f.channel))].join(', ')}`);
    console.log(`# ${prices.length} prices, ${books.length} book, ${fair.length} fair_price, ${rates.length} funding, ${orders.length} orders, ${fills.length} fills frames`);
  });

  it('lifecycle sockets: typed events, replayed then live; across a restart each event once', async () => {
    const resolved: LifecycleEvents['market_resolved'][] = [];
    const listed: LifecycleEvents['new_markets'][] = [];
    const states: string[] = [];
    const gaps: string[] = [];
    const resolutions = new PredictionLifecycle({
      client,
      baseUrl,
      stream: 'market_resolved',
      onEvent: (e) => resolved.push(e),
      onState: (state, detail) => states.push(`${state} ${detail.reason}`),
      onGap: ({ first }) => gaps.push(first.slug),
    });
    const listings = new PredictionLifecycle({ client, baseUrl, stream: 'new_markets', onEvent: (e) => listed.push(e) });
    lifecycles.push(resolutions, listings);
    await Promise.all([resolutions.connect(), listings.connect()]);

    await until('resolutions and listings', async () => (resolved.length >= 3 && listed.length > 0 ? true : undefined), 25_000, 50);
    for (const e of resolved) {
      documented('/v1/ws/market_resolved', e);
      assert.equal(e.kind, 'market_resolved');
      assert.ok(e.winning_outcome === 'Yes' || e.winning_outcome === 'No');
      assert.notEqual(e.winning_token_id, e.losing_token_id);
      assert.ok(e.resolved_at_ns <= e.observed_at_ns);
    }
    for (const e of listed.slice(0, 20)) {
      documented('/v1/ws/new_markets', e);
      assert.equal(e.kind, 'new_market');
      assert.ok(e.venue === 'kalshi' || e.venue === 'polymarket');
      assert.equal(e.best_yes_bid, null);
      assert.equal(e.volume_24h, 0);
    }

    // A restart on the same port and data: the sockets close, reconnect with fresh tickets, and
    // the service replays the resolutions it stored, which the client has delivered already.
    const before = resolved.length;
    await svc.stop(false);
    await until('the close seen', async () => (states.some((s) => s.startsWith('closed')) ? true : undefined), 10_000, 20);
    svc = await startTestService({ dataDir: svc.dataDir, port, simMarketResolveS: 3 });
    await until('reconnected', async () => (states.filter((s) => s.startsWith('open')).length >= 2 ? true : undefined), 20_000, 50);
    const replay = await rawFrames('/v1/ws/market_resolved', 500);
    const delivered = new Set(resolved.map((e) => `${e.venue}:${e.slug}`));
    assert.ok(replay.some((k) => delivered.has(k)), 'the service replayed events the client had delivered');
    await until('a resolution after the restart', async () => (resolved.length > before ? true : undefined), 25_000, 50);

    for (const [name, keys] of [['market_resolved', resolved.map((e) => `${e.venue}:${e.slug}`)], ['new_markets', listed.map((e) => `${e.venue}:${e.slug}`)]] as const) {
      assert.equal(new Set(keys).size, keys.length, `${name}: no event twice (${keys.length} delivered)`);
    }
    console.log(`# ${resolved.length} resolutions (${resolved.length - before} after the restart), ${listed.length} listings; states: ${states.join(', ')}; gaps: ${gaps.length}`);
  });

  /** Keys (venue:slug) of what a raw lifecycle socket receives within `ms`: on connect, the replay. */
  function rawFrames(path: string, ms: number): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } });
      const keys: string[] = [];
      ws.on('message', (data) => {
        const f = JSON.parse(String(data)) as { venue: string; slug: string };
        keys.push(`${f.venue}:${f.slug}`);
      });
      ws.once('error', reject);
      // Timed from the open, not the dial: a slow handshake on a loaded machine cuts no replay short.
      ws.once('open', () =>
        setTimeout(() => {
          ws.close();
          resolve(keys);
        }, ms),
      );
    });
  }
});
