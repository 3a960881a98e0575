import { pack, unpack } from 'msgpackr';
import { RequestError, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { RecentMap } from '../../domain/recent.ts';
import type { ReconcileLegFacts } from '../edge/messages.ts';
import type { ChildReply, ChildRequest } from './child-protocol.ts';
import { Side, type VenueId } from '../../domain/market.ts';
import type { Logger } from '../../engine/actor.ts';
import { L2Book } from '../edge/live/l2-book.ts';
import { liveRouterOf } from '../edge/live/desk.ts';
import { refusedLeg, type AccountProbe, type LegReport, type LegRequest, type LiveVenue, type MarketSink, type OrderLookup, type RemoteOrigin, type VenueAccount } from '../edge/live/venue.ts';
import type { SimEdgeSpec } from '../edge/sim/catalog.ts';
import { joinNats, leaveNats } from './connection.ts';
import { RemoteBookSync, type RemoteBookMessage } from './remote-books.ts';
import { RemoteEdges, type EdgeStatusMessage } from './remote-edges.ts';
import { anyRegionEdgeStatusSubject, bookSnapshotSubject, childOrderSubject, edgeBooksSubject, pingSubject } from './subjects.ts';

/** How often the node running the edge is pinged (its round trip is half of an order's way there). */
const PING_MS = 1_000;
/** How often silence is checked: a node that stops speaking is down within REMOTE_SILENCE_MS and this. */
const WATCH_MS = 250;
const SNAPSHOT_TIMEOUT_MS = 2_000;
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
/**
 * A child's request: past this its fate is unknown here (the router's leg goes `UNCONFIRMED`
 * after 2 s, then reconciles by a lookup), the serving node's edge may take up to 5 s.
 */
const CHILD_TIMEOUT_MS = 2_500;

/** A book message as published: the publisher's run (`epoch`) beside the numbered message. */
export type PublishedBookMessage = RemoteBookMessage & { epoch: number };

interface Mirror {
  sync: RemoteBookSync;
  book: L2Book;
  /** the publisher's run this mirror follows: a restarted publisher numbers from 1 again */
  epoch: number;
  retryMs: number;
  asking: boolean;
}

/** Where this node stands among the regions, as a remote edge needs it. */
export interface RegionSettings {
  natsUrls: string[];
  localRegion: string;
}

/**
 * An edge that runs on another region's node, seen from this one: a `LiveVenue` whose venue is
 * that node. Its books come over NATS (numbered deltas kept exact by `RemoteBookSync`, a gap or
 * a restarted publisher healed by a snapshot request), its status says whether that node's edge
 * is up and how old its data is, and its latency is the edge's own plus half the measured round
 * trip to that node. `LiveEdgeActor` does the rest as for any real venue: books to the book
 * actors and the depth cache only while whole, sandbox legs against this book.
 *
 * Child orders go to that node by request/reply (`child-protocol.ts`), where `child-server.ts`
 * runs each once on the real edge; `LiveOrders` around this venue keeps the usual rules: a lost
 * answer is looked up by child id (never guessed), a resting child is polled for maker fills.
 */
export class RegionVenue implements LiveVenue {
  readonly venue: VenueId;
  readonly acceptWindowMs = 5_000;
  private sink: MarketSink | undefined;
  private nc: NatsConnection | undefined;
  private readonly subs: Subscription[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly mirrors = new Map<string, Mirror>();
  private readonly listed: Set<string>;
  private readonly status: RemoteEdges;
  /** what a lookup tells the serving node of a child sent from here (its edge may have lost its record) */
  private readonly sent = new RecentMap<string, ReconcileLegFacts>(20_000);
  /** the region each child went to: a lookup goes there even if the edge moved */
  private readonly regionOf = new RecentMap<string, string>(20_000);
  private stopped = false;
  private up = false;
  /** when the last book message arrived, by this node's clock */
  private lastBookMs = 0;
  private counts = { updates: 0, resyncs: 0, disconnects: 0 };

  constructor(
    private readonly spec: SimEdgeSpec,
    private readonly region: RegionSettings,
    private readonly log: Logger,
  ) {
    this.venue = spec.venue;
    this.listed = new Set(spec.listings.map((l) => l.symbol));
    this.status = new RemoteEdges(region.localRegion);
  }

  start(sink: MarketSink): void {
    this.sink = sink;
    joinNats(this.region.natsUrls, `seq-${this.region.localRegion}`).then(
      (nc) => this.attach(nc),
      (err: unknown) => this.log.error({ edge: this.spec.edge_id, err: (err as Error).message }, 'remote edge: NATS not reached'),
    );
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const s of this.subs) s.unsubscribe();
    leaveNats(this.region.natsUrls);
  }

  subscribe(symbol: string): boolean {
    return this.listed.has(symbol);
  }

  book(symbol: string): L2Book | undefined {
    const mirror = this.mirrors.get(symbol);
    return mirror?.sync.whole ? mirror.book : undefined;
  }

  stats(): { connected: boolean; subscribed: number; resyncs: number; disconnects: number; updates: number } {
    const view = this.view();
    const streamed = view === undefined ? 0 : view.symbols.filter((s) => this.listed.has(s.symbol)).length;
    return { connected: view?.connected ?? false, subscribed: streamed, ...this.counts };
  }

  /**
   * Where the edge is and how far. The age is the status's (its data's age at sending, plus
   * since, plus half the round trip) unless a book update arrived since: then from that
   * arrival, plus half the round trip. Before the first status: the catalog's region and the
   * venue's nominal latency.
   */
  remote(): RemoteOrigin {
    const view = this.view();
    if (view === undefined) return { region: this.spec.region, age_ms: undefined, latency_ms: this.spec.market.latency_ms };
    const rtt = this.status.roundTrip(view.region) ?? 0;
    const sinceBook = this.lastBookMs === 0 ? Infinity : Date.now() - this.lastBookMs + rtt / 2;
    return { region: view.region, age_ms: Math.round(Math.min(view.age_ms, sinceBook)), latency_ms: view.latency_ms };
  }

  // Orders: each child goes to the node running the edge by request/reply (child-server.ts there).

  async submit(account: VenueAccount, leg: LegRequest): Promise<LegReport> {
    const view = this.view();
    // Never sent: a definite refusal the router reports (the SOR does not pick an edge that is down).
    if (view === undefined || !view.connected) return refusedLeg(`remote_edge_down: ${this.spec.edge_id} runs in ${view?.region ?? 'another region'} and is not connected`);
    const owner = liveRouterOf(account.client_id);
    const gtc = leg.time_in_force === 'gtc';
    this.sent.set(leg.child_id, { client_id: account.client_id, owner, symbol: leg.symbol, resting: gtc, sent_ms: Date.now(), qty_1e8: leg.qty_1e8 }, Date.now());
    this.regionOf.set(leg.child_id, view.region, Date.now());
    const request: ChildRequest = { v: 1, op: 'submit', home: this.region.localRegion, owner, child_id: leg.child_id, symbol: leg.symbol, side: leg.side, qty_1e8: leg.qty_1e8, limit_price_1e9: leg.limit_price_1e9, tif: leg.time_in_force };
    let reply: ChildReply;
    try {
      reply = await this.ask(view.region, request);
    } catch (err) {
      // Nobody serves the subject: the request reached no node, so nothing ran. Anything else
      // (a timeout) leaves its fate to the lookup.
      if (err instanceof RequestError && err.isNoResponders()) return refusedLeg(`remote_edge_unreachable: no node of region ${view.region} serves ${this.spec.edge_id}`);
      throw err;
    }
    if ('report' in reply) return reply.report;
    throw new Error('unknown' in reply ? reply.unknown : 'an answer that is not a report');
  }

  async cancel(account: VenueAccount, child_id: string): Promise<{ found: boolean; cancelled_qty_1e8: number }> {
    const reply = await this.ask(this.regionFor(child_id), { v: 1, op: 'cancel', home: this.region.localRegion, child_id });
    if ('cancel' in reply) return reply.cancel;
    throw new Error('unknown' in reply ? reply.unknown : `cancel of ${child_id} not answered (${account.client_id})`);
  }

  async lookup(account: VenueAccount, child_id: string, symbol: string): Promise<OrderLookup> {
    const facts = this.sent.get(child_id) ?? { client_id: account.client_id, owner: liveRouterOf(account.client_id), symbol, resting: false, sent_ms: Date.now(), qty_1e8: 0 };
    const reply = await this.ask(this.regionFor(child_id), { v: 1, op: 'lookup', home: this.region.localRegion, child_id, facts });
    if ('lookup' in reply) return reply.lookup;
    throw new Error('unknown' in reply ? reply.unknown : `lookup of ${child_id} not answered`);
  }

  /** The region a child went to; one never sent from here goes where the edge runs now. */
  private regionFor(child_id: string): string {
    const region = this.regionOf.get(child_id) ?? this.view()?.region;
    if (region === undefined) throw new Error(`${this.spec.edge_id}: no region known to run it yet`);
    return region;
  }

  private async ask(region: string, request: ChildRequest): Promise<ChildReply> {
    const nc = this.nc;
    if (nc === undefined || nc.isClosed()) throw new Error('not connected to NATS');
    const msg = await nc.request(childOrderSubject(region, this.spec.edge_id), pack(request), { timeout: CHILD_TIMEOUT_MS });
    return unpack(msg.data) as ChildReply;
  }

  ownOpenOrders(): Promise<{ child_id: string; symbol: string }[]> {
    return Promise.resolve([]);
  }

  cancelAll(): Promise<number> {
    return Promise.resolve(0);
  }

  balances(): Promise<[]> {
    return Promise.resolve([]);
  }

  probe(): Promise<AccountProbe> {
    return Promise.resolve({ tier: 'base', maker_bps: this.spec.maker_bps, taker_bps: this.spec.taker_bps, can_trade: true, can_withdraw: null });
  }

  private view() {
    return this.status.list(Date.now()).find((e) => e.edge_id === this.spec.edge_id);
  }

  private attach(nc: NatsConnection): void {
    if (this.stopped) return;
    this.nc = nc;
    const edge = this.spec.edge_id;
    this.subs.push(nc.subscribe(edgeBooksSubject(edge), { callback: this.decoded((m: PublishedBookMessage) => this.onBook(m)) }));
    this.subs.push(nc.subscribe(anyRegionEdgeStatusSubject(edge), { callback: this.decoded((m: EdgeStatusMessage) => this.onStatus(m)) }));
    this.timers.push(setInterval(() => this.watch(), WATCH_MS));
    this.timers.push(setInterval(() => this.ping(), PING_MS));
    this.log.info({ edge, venue: this.venue }, 'remote edge: following its books over NATS');
  }

  /** A subscription's callback: a message that does not decode is logged and dropped, never a thrown worker. */
  private decoded<T>(handle: (m: T) => void): (err: Error | null, msg: Msg) => void {
    return (err, msg) => {
      if (err !== null) return;
      try {
        handle(unpack(msg.data) as T);
      } catch (e) {
        this.log.warn({ edge: this.spec.edge_id, subject: msg.subject, err: (e as Error).message }, 'remote edge: a message not understood was dropped');
      }
    };
  }

  private onStatus(status: EdgeStatusMessage): void {
    if (!this.status.apply(status, Date.now())) return;
    if (status.connected) this.up = true;
    this.watch();
  }

  /** The node running the edge went silent, or says its edge is down: nothing routes on its books until they are whole again. */
  private watch(): void {
    const connected = this.view()?.connected ?? false;
    if (connected || !this.up) return;
    this.up = false;
    this.counts.disconnects++;
    for (const [symbol, mirror] of this.mirrors) {
      this.sink!.onBookBroken(symbol, 'remote edge down or its node silent');
      mirror.sync = new RemoteBookSync();
      mirror.book.clear();
    }
  }

  private ping(): void {
    const view = this.view();
    if (view === undefined || this.nc === undefined || this.nc.isClosed()) return;
    const sent = performance.now();
    this.nc.request(pingSubject(view.region), undefined, { timeout: PING_MS }).then(
      () => this.status.recordRoundTrip(view.region, performance.now() - sent),
      () => undefined,
    );
  }

  private onBook(m: PublishedBookMessage): void {
    if (!this.listed.has(m.symbol)) return;
    this.lastBookMs = Date.now();
    let mirror = this.mirrors.get(m.symbol);
    if (mirror === undefined || mirror.epoch !== m.epoch) {
      if (mirror !== undefined) this.sink!.onBookBroken(m.symbol, 'remote edge restarted');
      mirror = { sync: new RemoteBookSync(), book: mirror?.book ?? new L2Book(), epoch: m.epoch, retryMs: RETRY_FIRST_MS, asking: false };
      mirror.book.clear();
      this.mirrors.set(m.symbol, mirror);
    }
    this.step(m.symbol, mirror, m);
  }

  private step(symbol: string, mirror: Mirror, m: RemoteBookMessage): void {
    const wasWhole = mirror.sync.whole;
    const { apply, needSnapshot } = mirror.sync.onMessage(m);
    let replaced = false;
    let ts = 0;
    const changes: number[] = [];
    for (const a of apply) {
      ts = a.ts_ns;
      if (a.k === 'snapshot') {
        replaced = true;
        changes.length = 0;
        mirror.book.clear();
        for (let i = 0; i < a.bids.length; i += 2) mirror.book.set(Side.BID, a.bids[i]!, a.bids[i + 1]!);
        for (let i = 0; i < a.asks.length; i += 2) mirror.book.set(Side.ASK, a.asks[i]!, a.asks[i + 1]!);
      } else {
        for (let i = 0; i < a.levels.length; i += 3) mirror.book.set(a.levels[i] === 0 ? Side.BID : Side.ASK, a.levels[i + 1]!, a.levels[i + 2]!);
        changes.push(...a.levels);
      }
    }
    this.counts.updates += apply.length;
    if (needSnapshot) {
      if (wasWhole) {
        this.counts.resyncs++;
        this.sink!.onBookBroken(symbol, 'gap in the remote book stream');
      }
      this.askSnapshot(symbol, mirror);
    }
    if (!mirror.sync.whole || apply.length === 0) return;
    if (replaced) this.sink!.onBookWhole(symbol, mirror.book, ts);
    else this.sink!.onBookChanges(symbol, changes, ts);
  }

  private askSnapshot(symbol: string, mirror: Mirror): void {
    if (mirror.asking || this.stopped || this.nc === undefined) return;
    mirror.asking = true;
    this.nc.request(bookSnapshotSubject(this.spec.edge_id), pack({ symbol }), { timeout: SNAPSHOT_TIMEOUT_MS }).then(
      (msg) => {
        mirror.asking = false;
        const snapshot = unpack(msg.data) as PublishedBookMessage | null;
        if (this.mirrors.get(symbol) !== mirror) return;
        if (snapshot === null || snapshot.epoch !== mirror.epoch) return this.retry(symbol, mirror);
        mirror.retryMs = RETRY_FIRST_MS;
        this.step(symbol, mirror, snapshot);
      },
      () => {
        mirror.asking = false;
        this.retry(symbol, mirror);
      },
    );
  }

  /** Backoff from 250 ms doubling to 5 s while the node does not answer. */
  private retry(symbol: string, mirror: Mirror): void {
    const wait = mirror.retryMs;
    mirror.retryMs = Math.min(RETRY_MAX_MS, wait * 2);
    setTimeout(() => {
      if (!this.stopped && this.mirrors.get(symbol) === mirror && !mirror.sync.whole) this.askSnapshot(symbol, mirror);
    }, wait);
  }
}
