import type { components, ServiceClient } from '../index.ts';
import { ServiceStream, type StreamFrame } from '../stream.ts';
import { orderFlow, type Intent, type Scenario } from './scenario.ts';
import { summarize, tcaByRoutingVersion, type LatencySummary, type TcaSample, type TcaSummary } from './stats.ts';

type Order = components['schemas']['OrderRest'];
type Fill = components['schemas']['FillRecord'];

/** docs/order-states.md: the statuses an order never leaves. */
const TERMINAL = new Set<string>(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
/** The touch is read again this often while the run lasts: limit prices follow the market. */
const TOUCH_REFRESH_MS = 1_000;
/** Orders read back at the end (a terminal state or TCA the stream did not bring), at most, and how many at once. */
const READ_BACK_MAX = 5_000;
const READ_BACK_CONCURRENCY = 8;

export interface RunOptions {
  /** the typed client; give it `retry: false`, or the report counts a retried 429 as one slow success */
  client: ServiceClient;
  baseUrl: string;
  scenario: Scenario;
  /**
   * Follow each order to its first fill and its end over the unified WebSocket (`orders`,
   * `fills`). Off: acknowledgements only (an echo server has no stream).
   */
  follow: boolean;
  /** orders sent and not yet acknowledged, at most; a due order waits for a slot (and is late) */
  maxInFlight: number;
  /** after the last order is sent, how long to wait for the others to end */
  drainMs: number;
  /** every second */
  onProgress?(p: Progress): void;
  /** a tag for client order ids, so two runs against one account never collide */
  runId: string;
}

export interface Progress {
  elapsed_s: number;
  sent: number;
  acknowledged: number;
  ended: number;
  in_flight: number;
}

export interface BenchReport {
  version: 1;
  base_url: string;
  run_id: string;
  started_at: string;
  scenario: Scenario;
  followed: boolean;
  /** the send window as it happened (the scenario's duration, unless the harness fell behind) */
  elapsed_s: number;
  counts: {
    scheduled: number;
    sent: number;
    acknowledged: number;
    /** refused by HTTP (4xx/5xx) or never answered (network) */
    refused: number;
    completed: number;
    cancelled: number;
    rejected: number;
    unresolved: number;
    /** acknowledged and not seen ending before the drain ran out */
    unfinished: number;
    orders_with_fills: number;
    fills: number;
    /** `cancel` orders that filled before their cancel arrived (409) */
    cancels_too_late: number;
  };
  throughput: { sent_per_s: number; acknowledged_per_s: number; fills_per_s: number };
  /** from each order's scheduled send time (so a harness or service that falls behind shows) */
  latency_ms: {
    acknowledged: LatencySummary;
    first_fill: LatencySummary;
    /** market and limit orders only: a `cancel` order ends when the scenario cancels it (`cancel_ended`) */
    ended: LatencySummary;
    /** DELETE sent to its answer */
    cancel_answered: LatencySummary;
    /** DELETE sent to the order's CANCELLED state */
    cancel_ended: LatencySummary;
  };
  rejects: { reason: string; count: number }[];
  tca: TcaSummary[];
  harness: {
    /** how late the harness sent each order against its schedule */
    send_lateness_ms: LatencySummary;
    in_flight_cap_waits: number;
  };
}

export interface Touch {
  bid_1e9: bigint;
  ask_1e9: bigint;
}

interface Tracked {
  intent: Intent;
  dueMs: number;
  clientOrderId: string;
  nodeOrderId?: string;
  ackMs?: number;
  firstFillMs?: number;
  endMs?: number;
  order?: Order;
  cancelSentMs?: number;
  cancelAnsweredMs?: number;
}

const BPS = 10_000n;

/** A quote's NBBO doubles as exact `_1e9` integers: the decimal each double prints as, by digits. */
export function touchOf(nbbo: { bid: number; ask: number }): Touch {
  const scaled9 = (x: number) => BigInt(x.toFixed(9).replace('.', ''));
  return { bid_1e9: scaled9(nbbo.bid), ask_1e9: scaled9(nbbo.ask) };
}

export const midOf = (touch: Touch): bigint => (touch.bid_1e9 + touch.ask_1e9) / 2n;

/** The limit price of an intent: through the touch for `limit`, behind it for `cancel`; null for `market`. */
export function limitPrice(intent: Intent, touch: Touch, scenario: Scenario): bigint | null {
  const buy = intent.side === 'buy';
  if (intent.kind === 'market') return null;
  const bps = BigInt(intent.kind === 'limit' ? scenario.limit_cross_bps : -scenario.passive_bps);
  const ref = buy ? (intent.kind === 'limit' ? touch.ask_1e9 : touch.bid_1e9) : intent.kind === 'limit' ? touch.bid_1e9 : touch.ask_1e9;
  const p = buy ? (ref * (BPS + bps)) / BPS : (ref * (BPS - bps)) / BPS;
  return p > 0n ? p : 1n;
}

/** The intent's notional at the mid as a `_1e8` quantity, rounded down. */
export function quantity(intent: Intent, touch: Touch): bigint {
  const mid = midOf(touch);
  return mid <= 0n ? 0n : (BigInt(intent.notional_usd_1e9) * 100_000_000n) / mid;
}

const asNumber = (v: bigint): number => Number(v);

/**
 * Replays a scenario against a service and measures it from the client's side. Orders are sent
 * on their schedule whether or not earlier ones were answered (an open loop, up to
 * `maxInFlight` unanswered), and every latency is taken from the order's scheduled time, so a
 * service that slows down shows as latency, not as a quietly slower send rate.
 */
export async function runBench(options: RunOptions): Promise<BenchReport> {
  const { client, scenario } = options;
  const startedAt = new Date().toISOString();
  const tracked = new Map<string, Tracked>();
  const byNodeId = new Map<string, Tracked>();
  /** first fills seen before their order was known by node id */
  const earlyFills = new Map<string, number>();
  const rejects = new Map<string, number>();
  const lateness: number[] = [];
  /** the account may trade besides the run: only the run's own orders' fills count */
  const fillsByNodeId = new Map<string, number>();
  let sent = 0;
  let acknowledged = 0;
  let refused = 0;
  let ended = 0;
  let inFlight = 0;
  let capWaits = 0;
  let cancelsTooLate = 0;
  const slotWaiters: (() => void)[] = [];
  const reject = (reason: string) => rejects.set(reason, (rejects.get(reason) ?? 0) + 1);

  const touches = new Map<string, Touch>();
  const readTouch = async (symbol: string) => {
    const q = await client.GET('/v1/quotes/{symbol}', { params: { path: { symbol } } });
    if (q.data === undefined) throw new Error(`quote ${symbol}: ${q.response.status} ${JSON.stringify(q.error)}`);
    const { bid, ask } = q.data.nbbo;
    if (!(bid > 0 && ask > 0)) throw new Error(`quote ${symbol}: no two-sided NBBO (bid ${bid}, ask ${ask})`);
    touches.set(symbol, touchOf(q.data.nbbo));
  };
  for (const symbol of scenario.symbols) await readTouch(symbol);

  const onEnd = (t: Tracked, order: Order, at: number) => {
    t.order = order;
    if (t.endMs !== undefined) return;
    t.endMs = at;
    ended++;
    if (order.status === 'REJECTED') reject(`rejected: ${order.failure_class ?? '-'}: ${order.failure_reason ?? '-'}`);
  };
  const onOrder = (order: Order, at: number) => {
    const t = tracked.get(order.client_order_id);
    if (t === undefined) return;
    if (t.nodeOrderId === undefined) {
      t.nodeOrderId = order.node_order_id;
      byNodeId.set(order.node_order_id, t);
    }
    const early = earlyFills.get(order.node_order_id);
    if (early !== undefined && t.firstFillMs === undefined) t.firstFillMs = early;
    if (TERMINAL.has(order.status)) onEnd(t, order, at);
    // The submit's answer and the stream race: an answer that arrives after the order's terminal
    // frame is an older state, never the order's last word.
    else if (t.endMs === undefined && (t.order === undefined || order.updated_unix_ns >= t.order.updated_unix_ns)) t.order = order;
  };
  const onFill = (fill: Fill, at: number) => {
    const t = byNodeId.get(fill.node_order_id);
    fillsByNodeId.set(fill.node_order_id, (fillsByNodeId.get(fill.node_order_id) ?? 0) + 1);
    if (t === undefined) {
      if (!earlyFills.has(fill.node_order_id)) earlyFills.set(fill.node_order_id, at);
    } else if (t.firstFillMs === undefined) t.firstFillMs = at;
  };

  let stream: ServiceStream | undefined;
  if (options.follow) {
    stream = new ServiceStream({
      client,
      baseUrl: options.baseUrl,
      onFrame: (frame: StreamFrame) => {
        const at = performance.now();
        if (frame.channel === 'orders') onOrder(frame.data as Order, at);
        else if (frame.channel === 'fills') onFill(frame.data as Fill, at);
      },
    });
    stream.subscribe(['orders', 'fills']);
    await stream.connect();
  }

  const refresh = setInterval(() => {
    for (const symbol of scenario.symbols) void readTouch(symbol).catch(() => undefined);
  }, TOUCH_REFRESH_MS);
  refresh.unref();

  const release = () => {
    inFlight--;
    slotWaiters.shift()?.();
  };

  const cancel = async (t: Tracked) => {
    t.cancelSentMs = performance.now();
    try {
      const r = await client.DELETE('/v1/orders/{node_order_id}', { params: { path: { node_order_id: t.nodeOrderId! } } });
      t.cancelAnsweredMs = performance.now();
      if (r.response.status === 409) cancelsTooLate++;
      else if (r.error !== undefined) reject(`cancel: http ${r.response.status} ${(r.error as { error?: { code?: string } }).error?.code ?? ''}`.trim());
    } catch (err) {
      reject(`cancel: network ${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name}`);
    }
  };

  const send = async (intent: Intent, dueMs: number) => {
    const touch = touches.get(intent.symbol)!;
    const t: Tracked = { intent, dueMs, clientOrderId: `${options.runId}-${intent.seq}` };
    tracked.set(t.clientOrderId, t);
    const limit = limitPrice(intent, touch, scenario);
    sent++;
    try {
      const r = await client.POST('/v1/orders', {
        body: {
          client_order_id: t.clientOrderId,
          symbol: intent.symbol,
          side: intent.side,
          order_type: limit === null ? 'market' : 'limit',
          // bigints past 2^53 would travel exactly (the client's serializer); these never are
          qty_1e8: asNumber(quantity(intent, touch)),
          ...(limit === null ? {} : { limit_price_1e9: asNumber(limit), time_in_force: intent.kind === 'cancel' ? ('gtc' as const) : ('ioc' as const) }),
        },
      });
      const at = performance.now();
      if (r.data === undefined) {
        refused++;
        tracked.delete(t.clientOrderId);
        reject(`http ${r.response.status} ${(r.error as { error?: { code?: string } } | undefined)?.error?.code ?? ''}`.trim());
        return;
      }
      acknowledged++;
      t.ackMs = at;
      onOrder(r.data, at);
      if (intent.kind === 'cancel' && t.endMs === undefined) {
        setTimeout(() => void cancel(t), intent.cancel_after_ms);
      }
    } catch (err) {
      refused++;
      tracked.delete(t.clientOrderId);
      reject(`network ${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name}`);
    } finally {
      release();
    }
  };

  const t0 = performance.now();
  const progress = options.onProgress === undefined ? undefined : setInterval(() => {
    options.onProgress!({ elapsed_s: Math.round((performance.now() - t0) / 100) / 10, sent, acknowledged, ended, in_flight: inFlight });
  }, 1_000);
  let scheduled = 0;
  const windowEnd = t0 + scenario.duration_s * 1_000;
  const flow = orderFlow(scenario);
  // A harness (or service) that falls behind stops at the window's end rather than sending the
  // backlog late: the orders left unsent are counted (`scheduled` - `sent`), not hidden.
  for (let next = flow.next(); !next.done; next = flow.next()) {
    scheduled++;
    const intent = next.value;
    const due = t0 + intent.at_ms;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
    while (inFlight >= options.maxInFlight) {
      capWaits++;
      await new Promise<void>((r) => slotWaiters.push(r));
    }
    if (performance.now() >= windowEnd) break;
    inFlight++;
    lateness.push(Math.max(0, performance.now() - due));
    void send(intent, due);
  }
  const sendWindowS = (performance.now() - t0) / 1_000;
  for (let next = flow.next(); !next.done; next = flow.next()) scheduled++;
  while (inFlight > 0) await new Promise<void>((r) => slotWaiters.push(r));

  // The rest end on their own (IOCs, cancels due) or the drain runs out.
  const drainUntil = performance.now() + options.drainMs;
  const open = () => [...tracked.values()].filter((t) => t.ackMs !== undefined && t.endMs === undefined);
  while (options.follow && open().length > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
  clearInterval(refresh);
  if (progress !== undefined) clearInterval(progress);
  stream?.close();

  // What the stream did not bring (or, unfollowed, everything): the orders read back once.
  const readBack = [...tracked.values()].filter((t) => t.nodeOrderId !== undefined && (t.endMs === undefined || (t.order?.status === 'COMPLETED' && t.order.tca === null)));
  const queue = readBack.slice(0, options.follow ? READ_BACK_MAX : 0);
  await Promise.all(
    Array.from({ length: READ_BACK_CONCURRENCY }, async () => {
      for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
        const r = await client.GET('/v1/orders/{node_order_id}', { params: { path: { node_order_id: t.nodeOrderId! } } }).catch(() => undefined);
        if (r?.data !== undefined) t.order = r.data;
      }
    }),
  );
  // Cleanup: nothing the run placed stays resting on a book after it.
  const leftovers = [...tracked.values()].filter((t) => t.nodeOrderId !== undefined && t.endMs === undefined && (t.order === undefined || !TERMINAL.has(t.order.status)));
  if (options.follow) await Promise.all(leftovers.map((t) => client.DELETE('/v1/orders/{node_order_id}', { params: { path: { node_order_id: t.nodeOrderId! } } }).catch(() => undefined)));

  const all = [...tracked.values()].filter((t) => t.ackMs !== undefined);
  const since = (pick: (t: Tracked) => number | undefined, from: (t: Tracked) => number | undefined = (t) => t.dueMs) =>
    all.flatMap((t) => {
      const a = from(t);
      const b = pick(t);
      return a === undefined || b === undefined ? [] : [b - a];
    });
  const status = (s: string) => all.filter((t) => t.order?.status === s).length;
  const tca: TcaSample[] = all.flatMap((t) => {
    const x = t.order?.tca;
    if (t.order === undefined || x === null || x === undefined) return [];
    return [{
      routing_version: t.order.routing_version,
      notional_usd_1e9: Number(x.notional_usd_1e9),
      implementation_shortfall_bps: x.implementation_shortfall_bps,
      total_cost_bps: x.total_cost_bps,
      savings_vs_best_single_venue_bps: x.savings_vs_best_single_venue_bps,
      savings_usd_1e9: Number(x.savings_usd_1e9),
    }];
  });
  const fills = all.reduce((n, t) => n + (fillsByNodeId.get(t.nodeOrderId!) ?? 0), 0);
  const per = (n: number) => Math.round((n / sendWindowS) * 100) / 100;
  return {
    version: 1,
    base_url: options.baseUrl,
    run_id: options.runId,
    started_at: startedAt,
    scenario,
    followed: options.follow,
    elapsed_s: Math.round(sendWindowS * 1000) / 1000,
    counts: {
      scheduled,
      sent,
      acknowledged,
      refused,
      completed: status('COMPLETED'),
      cancelled: status('CANCELLED'),
      rejected: status('REJECTED'),
      unresolved: status('UNRESOLVED'),
      unfinished: all.filter((t) => t.order === undefined || !TERMINAL.has(t.order.status)).length,
      orders_with_fills: all.filter((t) => t.firstFillMs !== undefined || (t.order?.filled_qty_1e8 ?? 0) > 0).length,
      fills,
      cancels_too_late: cancelsTooLate,
    },
    throughput: { sent_per_s: per(sent), acknowledged_per_s: per(acknowledged), fills_per_s: per(fills) },
    latency_ms: {
      acknowledged: summarize(since((t) => t.ackMs)),
      first_fill: summarize(since((t) => t.firstFillMs)),
      // a `cancel` order ends when the scenario cancels it: its end is `cancel_ended`, not a round trip
      ended: summarize(since((t) => (t.intent.kind === 'cancel' ? undefined : t.endMs))),
      cancel_answered: summarize(since((t) => t.cancelAnsweredMs, (t) => t.cancelSentMs)),
      cancel_ended: summarize(since((t) => (t.order?.status === 'CANCELLED' ? t.endMs : undefined), (t) => t.cancelSentMs)),
    },
    rejects: [...rejects].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    tca: tcaByRoutingVersion(tca),
    harness: { send_lateness_ms: summarize(lateness), in_flight_cap_waits: capWaits },
  };
}
