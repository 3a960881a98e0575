/**
 * The prediction lifecycle WebSockets against the real service (seed 7, a resolution every 2 s
 * on each venue): authenticated like /v1/stream, the last 128 events replayed on connect, then
 * live, each once; resolutions stored and replayed again after a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { call, startTestService, TEST_OPERATOR_KEY, until as poll, type TestService } from '../helpers/service.ts';

let svc: TestService;

interface Frame {
  kind: string;
  venue: string;
  slug: string;
  event_id: string;
  winning_outcome?: string;
  winning_token_id?: string;
  losing_token_id?: string;
  resolved_at_ns?: number;
  observed_at_ns: number;
  best_yes_bid?: number | null;
  volume_24h?: number;
}

/** Frames of a lifecycle stream: all that arrive within `ms`, or until `enough` says so. */
function collect(path: string, ms: number, enough: (frames: Frame[]) => boolean = () => false, headers: Record<string, string> = { authorization: `Bearer ${TEST_OPERATOR_KEY}` }): Promise<Frame[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(svc.base.replace('http', 'ws') + path, { headers, handshakeTimeout: 5_000 });
    const frames: Frame[] = [];
    const done = () => {
      clearTimeout(timer);
      ws.close();
      resolve(frames);
    };
    // Timed from the open, not the dial: a slow handshake on a loaded machine cuts no replay short.
    let timer: NodeJS.Timeout | undefined;
    ws.on('open', () => {
      timer = setTimeout(done, ms);
    });
    ws.on('message', (data) => {
      frames.push(JSON.parse(String(data)) as Frame);
      if (enough(frames)) done();
    });
    ws.on('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`upgrade refused ${res.statusCode}`), { status: res.statusCode }));
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** A lifecycle stream left open: its frames so far, and a close. */
function subscribe(path: string): { frames: Frame[]; close: () => void } {
  const ws = new WebSocket(svc.base.replace('http', 'ws') + path, { headers: { authorization: `Bearer ${TEST_OPERATOR_KEY}` }, handshakeTimeout: 5_000 });
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  ws.on('error', () => {});
  return { frames, close: () => ws.close() };
}

async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitForCatalog(): Promise<void> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const res = await call<{ count: number }>(svc.base, 'GET', '/v1/markets?limit=1', { token: TEST_OPERATOR_KEY });
    if (res.body.count > 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('catalog not read');
}

describe('prediction lifecycle streams', () => {
  before(async () => {
    svc = await startTestService({ simMarketResolveS: 2 });
    await waitForCatalog();
  });
  after(async () => svc?.stop());

  it('refuses an upgrade without a credential', async () => {
    await assert.rejects(collect('/v1/ws/market_resolved', 2_000, () => true, {}), (err: { status?: number }) => err.status === 401);
    const plain = await call(svc.base, 'GET', '/v1/ws/new_markets', { token: TEST_OPERATOR_KEY });
    assert.equal(plain.status, 426);
  });

  it('market_resolved: exactly the last 128 on connect, then live resolutions, each once', async () => {
    // The first subscriber stays open while a second connects: whatever the rate (the gateway may
    // still be catching up on the venues' change logs in bursts), the second's replay is the
    // last 128 the first saw, in the same order, and the first saw each event once.
    const first = subscribe('/v1/ws/market_resolved');
    try {
      await until(() => first.frames.length >= 131, 12_000);
      const keys = first.frames.map((f) => `${f.venue}:${f.slug}`);
      assert.equal(new Set(keys).size, keys.length, 'no event twice');
      for (const f of first.frames) {
        assert.equal(f.kind, 'market_resolved');
        assert.ok(['Yes', 'No'].includes(f.winning_outcome!));
        assert.notEqual(f.winning_token_id, f.losing_token_id);
        assert.ok(Number.isInteger(f.resolved_at_ns) && Number.isInteger(f.observed_at_ns));
      }
      const second = await collect('/v1/ws/market_resolved', 5_000, (f) => f.length >= 128);
      await new Promise((r) => setTimeout(r, 300)); // the first has what was published by then
      const replay = second.slice(0, 128).map((f) => `${f.venue}:${f.slug}`);
      assert.equal(replay.length, 128);
      const seen = first.frames.map((f) => `${f.venue}:${f.slug}`);
      const at = seen.indexOf(replay[0]!);
      assert.ok(at >= 0, 'the replay starts at an event the first subscriber saw');
      assert.deepEqual(seen.slice(at, at + 128), replay, 'the replay is the last 128, oldest first');
    } finally {
      first.close();
    }
  });

  it('new_markets: listing rows with kind new_market, fresh figures, replayed then live', async () => {
    const frames = await collect('/v1/ws/new_markets', 10_000, (f) => f.length >= 130);
    assert.ok(frames.length >= 129, `replay and a live listing: ${frames.length}`);
    const keys = frames.map((f) => `${f.venue}:${f.slug}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const f of frames) {
      assert.equal(f.kind, 'new_market');
      assert.equal(f.best_yes_bid, null);
      assert.equal(f.volume_24h, 0);
    }
  });

  it('resolutions are stored: after a restart the same frames are replayed', async () => {
    const before = await collect('/v1/ws/market_resolved', 5_000, (f) => f.length >= 128);
    const dataDir = svc.dataDir;
    await svc.stop(false);
    svc = await startTestService({ simMarketResolveS: 2, dataDir });
    const after = await collect('/v1/ws/market_resolved', 5_000, (f) => f.length >= 128);
    assert.ok(after.length >= 128);
    // Every frame before the restart that is still within the window is the same frame.
    const byKey = new Map(after.map((f) => [`${f.venue}:${f.slug}`, f]));
    const still = before.filter((f) => byKey.has(`${f.venue}:${f.slug}`));
    assert.ok(still.length > 0);
    for (const f of still) assert.deepEqual(byKey.get(`${f.venue}:${f.slug}`), f);
  });

  it('GET /v1/settlement/{slug}: open, then resolved with the outcome the stream told, the up/down underlying, settled on the ticker-style venue', async () => {
    const get = <T>(path: string) => call<T>(svc.base, 'GET', path, { token: TEST_OPERATOR_KEY });
    type S = { slug: string; status: string; resolved_outcome: string | null; yes_price: number | null; no_price: number | null; underlying?: { anchor_price_usd: number; final_price_usd: number; agrees_with_settlement: boolean } };
    // The test before restarted the service: its catalog may still be loading.
    const open = await poll('a listed market', async () => (await get<{ markets: { slug: string; yes_token_id: string }[] }>('/v1/markets?limit=1')).body.markets[0], 20_000, 100);
    const o = await get<S>(`/v1/settlement/${open.slug}`);
    assert.equal(o.status, 200, JSON.stringify(o.body));
    assert.deepEqual([o.body.status, o.body.resolved_outcome], ['open', null]);
    assert.equal((await get(`/v1/settlement/${open.yes_token_id}`)).status, 400, 'raw token ids are rejected');
    assert.equal((await get('/v1/settlement/no-such-market-anywhere')).status, 404);

    const frames = await collect('/v1/ws/market_resolved', 5_000, (f) => f.length >= 128);
    const poly = frames.filter((f) => f.venue === 'polymarket' && /up-or-down/.test(f.slug)).at(-1)!;
    // Its market must be back in the catalog the restart reloads (slow under a loaded full run).
    const p = await poll('the resolved market in the catalog', async () => {
      const res = await get<S>(`/v1/settlement/${poly.slug}`);
      return res.status === 200 ? res : undefined;
    }, 20_000, 100);
    assert.equal(p.body.status, 'resolved', JSON.stringify(p.body));
    assert.equal(p.body.resolved_outcome, poly.winning_outcome);
    assert.deepEqual([p.body.yes_price, p.body.no_price], poly.winning_outcome === 'Yes' ? [1, 0] : [0, 1]);
    assert.ok(p.body.underlying !== undefined && p.body.underlying.agrees_with_settlement === true, JSON.stringify(p.body.underlying));
    assert.equal(p.body.underlying.final_price_usd >= p.body.underlying.anchor_price_usd, poly.winning_outcome === 'Yes');
    assert.equal((await get<S>(`/v1/settlement/${poly.slug}?underlying=false`)).body.underlying, undefined);

    const kalshi = frames.filter((f) => f.venue === 'kalshi').at(-1)!;
    const k = await get<S>(`/v1/settlement/${kalshi.slug}`);
    assert.ok(['resolved', 'settled'].includes(k.body.status), JSON.stringify(k.body));
    assert.equal(k.body.resolved_outcome, kalshi.winning_outcome);
  });
});
