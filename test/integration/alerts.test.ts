/**
 * User-defined alerts against the real service: a price alert set and received on the SSE
 * stream, fills and a rejected order told by the journal, spread, basis and PnL levels, the
 * durable event log, resumption with Last-Event-ID (replayed once, never twice), across a
 * restart too; live and sandbox apart, another client sees nothing; bad requests are 400s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, clientWithKeys, envelope, startTestService, startTradingService, until, type TradingService } from '../helpers/service.ts';
import { SseClient, type SseEvent } from '../helpers/sse-client.ts';

const SYMBOL = 'BTC-USDT';
const VENUES = ['binance', 'okx', 'bybit'];
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);

interface Alert {
  alert_id: string;
  kind: string;
  status: string;
  fired_count: number;
  armed: boolean;
  threshold: number | null;
  is_sandbox: boolean;
}
interface AlertEvent {
  event_id: string;
  alert_id: string;
  kind: string;
  value: number | null;
  node_order_id: string | null;
  fill_id?: string;
  message: string;
  is_sandbox: boolean;
}

describe('alerts (real service)', () => {
  let t: TradingService;
  const port = () => Number(new URL(t.base).port);
  const create = (token: string, body: Record<string, unknown>) => call<Alert>(t.base, 'POST', '/v1/alerts', { token, body });
  const events = (token: string, query = '') => call<{ events: AlertEvent[]; next_after: string | null }>(t.base, 'GET', `/v1/alerts/events${query}`, { token });
  const mid = async () => {
    const q = await call<{ nbbo: { bid: number; ask: number } }>(t.base, 'GET', `/v1/quotes/${SYMBOL}`, { token: t.token });
    return (q.body.nbbo.bid + q.body.nbbo.ask) / 2;
  };
  const place = async (token: string, id: string) => {
    const res = await call<{ node_order_id: string }>(t.base, 'POST', '/v1/orders', { token, body: { client_order_id: id, symbol: SYMBOL, side: 'buy', qty_1e8: 1_000_000, order_type: 'market' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return until(`order ${id} ends`, async () => {
      const o = await call<{ node_order_id: string; status: string; fill_ids?: unknown }>(t.base, 'GET', `/v1/orders/${res.body.node_order_id}`, { token });
      return TERMINAL.has(o.body.status) ? o.body : undefined;
    });
  };
  const nextAlert = async (sse: SseClient, timeoutMs = 5_000) => {
    const e = await sse.next('alert', timeoutMs);
    return e as SseEvent & { data: AlertEvent };
  };

  before(async () => {
    t = await startTradingService({ client: 'alerts-client', venues: VENUES, symbol: SYMBOL });
  });
  after(async () => {
    await t.svc.stop();
  });

  it('a price alert: made durable, fires on the stream with its event id, then stays fired', async () => {
    const sse = await SseClient.open(port(), '/v1/alerts/stream', t.token);
    try {
      const m = await mid();
      // Below the mid with direction above: the condition holds already, so it fires at once.
      const made = await create(t.token, { kind: 'price', symbol: SYMBOL, direction: 'above', threshold: Math.floor(m * 0.9), label: 'BTC up' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.status, 'active');
      assert.match(made.body.alert_id, /^alrt_/);
      const a = await nextAlert(sse);
      assert.equal(a.data.alert_id, made.body.alert_id);
      assert.equal(a.id, a.data.event_id, 'the SSE id is the event id');
      assert.ok(a.data.value! > Math.floor(m * 0.9) && Math.abs(a.data.value! - m) / m < 0.01, `the mid it saw: ${a.data.value} vs ${m}`);
      assert.equal(a.data.is_sandbox, false);
      const got = await call<Alert>(t.base, 'GET', `/v1/alerts/${made.body.alert_id}`, { token: t.token });
      assert.deepEqual([got.body.status, got.body.fired_count], ['fired', 1]);
      // A level far away never fires.
      const far = await create(t.token, { kind: 'price', symbol: SYMBOL, direction: 'above', threshold: Math.ceil(m * 10) });
      await new Promise((r) => setTimeout(r, 600));
      assert.equal((await call<Alert>(t.base, 'GET', `/v1/alerts/${far.body.alert_id}`, { token: t.token })).body.fired_count, 0);
      assert.deepEqual(sse.drain(), [], 'nothing else fired');
    } finally {
      sse.close();
    }
  });

  it('fills and a rejected order are told as the journal writes them; spread, basis and PnL levels fire', async () => {
    const sse = await SseClient.open(port(), '/v1/alerts/stream', t.token);
    try {
      const fills = await create(t.token, { kind: 'fill', symbol: SYMBOL, once: false });
      assert.equal(fills.status, 201);
      const o1 = await place(t.token, 'alert-o1');
      const o2 = await place(t.token, 'alert-o2');
      const orderFills = await call<{ fills: { fill_id: string; node_order_id: string }[] }>(t.base, 'GET', '/v1/fills?limit=100', { token: t.token });
      const mine = orderFills.body.fills.filter((f) => f.node_order_id === o1.node_order_id || f.node_order_id === o2.node_order_id);
      assert.ok(mine.length >= 2, 'both orders filled');
      const told: AlertEvent[] = [];
      for (let i = 0; i < mine.length; i++) told.push((await nextAlert(sse)).data);
      assert.deepEqual(told.map((e) => e.fill_id).sort(), mine.map((f) => f.fill_id).sort(), 'one alert per fill, each fill once');
      assert.ok(told.every((e) => e.alert_id === fills.body.alert_id && e.kind === 'fill'));

      for (const [body, kind] of [
        [{ kind: 'spread_bps', symbol: SYMBOL, threshold: 0 }, 'spread_bps'],
        [{ kind: 'pnl_below', threshold: 1_000_000_000 }, 'pnl_below'],
        [{ kind: 'basis_bps', underlying: 'BTC', direction: 'above', threshold: -100_000 }, 'basis_bps'],
      ] as const) {
        const made = await create(t.token, body);
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const e = await nextAlert(sse, 8_000);
        assert.deepEqual([e.data.kind, e.data.alert_id], [kind, made.body.alert_id]);
        assert.ok(typeof e.data.value === 'number', JSON.stringify(e.data));
      }
    } finally {
      sse.close();
    }
    // A client whose sandbox was never reset has no balance: its market order is rejected.
    const other = await clientWithKeys(t.svc, 'alerts-rejected');
    const watch = await create(other.sandbox, { kind: 'order_rejected' });
    const sbx = await SseClient.open(port(), '/v1/alerts/stream', other.sandbox);
    try {
      const o = await place(other.sandbox, 'alert-rejected');
      assert.equal(o.status, 'REJECTED');
      const e = await nextAlert(sbx);
      assert.deepEqual([e.data.alert_id, e.data.node_order_id, e.data.is_sandbox], [watch.body.alert_id, o.node_order_id, true]);
    } finally {
      sbx.close();
    }
  });

  it('resumes with Last-Event-ID: the events after it, each once, then live ones; the log pages', async () => {
    const all = (await events(t.token, '?limit=1000')).body.events;
    assert.ok(all.length >= 5, `events so far: ${all.length}`);
    const ids = all.map((e) => Number(e.event_id));
    assert.deepEqual(ids, ids.map((_, i) => i + 1), 'ids count from 1 without a gap');
    const from = all[1]!.event_id;
    const sse = await SseClient.open(port(), '/v1/alerts/stream', t.token, { 'last-event-id': from });
    try {
      const replayed: string[] = [];
      for (let i = 2; i < all.length; i++) replayed.push((await nextAlert(sse)).id!);
      assert.deepEqual(replayed, all.slice(2).map((e) => e.event_id));
      await place(t.token, 'alert-o3');
      const live = await nextAlert(sse);
      assert.equal(Number(live.id), all.length + 1, 'the next event, live');
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(sse.drain().every((e) => Number(e.id) > all.length + 1), 'nothing replayed twice');
    } finally {
      sse.close();
    }
    // The same by query parameter, filtered to one alert.
    const first = all[0]!;
    const q = await SseClient.open(port(), `/v1/alerts/stream?last_event_id=0&alert_id=${first.alert_id}`, t.token);
    try {
      assert.equal((await nextAlert(q)).id, first.event_id);
    } finally {
      q.close();
    }
    const page = await events(t.token, '?limit=2');
    assert.deepEqual(page.body.events.map((e) => e.event_id), ['1', '2']);
    assert.equal(page.body.next_after, '2');
    assert.equal((await events(t.token, `?after=${all.length - 1}&limit=1000`)).body.events[0]!.event_id, String(all.length));
  });

  it('live and sandbox apart; another client sees nothing; delete', async () => {
    const mineLive = (await call<{ alerts: Alert[] }>(t.base, 'GET', '/v1/alerts', { token: t.token })).body.alerts;
    assert.ok(mineLive.length >= 5 && mineLive.every((a) => !a.is_sandbox));
    const keys = await clientWithKeys(t.svc, 'alerts-other');
    assert.deepEqual((await call<{ alerts: Alert[] }>(t.base, 'GET', '/v1/alerts', { token: keys.live })).body.alerts, []);
    assert.deepEqual((await events(keys.live)).body.events, []);
    const id = mineLive[0]!.alert_id;
    assert.equal((await call(t.base, 'GET', `/v1/alerts/${id}`, { token: keys.live })).status, 404);
    assert.equal((await call(t.base, 'DELETE', `/v1/alerts/${id}`, { token: keys.live })).status, 404);
    const del = await call<Alert>(t.base, 'DELETE', `/v1/alerts/${id}`, { token: t.token });
    assert.equal(del.status, 200);
    assert.equal((await call(t.base, 'GET', `/v1/alerts/${id}`, { token: t.token })).status, 404);
    assert.ok((await events(t.token, '?limit=1000')).body.events.some((e) => e.alert_id === id), 'its past firings stay');
  });

  it('bad requests are 400s in the envelope', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ kind: 'moon' }, 'kind'],
      [{ kind: 'price', symbol: SYMBOL, direction: 'above' }, 'threshold'],
      [{ kind: 'price', symbol: 'NOPE-USDT', direction: 'above', threshold: 1 }, 'symbol'],
      [{ kind: 'price', symbol: SYMBOL, direction: 'sideways', threshold: 1 }, 'direction'],
      [{ kind: 'price', symbol: SYMBOL, direction: 'above', threshold: -5 }, 'threshold'],
      [{ kind: 'edge_stale', edge_id: 'nowhere' }, 'edge_id'],
      [{ kind: 'pnl_below', threshold: 1, symbol: SYMBOL }, 'symbol'],
      [{ kind: 'basis_bps', underlying: 'NOPE', direction: 'above', threshold: 1 }, 'underlying'],
    ];
    for (const [body, field] of bad) {
      const res = await create(t.token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(envelope(res.body).details.some((d) => d.field === field), `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    // A level past a double's range is not finite.
    const huge = await call(t.base, 'POST', '/v1/alerts', { token: t.token, rawBody: `{"kind":"price","symbol":"${SYMBOL}","direction":"above","threshold":1e400}`, headers: { 'content-type': 'application/json' } });
    assert.equal(huge.status, 400, JSON.stringify(huge.body));
    assert.equal(envelope(huge.body).code, 'VALIDATION_ERROR');
    const stream = await call(t.base, 'GET', '/v1/alerts/stream?last_event_id=abc', { token: t.token });
    assert.equal(stream.status, 400);
  });
});

describe('alerts across a restart', () => {
  it('the alerts and their events survive; a stream resumes after the last event it saw', async () => {
    const first = await startTradingService({ client: 'alerts-restart', venues: ['binance'], symbol: SYMBOL });
    const { token } = first;
    const made = await call<Alert>(first.base, 'POST', '/v1/alerts', { token, body: { kind: 'spread_bps', symbol: SYMBOL, threshold: 0, once: false } });
    assert.equal(made.status, 201);
    const fired = await until('the spread alert fires', async () => {
      const res = await call<{ events: AlertEvent[] }>(first.base, 'GET', '/v1/alerts/events', { token });
      return res.body.events.length > 0 ? res.body.events : undefined;
    });
    const dataDir = first.svc.dataDir;
    await first.svc.stop(false);
    const again = await startTestService({ dataDir });
    try {
      const base = again.base;
      const listed = await call<{ alerts: Alert[] }>(base, 'GET', '/v1/alerts', { token });
      assert.deepEqual(listed.body.alerts.map((a) => [a.alert_id, a.armed]), [[made.body.alert_id, false]], 'still waiting for the spread to close before it fires again');
      const log = await call<{ events: AlertEvent[] }>(base, 'GET', '/v1/alerts/events', { token });
      assert.deepEqual(log.body.events.map((e) => e.event_id), fired.map((e) => e.event_id));
      // A repeating alert: one that fires again continues the ids.
      const again2 = await call<Alert>(base, 'POST', '/v1/alerts', { token, body: { kind: 'spread_bps', symbol: SYMBOL, threshold: 0 } });
      assert.equal(again2.status, 201);
      const sse = await SseClient.open(again.service.port, '/v1/alerts/stream', token, { 'last-event-id': fired.at(-1)!.event_id });
      try {
        const e = await sse.next('alert', 15_000);
        assert.equal(e.id, String(Number(fired.at(-1)!.event_id) + 1));
        assert.equal((e.data as AlertEvent).alert_id, again2.body.alert_id);
      } finally {
        sse.close();
      }
    } finally {
      await again.stop();
    }
  });
});
