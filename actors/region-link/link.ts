import { pack } from 'msgpackr';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../../engine/actor.ts';
import { EDGES } from '../../domain/venues.ts';
import { DEPTH_LEVELS, DepthCacheReader, DepthTop, depthSlot } from '../edge/depth-cache.ts';
import type { EdgeMessage, EdgeStatus } from '../edge/messages.ts';
import { books, edgeKey } from '../market/directory.ts';
import type { RegionConfig } from './config.ts';
import { joinNats, leaveNats, serveRequests } from './connection.ts';
import { ensureStreams } from './jetstream.ts';
import type { PublishedBookMessage } from './region-venue.ts';
import { PublishedBook } from './remote-books.ts';
import type { EdgeStatusMessage } from './remote-edges.ts';
import { bookSnapshotSubject, bookSubject, childOrderSubject, edgeStatusSubject, pingSubject } from './subjects.ts';
import { ChildServer } from './child-server.ts';
import { RecordsReplica, type ReplicatedTables } from './records.ts';
import { OrdersStream } from './orders-stream.ts';
import { LifecycleStream, type LifecycleKind } from './lifecycle-stream.ts';
import type { FillRecord, OrderRecord } from '../../domain/orders.ts';
import type { MakerFill } from '../edge/messages.ts';
import { forwardOrderCommand, serveOrderCommands, type ForwardedCommand, type LocalOrderCommand, type OrderCommand } from './order-commands.ts';

/** How often local books are read for changes: the edges publish in 10 ms batches. */
const BOOK_POLL_MS = 10;
/** Every local edge's status goes out this often, and at once when its feed goes up or down. */
const STATUS_MS = 1_000;
const STATUS_ASK_MS = 1_000;

interface Published {
  edge_id: string;
  venue: string;
  symbol: string;
  slot: number;
  subject: string;
  book: PublishedBook;
  /** the depth slot's write sequence last read */
  version: number;
  connected: boolean;
}

/** What the link asks of the engine: the local edges' statuses. */
export interface EdgeAsker {
  ask<R = unknown>(to: string, message: unknown, timeoutMs?: number): Promise<R>;
}

/**
 * This node's side of the regions, on the gateway thread: it joins the NATS servers, makes sure
 * the shared streams exist, and publishes what its local edges see for the other nodes, whose
 * remote edges (`region-venue.ts`) follow it. Books go as numbered deltas read from the depth
 * cache (what the router here routes on, so every node sees the same top 50 levels), answered
 * with a snapshot on request; statuses every second and when a feed goes up or down; pings
 * answered at once so other nodes measure their round trip here.
 */
export class RegionLink {
  private readonly published: Published[] = [];
  private readonly byEdgeSymbol = new Map<string, Published>();
  private readonly top: DepthTop;
  private readonly latency: DepthCacheReader;
  private readonly localEdges: typeof EDGES;
  /** this run: a restarted node numbers its deltas from 1 again, and a follower must know */
  private readonly epoch = Date.now() * 1024 + Math.floor(Math.random() * 1024);
  private readonly statusSeq = new Map<string, number>();
  /** edges whose feed went up or down in this poll (reused: the poll runs every 10 ms) */
  private readonly changedFeeds = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private nc: NatsConnection | undefined;
  private closed = false;
  private readonly children: ChildServer;
  private readonly records: RecordsReplica | undefined;
  /** the global order reads: this node's records out, the other regions' in */
  readonly orders: OrdersStream<OrderRecord, FillRecord>;
  /** prediction lifecycle events, stored once among regions */
  readonly lifecycle: LifecycleStream;
  private lifecycleSink: ((kind: LifecycleKind, key: string, frame: string) => void) | undefined;

  constructor(
    readonly config: RegionConfig,
    depth: SharedArrayBuffer,
    private readonly edges: EdgeAsker,
    private readonly log: Logger,
    /** clients, key hashes and sealed credentials, kept in step with every region (records.ts) */
    tables?: ReplicatedTables,
    /** this node's orders changed since an instant, with their fills: the catch-up at start */
    private readonly changedSince?: (sinceNs: number) => Iterable<{ order: OrderRecord; fills: FillRecord[] }>,
    /** this node's routers' cancel and activation: other nodes forward their clients' commands on orders homed here */
    private readonly commandLocal?: LocalOrderCommand,
  ) {
    this.records = tables === undefined ? undefined : new RecordsReplica(tables, log);
    this.orders = new OrdersStream(config.region, log);
    this.lifecycle = new LifecycleStream(log);
    this.top = new DepthTop(depth, DEPTH_LEVELS);
    this.latency = new DepthCacheReader(depth);
    this.localEdges = EDGES.filter((e) => config.localVenues.includes(e.venue));
    this.children = new ChildServer(config.region, edges, log);
    const local = new Set(this.localEdges.map((e) => e.edge_id));
    for (const entry of books()) {
      entry.edges.forEach((edge_id, i) => {
        if (!local.has(edge_id)) return;
        const p: Published = { edge_id, venue: entry.venues[i]!, symbol: entry.symbol, slot: depthSlot(entry, i), subject: bookSubject(edge_id, entry.symbol), book: new PublishedBook(DEPTH_LEVELS), version: -1, connected: false };
        this.published.push(p);
        this.byEdgeSymbol.set(`${edge_id}|${entry.symbol}`, p);
      });
    }
  }

  /** Joins the servers (waiting for one to answer) and starts publishing. */
  async start(): Promise<void> {
    const nc = await joinNats(this.config.natsUrls, `seq-${this.config.region}`);
    this.nc = nc;
    if (this.closed) return void leaveNats(this.config.natsUrls);
    // Core NATS first: books, statuses, pings and child orders never wait for JetStream.
    nc.subscribe(pingSubject(this.config.region), { callback: (_err, msg) => void msg.respond() });
    for (const edge of this.localEdges) {
      serveRequests(nc, bookSnapshotSubject(edge.edge_id), (request) => this.snapshotOf(edge.edge_id, request));
      // Children for orders homed elsewhere; prediction edges are not followed across regions yet.
      if (edge.instrument_type === 'prediction') continue;
      serveRequests(nc, childOrderSubject(this.config.region, edge.edge_id), (request) => this.children.serve(edge.edge_id, request));
    }
    if (this.commandLocal !== undefined) serveOrderCommands(nc, this.config.region, this.commandLocal, this.log);
    this.timers.push(setInterval(() => this.publishBooks(), BOOK_POLL_MS));
    this.timers.push(setInterval(() => void this.publishStatuses(), STATUS_MS));
    // Then JetStream (orders, records, lifecycle). Every server keeps a copy when there are
    // three: one lost changes nothing (docs/regions.md).
    const replicas = Math.min(3, this.config.natsUrls.length);
    await this.whenJetStreamReady(() => ensureStreams(nc, replicas));
    await this.whenJetStreamReady(async () => this.records?.start(nc, replicas));
    this.orders.start(nc);
    if (this.changedSince !== undefined) {
      const changedSince = this.changedSince;
      const orders = await this.whenJetStreamReady(() => this.orders.catchUp(changedSince));
      if (orders > 0) this.log.info({ orders }, 'region link: orders written again to the regions’ stream (catch-up after start)');
    }
    if (this.lifecycleSink !== undefined) this.lifecycle.start(nc, this.lifecycleSink);
    this.log.info({ region: this.config.region, local_venues: this.config.localVenues, servers: this.config.natsUrls }, 'joined the regions over NATS');
  }

  /** Where the lifecycle events read from the regions' stream go (this node's feeds); set before `start`. */
  deliverLifecycle(sink: (kind: LifecycleKind, key: string, frame: string) => void): void {
    this.lifecycleSink = sink;
  }

  /** A client's cancel or activation of an order homed in `home`, asked of that node (order-commands.ts). */
  forwardOrderCommand(home: string, command: OrderCommand): Promise<ForwardedCommand> {
    return forwardOrderCommand(this.nc, home, command);
  }

  /** A maker fill an edge told a relay (a child run here for another region's order). */
  onRelayedFill(fill: MakerFill): void {
    this.children.onMakerFill(fill);
  }

  /**
   * A cluster that has just started (or lost the server that led it) elects a JetStream leader
   * within seconds, and asks fail until then: tried again every second for as long as it takes
   * (said in the log at the first failure and every 30th), while the node serves its own venues.
   */
  private async whenJetStreamReady<T>(setup: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await setup();
      } catch (err) {
        if (this.closed) throw err;
        if (attempt % 30 === 0) this.log.warn({ err: (err as Error).message, attempt }, 'region link: JetStream not ready yet (a cluster electing its leader?), trying again every second');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.records?.stop();
    this.orders.stop();
    this.lifecycle.stop();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (this.nc !== undefined) leaveNats(this.config.natsUrls);
  }

  private publishBooks(): void {
    const nc = this.nc!;
    const changedFeeds = this.changedFeeds;
    changedFeeds.clear();
    for (const p of this.published) {
      const version = this.top.version(p.slot);
      if (version === p.version || (version & 1) === 1) continue;
      if (!this.top.read(p.slot)) continue;
      p.version = version;
      if (this.top.connected !== p.connected) {
        p.connected = this.top.connected;
        changedFeeds.add(p.edge_id);
      }
      // A feed that is down publishes an empty book: another node must not route on levels it no longer has.
      if (!this.top.connected) this.top.bids.count = this.top.asks.count = 0;
      const delta = p.book.update(this.top.bids, this.top.asks, this.top.ts_ns);
      if (delta === undefined) continue;
      const message: PublishedBookMessage = { k: 'delta', venue: p.venue, symbol: p.symbol, seq: delta.seq, ts_ns: this.top.ts_ns, levels: delta.levels, epoch: this.epoch };
      nc.publish(p.subject, pack(message));
    }
    for (const edge_id of changedFeeds) void this.publishStatus(edge_id);
  }

  /** The book a snapshot request names (`{symbol}`), at its delta number; null for a symbol not published here. */
  private snapshotOf(edge_id: string, request: unknown): PublishedBookMessage | null {
    const symbol = (request as { symbol?: unknown } | null | undefined)?.symbol;
    const p = typeof symbol === 'string' ? this.byEdgeSymbol.get(`${edge_id}|${symbol}`) : undefined;
    return p === undefined ? null : { ...p.book.snapshot(p.venue, p.symbol), epoch: this.epoch };
  }

  private publishStatuses(): Promise<unknown> {
    return Promise.all(this.localEdges.map((e) => this.publishStatus(e.edge_id)));
  }

  private async publishStatus(edge_id: string): Promise<void> {
    const edge = this.localEdges.find((e) => e.edge_id === edge_id)!;
    let status: EdgeStatus | undefined;
    try {
      status = await this.edges.ask<EdgeStatus>(edgeKey(edge_id), { t: 'Status' } satisfies EdgeMessage, STATUS_ASK_MS);
    } catch {
      status = undefined;
    }
    if (this.closed || this.nc === undefined || this.nc.isClosed()) return;
    const now = Date.now();
    const seq = (this.statusSeq.get(edge_id) ?? 0) + 1;
    this.statusSeq.set(edge_id, seq);
    const message: EdgeStatusMessage = {
      v: 1,
      region: this.config.region,
      edge_id,
      venue: edge.venue,
      connected: status?.connected ?? false,
      symbols: status?.symbols ?? [],
      supports_algo_runtime: edge.supports_algo_runtime,
      data_age_ms: status === undefined || status.last_seen_ms <= 0 ? 0 : Math.max(0, now - status.last_seen_ms),
      latency_ms: this.latency.latencyMs(edge_id),
      seq,
    };
    this.nc.publish(edgeStatusSubject(this.config.region, edge_id), pack(message));
  }
}
