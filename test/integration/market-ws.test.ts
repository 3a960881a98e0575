/**
 * The market-data channels of the unified WebSocket against the real service (two workers, the
 * simulated venues with seed 7): `prices:<symbol>`, `book:<symbol>` (and their `:perp` forms),
 * `fair_price:<underlying>`. A first frame within 3 s of subscribe, the frame shapes, "only on
 * change", unknown channels, and unsubscribe.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { book } from '../../actors/market/directory.ts';
import { call, envelope, startTestService, TEST_OPERATOR_KEY, type TestService } from '../helpers/service.ts';
import { StreamClient, type Frame } from '../helpers/stream-client.ts';

/** The spec: hot tokens deliver a first event in 0 to 3 s after subscribe. */
const FIRST_FRAME_MS = 3_000;

interface Prices {
  bid: number;
  ask: number;
  mid: number;
  bid_sz: number;
  ask_sz: number;
  spread_bps: number;
  ts_ns: number;
}

interface BookFrame {
  bids: [number, number][];
  asks: [number, number][];
  ts_ns: number;
}

const isData = (channel: string) => (f: Frame) => f.type === 'data' && f.channel === channel;

function checkPrices(data: Record<string, unknown> | undefined, where: string): Prices {
  assert.ok(data !== undefined, where);
  const p = data as unknown as Prices;
  for (const k of ['bid', 'ask', 'mid', 'bid_sz', 'ask_sz', 'spread_bps', 'ts_ns'] as const) {
    assert.equal(typeof p[k], 'number', `${where}: ${k} in ${JSON.stringify(data)}`);
    assert.ok(Number.isFinite(p[k]) && p[k] >= 0, `${where}: ${k} in ${JSON.stringify(data)}`);
  }
  assert.ok(Number.isInteger(p.ts_ns) && p.ts_ns > 0, `${where}: ts_ns integer ns`);
  const crossed = p.bid > 0 && p.ask > 0 && p.bid > p.ask;
  if (crossed || p.bid === 0 || p.ask === 0) {
    assert.equal(p.mid, 0, `${where}: mid zeroed when crossed ${JSON.stringify(p)}`);
    assert.equal(p.spread_bps, 0, `${where}: spread zeroed when crossed ${JSON.stringify(p)}`);
  } else {
    const mid = (p.bid + p.ask) / 2;
    assert.ok(Math.abs(p.mid - mid) <= mid * 1e-12, `${where}: mid ${JSON.stringify(p)}`);
    assert.ok(Math.abs(p.spread_bps - ((p.ask - p.bid) / mid) * 10_000) <= 0.0100001, `${where}: spread ${JSON.stringify(p)}`);
  }
  return p;
}

function checkBook(data: Record<string, unknown> | undefined, where: string): BookFrame {
  assert.ok(data !== undefined, where);
  const b = data as unknown as BookFrame;
  assert.ok(Array.isArray(b.bids) && Array.isArray(b.asks), `${where}: ${JSON.stringify(data)}`);
  assert.ok(Number.isInteger(b.ts_ns) && b.ts_ns > 0, `${where}: ts_ns`);
  for (const side of [b.bids, b.asks]) {
    for (const level of side) {
      assert.ok(Array.isArray(level) && level.length === 2, `${where}: [price, size] pairs`);
      assert.ok(typeof level[0] === 'number' && level[0] > 0 && typeof level[1] === 'number' && level[1] > 0, `${where}: ${JSON.stringify(level)}`);
    }
  }
  for (let i = 1; i < b.bids.length; i++) assert.ok(b.bids[i]![0] < b.bids[i - 1]![0], `${where}: bids descending`);
  for (let i = 1; i < b.asks.length; i++) assert.ok(b.asks[i]![0] > b.asks[i - 1]![0], `${where}: asks ascending`);
  return b;
}

function checkFair(data: Record<string, unknown> | undefined, underlying: string, where: string): void {
  assert.ok(data !== undefined, where);
  assert.equal(data['underlying'], underlying, where);
  assert.ok(Number.isInteger(data['fair_mid_1e9']) && (data['fair_mid_1e9'] as number) > 0, `${where}: fair_mid_1e9`);
  for (const k of ['spot_mid_1e9', 'perp_mid_1e9'] as const) assert.ok(data[k] === null || Number.isInteger(data[k]), `${where}: ${k}`);
  assert.ok(data['basis_bps'] === null || typeof data['basis_bps'] === 'number', `${where}: basis_bps`);
  const confidence = data['confidence'] as number;
  assert.ok(confidence >= 0 && confidence <= 1, `${where}: confidence`);
  assert.ok(Array.isArray(data['contributors']) && (data['contributors'] as unknown[]).length > 0, `${where}: contributors`);
  assert.ok(Number.isInteger(data['cc_ts_ns']), `${where}: cc_ts_ns`);
}

/** Visible content of a frame, to compare consecutive frames. */
const pricesKey = (d: Record<string, unknown> | undefined) => JSON.stringify([d?.['bid'], d?.['ask'], d?.['bid_sz'], d?.['ask_sz']]);
const bookKey = (d: Record<string, unknown> | undefined) => JSON.stringify([d?.['bids'], d?.['asks']]);

describe('market data: WebSocket channels (real service)', () => {
  let svc: TestService;
  let base: string;
  let wsBase: string;
  const op = TEST_OPERATOR_KEY;
  const open: StreamClient[] = [];

  const withTicket = async (): Promise<StreamClient> => {
    const res = await call<{ ticket: string }>(base, 'GET', '/v1/ws/ticket', { token: op });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const client = await StreamClient.open(`${wsBase}/v1/stream?ticket=${res.body.ticket}`);
    open.push(client);
    return client;
  };
  const withBearer = async (): Promise<StreamClient> => {
    const client = await StreamClient.open(`${wsBase}/v1/stream`, { authorization: `Bearer ${op}` });
    open.push(client);
    return client;
  };

  /** Consecutive data frames of `channel` until `count` are in or `timeoutMs` passes. */
  const collect = async (client: StreamClient, channel: string, count: number, timeoutMs: number): Promise<Frame[]> => {
    const frames: Frame[] = [];
    const deadline = Date.now() + timeoutMs;
    while (frames.length < count && Date.now() < deadline) {
      frames.push(await client.next(isData(channel), Math.max(1, deadline - Date.now()) + 3_000));
    }
    return frames;
  };

  before(async () => {
    svc = await startTestService();
    base = svc.base;
    wsBase = `ws://127.0.0.1:${svc.service.port}`;
    // The market is up before the 3 s clock of any subscribe starts: BTC-USDT has a live book.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await call<{ source: string }>(base, 'GET', '/v1/quotes/BTC-USDT?depth=1', { token: op });
      if (res.status === 200 && res.body.source === 'edge_nbbo') break;
      if (Date.now() > deadline) assert.fail(`no live BTC-USDT book: ${JSON.stringify(res.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  after(async () => {
    for (const c of open) c.close();
    await svc?.stop();
  });

  it('prices:, book: and fair_price: each deliver a first frame within 3 s of subscribe (ticket auth)', async () => {
    const client = await withTicket();
    const channels = ['prices:BTC-USDT', 'book:BTC-USDT', 'fair_price:BTC'];
    const sentAt = Date.now();
    client.send({ subscribe: channels });
    assert.deepEqual(await client.next((f) => f.type === 'subscribed', FIRST_FRAME_MS), { type: 'subscribed', channels });
    const firsts = new Map<string, Frame>();
    for (const channel of channels) {
      const left = Math.max(1, sentAt + FIRST_FRAME_MS - Date.now());
      firsts.set(channel, await client.next(isData(channel), left));
    }
    for (const [channel, frame] of firsts) {
      assert.equal(frame.type, 'data');
      assert.equal(frame.channel, channel);
      assert.ok(Number.isInteger(frame.ts_ns) && frame.ts_ns! > 0, 'the wrapper carries ts_ns');
    }
    const prices = checkPrices(firsts.get('prices:BTC-USDT')!.data, 'prices:BTC-USDT');
    assert.ok(prices.bid > 0 && prices.ask > 0 && prices.bid_sz > 0 && prices.ask_sz > 0, JSON.stringify(prices));
    const bookFrame = checkBook(firsts.get('book:BTC-USDT')!.data, 'book:BTC-USDT');
    assert.ok(bookFrame.bids.length > 0 && bookFrame.asks.length > 0);
    assert.ok(bookFrame.bids.length <= 50 && bookFrame.asks.length <= 50);
    checkFair(firsts.get('fair_price:BTC')!.data, 'BTC', 'fair_price:BTC');

    // The channel's prices are those of the quote endpoint's book: same neighbourhood (1%).
    const quote = await call<{ nbbo: { bid: number } }>(base, 'GET', '/v1/quotes/BTC-USDT?depth=1', { token: op });
    assert.ok(Math.abs(quote.body.nbbo.bid - prices.bid) / prices.bid < 0.01, `${quote.body.nbbo.bid} vs ${prices.bid}`);
  });

  it('a bearer-authenticated connection subscribes too; the perp form prices:<symbol>:perp carries the perp book', async () => {
    assert.ok(book('BTC-USDT', 'perp') !== undefined, 'BTC-USDT has a perp book (binance, bybit, okx -perp edges)');
    const client = await withBearer();
    const channels = ['prices:BTC-USDT:perp', 'book:BTC-USDT:perp', 'prices:ETH-USD', 'book:SOL-USDC'];
    const sentAt = Date.now();
    client.send({ subscribe: channels });
    assert.deepEqual(await client.next((f) => f.type === 'subscribed', FIRST_FRAME_MS), { type: 'subscribed', channels });
    const frames = new Map<string, Frame>();
    for (const channel of channels) {
      frames.set(channel, await client.next(isData(channel), Math.max(1, sentAt + FIRST_FRAME_MS - Date.now())));
    }
    const perp = checkPrices(frames.get('prices:BTC-USDT:perp')!.data, 'prices:BTC-USDT:perp');
    checkBook(frames.get('book:BTC-USDT:perp')!.data, 'book:BTC-USDT:perp');
    checkPrices(frames.get('prices:ETH-USD')!.data, 'prices:ETH-USD');
    checkBook(frames.get('book:SOL-USDC')!.data, 'book:SOL-USDC');
    // The perp NBBO is the perp book's, not the spot one's: compare with the perp quote.
    const perpQuote = await call<{ instrument_type: string; nbbo: { bid: number } }>(base, 'GET', '/v1/quotes/BTC-USDT?instrument_type=perp&depth=1', { token: op });
    assert.equal(perpQuote.body.instrument_type, 'perp');
    assert.ok(Math.abs(perpQuote.body.nbbo.bid - perp.bid) / perp.bid < 0.01, `${perpQuote.body.nbbo.bid} vs ${perp.bid}`);
  });

  it('book:<symbol> fires only on change: no two consecutive frames show the same levels', async () => {
    const client = await withTicket();
    client.send({ subscribe: ['book:BTC-USDT', 'book:ETH-USDT', 'book:BTC-USDT:perp'] });
    await client.next((f) => f.type === 'subscribed');
    for (const channel of ['book:BTC-USDT', 'book:ETH-USDT', 'book:BTC-USDT:perp']) {
      const frames = await collect(client, channel, 60, 6_000);
      assert.ok(frames.length >= 50, `${channel}: ${frames.length} frames`);
      for (let i = 1; i < frames.length; i++) {
        checkBook(frames[i]!.data, channel);
        assert.notEqual(bookKey(frames[i]!.data), bookKey(frames[i - 1]!.data), `${channel}: frames ${i - 1} and ${i} are identical`);
      }
    }
  });

  it(
    'prices:<symbol> fires only on change: no two consecutive frames show the same bid, ask, bid_sz, ask_sz',
    async () => {
      const client = await withTicket();
      const channels = ['prices:BTC-USDT', 'prices:ETH-USDT', 'prices:BTC-USDT:perp'];
      client.send({ subscribe: channels });
      await client.next((f) => f.type === 'subscribed');
      const repeats: string[] = [];
      for (const channel of channels) {
        const frames = await collect(client, channel, 150, 4_000);
        assert.ok(frames.length >= 50, `${channel}: ${frames.length} frames`);
        for (let i = 1; i < frames.length; i++) {
          checkPrices(frames[i]!.data, channel);
          if (pricesKey(frames[i]!.data) === pricesKey(frames[i - 1]!.data)) {
            repeats.push(`${channel} #${i}: ${JSON.stringify(frames[i - 1]!.data)} then ${JSON.stringify(frames[i]!.data)}`);
          }
        }
      }
      assert.deepEqual(repeats, [], 'consecutive identical prices frames');
    },
  );

  it('unknown channels get an UNKNOWN_CHANNEL error frame naming each; known ones in the same call are accepted', async () => {
    const client = await withTicket();
    client.send({ subscribe: ['prices:NOPE-USD'] });
    const alone = await client.next();
    assert.equal(alone.type, 'error', JSON.stringify(alone));
    assert.equal(alone.error?.code, 'UNKNOWN_CHANNEL');
    assert.deepEqual(alone.error?.details.map((d) => d.field), ['subscribe[0]']);
    assert.equal(typeof alone.error?.message, 'string');
    assert.equal(typeof alone.error?.request_id, 'string');

    // A symbol with a spot book but no perp book; an underlying that does not exist; a bare prefix.
    client.send({ subscribe: ['prices:ETH-USDT', 'prices:BTC-USD:perp', 'fair_price:ZZZ', 'book:', 'fair_price:BTC-USDT'] });
    assert.deepEqual(await client.next(), { type: 'subscribed', channels: ['prices:ETH-USDT'] });
    const mixed = await client.next((f) => f.type === 'error');
    assert.equal(mixed.error?.code, 'UNKNOWN_CHANNEL');
    assert.deepEqual(
      mixed.error?.details.map((d) => d.field),
      ['subscribe[1]', 'subscribe[2]', 'subscribe[3]', 'subscribe[4]'],
    );
    checkPrices((await client.next(isData('prices:ETH-USDT'), FIRST_FRAME_MS)).data, 'prices:ETH-USDT');
  });

  it('unsubscribe stops a channel\'s frames after the ack while the others keep flowing', async () => {
    const client = await withTicket();
    // Arrival log in order, with the arrival time, beside the helper's queue.
    const log: { at: number; frame: Frame }[] = [];
    client.ws.on('message', (raw) => log.push({ at: Date.now(), frame: JSON.parse(String(raw)) as Frame }));
    client.send({ subscribe: ['prices:BTC-USDT', 'book:BTC-USDT', 'prices:ETH-USDT'] });
    await client.next((f) => f.type === 'subscribed');
    for (const channel of ['prices:BTC-USDT', 'book:BTC-USDT', 'prices:ETH-USDT']) await client.next(isData(channel), FIRST_FRAME_MS);

    client.send({ unsubscribe: ['prices:BTC-USDT', 'book:BTC-USDT', 'prices:NEVER-SUBSCRIBED'] });
    const ack = await client.next((f) => f.type === 'unsubscribed');
    assert.ok(ack.channels?.includes('prices:BTC-USDT') && ack.channels.includes('book:BTC-USDT'), JSON.stringify(ack));
    const ackIndex = log.findIndex((e) => e.frame.type === 'unsubscribed');
    const ackAtNs = log[ackIndex]!.at * 1_000_000;

    // The other channel still delivers, so the window below saw a live connection.
    const later = Date.now();
    let etherAfter = 0;
    while (Date.now() - later < 1_500) {
      await client.next(isData('prices:ETH-USDT'), 3_000);
      etherAfter++;
    }
    assert.ok(etherAfter > 0);
    // A frame published before the ack may still arrive just after it (in flight); one published
    // after the ack must not arrive at all. The wrapper's ts_ns is the gateway's publish time.
    const leaked = log
      .slice(ackIndex + 1)
      .filter((e) => e.frame.type === 'data' && (e.frame.channel === 'prices:BTC-USDT' || e.frame.channel === 'book:BTC-USDT'))
      .filter((e) => (e.frame.ts_ns ?? 0) > ackAtNs);
    assert.deepEqual(leaked.map((e) => e.frame.channel), [], 'frames of unsubscribed channels after the ack');

    // Subscribing again resumes the channel.
    client.send({ subscribe: ['prices:BTC-USDT'] });
    await client.next((f) => f.type === 'subscribed');
    checkPrices((await client.next((f) => f.type === 'data' && f.channel === 'prices:BTC-USDT' && (f.ts_ns ?? 0) > ackAtNs, FIRST_FRAME_MS)).data, 'resubscribed');
  });

  it('a malformed subscribe is a VALIDATION_ERROR frame; the connection stays usable', async () => {
    const client = await withBearer();
    client.send({ subscribe: 'prices:BTC-USDT' });
    const err = await client.next();
    assert.equal(err.type, 'error');
    assert.equal(err.error?.code, 'VALIDATION_ERROR');
    client.send({ subscribe: ['fair_price:ETH'] });
    assert.deepEqual(await client.next((f) => f.type === 'subscribed'), { type: 'subscribed', channels: ['fair_price:ETH'] });
    checkFair((await client.next(isData('fair_price:ETH'), FIRST_FRAME_MS)).data, 'ETH', 'fair_price:ETH');
    assert.equal(envelope({ error: err.error }).code, 'VALIDATION_ERROR');
  });
});
