import { Unpackr } from 'msgpackr';
import type { FillRecord, Mode, OrderRecord } from '../../domain/orders.ts';
import type { Logger } from '../../engine/actor.ts';
import type { AlertStore, StoredAlert, StoredAlertEvent } from '../../storage/alerts.ts';
import { randomBase62 } from '../../storage/random.ts';
import { levelHolds, observedValue, orderMatches, step, type Observation } from './conditions.ts';
import { alertIdentity, LEVEL_KINDS, MAX_ALERTS_PER_OWNER, MAX_EVENTS_PER_OWNER, type AlertEvent, type AlertRecord, type AlertSpec } from './types.ts';

/** What the level alerts read; the service wires it to the quote cache, the fair price, the edges and the routers. */
export interface AlertSources {
  /** The NBBO in 1e9 units, undefined when the symbol has no book yet. */
  nbbo(symbol: string): { bid_1e9: number; ask_1e9: number } | undefined;
  /** The fair-price basis of an underlying in bps, null when a leg is missing. */
  basis(underlying: string): Promise<number | null>;
  edges(): Promise<readonly { edge_id: string; connected: boolean; last_seen_ms: number }[]>;
  /** Realised + unrealised PnL over every position, USD 1e9. */
  pnl(client: string, mode: Mode): Promise<bigint>;
}

export type AlertListener = (client: string, mode: Mode, event: AlertEvent) => void;

/** Market levels are looked at every tick; asked sources (fair price, edges, PnL) every `slowEvery` ticks. */
const TICK_MS = 250;
const SLOW_EVERY = 4;

const owner = (client: string, mode: Mode) => `${client}\u0000${mode}`;

/**
 * The alerts of every client on the gateway thread: the records in memory (written through to
 * LMDB), the order kinds told by the journal stage, the level kinds looked at by a timer. A firing
 * and its alert's new state go into one transaction; listeners hear of it once it is on disk.
 */
export class AlertBook {
  private readonly alerts = new Map<string, Map<string, AlertRecord>>();
  /** client -> mode -> active order-kind alerts: the journal stage asks this before decoding anything */
  private readonly orderWatch = new Map<string, Map<Mode, number>>();
  private readonly seqs = new Map<string, number>();
  private readonly listeners: AlertListener[] = [];
  private readonly unpackr = new Unpackr({ mapsAsObjects: true, useRecords: false });
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  private slowBusy = false;

  constructor(
    private readonly store: AlertStore,
    private readonly sources: AlertSources,
    private readonly log: Logger,
  ) {}

  /** Loads the stored alerts and starts the timer. */
  start(): void {
    for (const s of this.store.all()) this.remember(fromStored(s));
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  onFired(listener: AlertListener): void {
    this.listeners.push(listener);
  }

  /** A new alert, durable when this resolves; undefined when the client already keeps the most it may. */
  async create(client: string, mode: Mode, spec: AlertSpec, nowMs = Date.now()): Promise<AlertRecord | undefined> {
    const mine = this.alerts.get(owner(client, mode));
    if (mine !== undefined && mine.size >= MAX_ALERTS_PER_OWNER) return undefined;
    const record: AlertRecord = { ...spec, alert_id: `alrt_${randomBase62(16)}`, client_id: client, mode, status: 'active', armed: true, fired_count: 0, created_at_ms: nowMs, last_fired_at_ms: null };
    this.remember(record);
    this.store.put(toStored(record));
    // A level already true fires while the write is flushed; the answer is the alert as made.
    const made = { ...record };
    await this.store.durable();
    return made;
  }

  list(client: string, mode: Mode): AlertRecord[] {
    return [...(this.alerts.get(owner(client, mode))?.values() ?? [])].sort((a, b) => a.created_at_ms - b.created_at_ms || (a.alert_id < b.alert_id ? -1 : 1));
  }

  get(client: string, mode: Mode, alertId: string): AlertRecord | undefined {
    return this.alerts.get(owner(client, mode))?.get(alertId);
  }

  /** Deletes an alert (durable when this resolves); its past events stay. */
  async remove(client: string, mode: Mode, alertId: string): Promise<AlertRecord | undefined> {
    const record = this.get(client, mode, alertId);
    if (record === undefined) return undefined;
    this.forget(record);
    this.store.remove(client, mode, alertId);
    await this.store.durable();
    return record;
  }

  /** Stored events after `after`, oldest first. */
  events(client: string, mode: Mode, after: number, limit: number): AlertEvent[] {
    return this.store.eventsAfter(client, mode, after, limit) as unknown as AlertEvent[];
  }

  /** Whether the journal should tell this client's order and fill writes (cheap: two map reads). */
  watchesOrders(client: string, mode: Mode): boolean {
    return (this.orderWatch.get(client)?.get(mode) ?? 0) > 0;
  }

  /** The journal stage wrote an order (encoded as the router stored it). */
  orderWritten(client: string, mode: Mode, status: string, previous: string | null, value: Uint8Array): void {
    if (status !== 'REJECTED' || previous === 'REJECTED') return;
    const order = this.unpackr.unpack(value) as OrderRecord;
    for (const a of this.owned(client, mode)) {
      if (a.kind !== 'order_rejected' || a.status !== 'active' || !orderMatches(a, order)) continue;
      this.fire(a, null, `order ${order.node_order_id} rejected${order.failure_reason ? `: ${order.failure_reason}` : ''}`, { node_order_id: order.node_order_id, symbol: order.symbol, reason: order.failure_reason });
    }
  }

  /** The journal stage wrote a fill. */
  fillWritten(client: string, mode: Mode, value: Uint8Array): void {
    const fill = this.unpackr.unpack(value) as FillRecord;
    for (const a of this.owned(client, mode)) {
      if (a.kind !== 'fill' || a.status !== 'active' || !orderMatches(a, fill)) continue;
      const message = `fill ${fill.fill_id}: ${fill.side} ${fill.qty_1e8 / 1e8} ${fill.symbol} at ${fill.price_1e9 / 1e9} on ${fill.venue}`;
      this.fire(a, null, message, { node_order_id: fill.node_order_id, symbol: fill.symbol, fill_id: fill.fill_id, venue: fill.venue });
    }
  }

  /** A client's alerts in a mode (firing changes an alert, never the map). */
  private owned(client: string, mode: Mode): Iterable<AlertRecord> {
    return this.alerts.get(owner(client, mode))?.values() ?? [];
  }

  /** Looks at every active level alert: NBBO levels each tick, asked sources every few. */
  private tick(): void {
    this.ticks++;
    const slow = this.ticks % SLOW_EVERY === 0 && !this.slowBusy;
    const basis: AlertRecord[] = [];
    const stale: AlertRecord[] = [];
    const pnl: AlertRecord[] = [];
    for (const mine of this.alerts.values()) {
      for (const a of mine.values()) {
        if (a.status !== 'active' || !LEVEL_KINDS.has(a.kind)) continue;
        if (a.kind === 'price' || a.kind === 'spread_bps') {
          const n = this.sources.nbbo(a.symbol!);
          if (n === undefined || !(n.bid_1e9 > 0 && n.ask_1e9 > n.bid_1e9)) continue;
          // The mid in 1e9 units, floored: an integer comparison with the threshold.
          const mid = Math.floor((n.bid_1e9 + n.ask_1e9) / 2);
          this.observe(a, a.kind === 'price' ? { kind: 'price', mid_1e9: mid } : { kind: 'spread_bps', spread_bps: ((n.ask_1e9 - n.bid_1e9) * 10_000) / mid });
        } else if (slow) (a.kind === 'basis_bps' ? basis : a.kind === 'edge_stale' ? stale : pnl).push(a);
      }
    }
    if (basis.length + stale.length + pnl.length > 0) {
      this.slowBusy = true;
      this.lookSlow(basis, stale, pnl)
        .catch((err: unknown) => this.log.warn({ err }, 'alert sources not read'))
        .finally(() => (this.slowBusy = false));
    }
  }

  private async lookSlow(basis: AlertRecord[], stale: AlertRecord[], pnl: AlertRecord[]): Promise<void> {
    const underlyings = [...new Set(basis.map((a) => a.underlying!))];
    const owners = [...new Map(pnl.map((a) => [owner(a.client_id, a.mode), a])).values()];
    const [bases, edges, pnls] = await Promise.all([
      Promise.all(underlyings.map((u) => this.sources.basis(u).catch(() => null))),
      stale.length > 0 ? this.sources.edges() : Promise.resolve([]),
      Promise.all(owners.map((a) => this.sources.pnl(a.client_id, a.mode).catch(() => undefined))),
    ]);
    const now = Date.now();
    for (const a of basis) {
      const b = bases[underlyings.indexOf(a.underlying!)];
      if (b != null) this.observe(a, { kind: 'basis_bps', basis_bps: b });
    }
    for (const a of stale) {
      const e = edges.find((x) => x.edge_id === a.edge_id);
      if (e !== undefined) this.observe(a, { kind: 'edge_stale', connected: e.connected, stale_s: e.last_seen_ms > 0 ? Math.max(0, (now - e.last_seen_ms) / 1_000) : Infinity });
    }
    for (const a of pnl) {
      const p = pnls[owners.findIndex((o) => o.client_id === a.client_id && o.mode === a.mode)];
      if (p !== undefined) this.observe(a, { kind: 'pnl_below', pnl_usd_1e9: p });
    }
  }

  /** Applies an observation to a level alert: fires, re-arms, or nothing. A deleted alert is skipped. */
  private observe(a: AlertRecord, o: Observation): void {
    if (this.get(a.client_id, a.mode, a.alert_id) !== a) return;
    const { fire, armed } = step(a, levelHolds(a, o));
    if (fire) {
      const value = observedValue(o);
      this.fire(a, Number.isFinite(value) ? value : null, levelMessage(a, value));
    } else if (armed !== a.armed) {
      a.armed = armed;
      this.store.put(toStored(a));
    }
  }

  /** A firing: the event and the alert's new state in this turn's transaction, heard once durable. */
  private fire(a: AlertRecord, value: number | null, message: string, more: Partial<AlertEvent> = {}): void {
    const key = owner(a.client_id, a.mode);
    const seq = (this.seqs.get(key) ?? this.store.lastSeq(a.client_id, a.mode)) + 1;
    this.seqs.set(key, seq);
    const now = Date.now();
    const event: AlertEvent = {
      ...alertIdentity(a),
      seq,
      value,
      message,
      fired_at_ms: now,
      ...more,
    };
    a.fired_count++;
    a.last_fired_at_ms = now;
    a.armed = false;
    if (a.once) {
      a.status = 'fired';
      this.unwatch(a);
    }
    this.store.putEvent(a.client_id, a.mode, event as unknown as StoredAlertEvent, MAX_EVENTS_PER_OWNER);
    this.store.put(toStored(a));
    this.store.durable().then(
      () => {
        for (const l of this.listeners) l(a.client_id, a.mode, event);
      },
      (err: unknown) => this.log.error({ err, alert_id: a.alert_id }, 'alert event not durable: not published'),
    );
  }

  private remember(a: AlertRecord): void {
    const key = owner(a.client_id, a.mode);
    let mine = this.alerts.get(key);
    if (mine === undefined) this.alerts.set(key, (mine = new Map()));
    mine.set(a.alert_id, a);
    if (a.status === 'active' && !LEVEL_KINDS.has(a.kind)) this.watch(a, 1);
  }

  private forget(a: AlertRecord): void {
    const key = owner(a.client_id, a.mode);
    const mine = this.alerts.get(key);
    mine?.delete(a.alert_id);
    if (mine?.size === 0) this.alerts.delete(key);
    if (a.status === 'active') this.unwatch(a);
  }

  /** An active order-kind alert stops watching (fired for good, or deleted). */
  private unwatch(a: AlertRecord): void {
    if (!LEVEL_KINDS.has(a.kind)) this.watch(a, -1);
  }

  private watch(a: AlertRecord, by: 1 | -1): void {
    let modes = this.orderWatch.get(a.client_id);
    if (modes === undefined) this.orderWatch.set(a.client_id, (modes = new Map()));
    const n = (modes.get(a.mode) ?? 0) + by;
    if (n > 0) modes.set(a.mode, n);
    else modes.delete(a.mode);
    if (modes.size === 0) this.orderWatch.delete(a.client_id);
  }
}

function levelMessage(a: AlertRecord, value: number): string {
  switch (a.kind) {
    case 'price':
      return `${a.symbol} mid ${value} ${a.direction} ${a.threshold}`;
    case 'spread_bps':
      return `${a.symbol} spread ${value.toFixed(2)} bps ${a.direction} ${a.threshold}`;
    case 'basis_bps':
      return `${a.underlying} basis ${value.toFixed(2)} bps ${a.direction} ${a.threshold}`;
    case 'pnl_below':
      return `total PnL ${value.toFixed(2)} USD below ${a.threshold}`;
    default:
      return Number.isFinite(value) ? `${a.edge_id} has not published for ${value.toFixed(1)} s` : `${a.edge_id} is disconnected`;
  }
}

function toStored(a: AlertRecord): StoredAlert {
  return { ...a, threshold_1e9: a.threshold_1e9 === null ? null : String(a.threshold_1e9) };
}

function fromStored(s: StoredAlert): AlertRecord {
  const r = s as unknown as AlertRecord & { threshold_1e9: string | null };
  return { ...r, threshold_1e9: r.threshold_1e9 === null ? null : BigInt(r.threshold_1e9) };
}
