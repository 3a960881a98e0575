import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { pack, unpack } from 'msgpackr';
import type { Logger } from '../../engine/actor.ts';
import { followStream } from './jetstream.ts';
import { RemoteOrdersView, type ViewedFill, type ViewedOrder } from './orders-view.ts';
import { anyNodeSubject, nodeSubject, orderEventSubject, ORDERS_STREAM } from './subjects.ts';

/** A node that has not said it is alive for this long is unreachable: listings say so. */
export const NODE_SILENCE_MS = 3_000;
const HEARTBEAT_MS = 1_000;
const RETRY_MS = 1_000;
const RETRY_MAX = 200_000;
/** Written again from this long before the last record the stream has of this region: writes in flight at a crash. */
const CATCH_UP_MARGIN_NS = 10_000_000_000;

/** An order or fill record on the stream: its account beside the record as its journal stored it. */
interface Envelope {
  c: string;
  m: string;
  v: Uint8Array;
}

/** One region a global listing covered (or could not). */
export interface RegionSource {
  region: string;
  /** its node said it is alive within the last 3 s */
  reachable: boolean;
  /** this node has read the stream up to its end at least once since it joined */
  caught_up: boolean;
}

/**
 * The global order reads' I/O (docs/regions.md, step 4): this node's journal writes each order
 * and fill record to `SEQ_ORDERS` once on disk at home; every record other regions wrote is read
 * from the stream's start into `RemoteOrdersView`. Nodes also say each second that they are
 * alive (`seq.node.<region>`), so a listing can say which regions it could not reach.
 */
export class OrdersStream<O extends ViewedOrder, F extends ViewedFill> {
  readonly view: RemoteOrdersView<O, F>;
  private js: JetStreamClient | undefined;
  private nc: NatsConnection | undefined;
  private readonly alive = new Map<string, number>();
  private caughtUp = false;
  private timer: NodeJS.Timeout | undefined;
  private sub: Subscription | undefined;
  private stopped = false;
  private failures = 0;
  private dropped = 0;
  /** events the stream did not take yet, oldest first */
  private readonly retrying: { subject: string; data: Uint8Array }[] = [];
  private retryRunning = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly region: string,
    private readonly log: Logger,
  ) {
    this.view = new RemoteOrdersView(region);
  }

  start(nc: NatsConnection): void {
    this.nc = nc;
    this.js = jetstream(nc);
    this.sub = nc.subscribe(anyNodeSubject(), {
      callback: (err, msg) => {
        if (err === null) this.alive.set(msg.subject.slice(msg.subject.lastIndexOf('.') + 1), Date.now());
      },
    });
    this.timer = setInterval(() => nc.publish(nodeSubject(this.region)), HEARTBEAT_MS);
    this.retryTimer = setInterval(() => void this.retry(), RETRY_MS);
    nc.publish(nodeSubject(this.region));
    void this.follow();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.retryTimer !== undefined) clearInterval(this.retryTimer);
    this.sub?.unsubscribe();
  }

  /**
   * A record this node's journal has on disk: to the stream. Never blocks the journal: a write
   * the stream did not take (a server lost, a leader being elected) is kept and written again
   * every second, in order, until it is taken (at most RETRY_MAX kept; past that the oldest go,
   * logged, and the catch-up at the next start covers them).
   */
  written(kind: 'order' | 'fill', client: string, mode: string, value: Uint8Array): void {
    const message = { subject: orderEventSubject(this.region, kind), data: pack({ c: client, m: mode, v: value } satisfies Envelope) };
    if (this.retrying.length > 0) this.keep(message);
    else this.send(message);
  }

  private send(message: { subject: string; data: Uint8Array }): void {
    if (this.js === undefined) return this.keep(message);
    this.js.publish(message.subject, message.data).catch((err: unknown) => {
      // One line per hundred failures: a NATS outage must not flood the log.
      if (this.failures++ % 100 === 0) this.log.warn({ err: (err as Error).message, failures: this.failures }, 'region link: an order event not taken by the regions’ stream yet: written again');
      this.keep(message);
    });
  }

  private keep(message: { subject: string; data: Uint8Array }): void {
    this.retrying.push(message);
    if (this.retrying.length > RETRY_MAX) {
      this.retrying.shift();
      if (this.dropped++ % 1_000 === 0) this.log.error({ dropped: this.dropped }, 'region link: order events dropped past the retry bound (the next start writes them again)');
    }
  }

  /** Writes the kept events again, oldest first, until one fails. */
  private async retry(): Promise<void> {
    if (this.retryRunning || this.js === undefined) return;
    this.retryRunning = true;
    try {
      while (this.retrying.length > 0 && !this.stopped) {
        await this.js.publish(this.retrying[0]!.subject, this.retrying[0]!.data);
        this.retrying.shift();
      }
    } catch {
      // still not taken: next second
    } finally {
      this.retryRunning = false;
    }
  }

  /**
   * After a start: this node's orders changed since the last one it wrote to the stream (less a
   * margin), with their fills, written again: what it wrote while NATS was out of reach, and the
   * orders its restart closed, reach the other regions. Repeats are harmless: the views keep the
   * newest version of an order and each fill once. Answers how many orders went.
   */
  async catchUp(changedSince: (sinceNs: number) => Iterable<{ order: O; fills: F[] }>): Promise<number> {
    const jsm = await jetstreamManager(this.nc!);
    let since = 0;
    try {
      const last = await jsm.streams.getMessage(ORDERS_STREAM.name, { last_by_subj: orderEventSubject(this.region, 'order') });
      const { v } = unpack(last!.data) as Envelope;
      since = (unpack(v) as ViewedOrder).updated_unix_ns - CATCH_UP_MARGIN_NS;
    } catch {
      since = 0; // nothing of this region in the stream yet: everything
    }
    let orders = 0;
    for (const { order, fills } of changedSince(since)) {
      for (const fill of fills) this.written('fill', order.client_id, order.mode, pack(fill));
      this.written('order', order.client_id, order.mode, pack(order));
      orders++;
    }
    return orders;
  }

  /** The regions of the cluster as this node knows them, and whether it reaches each now. */
  sources(nowMs: number): RegionSource[] {
    const regions = new Set([...this.alive.keys(), ...this.view.regions().keys()]);
    regions.delete(this.region);
    return [...regions].sort().map((region) => ({ region, reachable: nowMs - (this.alive.get(region) ?? 0) <= NODE_SILENCE_MS, caught_up: this.caughtUp }));
  }

  private follow(): Promise<void> {
    return followStream(this.nc!, {
      stream: ORDERS_STREAM.name,
      startSeq: async (jsm) => {
        const { last_seq } = (await jsm.streams.info(ORDERS_STREAM.name)).state;
        // Nothing to read (an empty stream): read to its end already.
        if (last_seq === 0) this.caughtUp = true;
        return 1;
      },
      onMessage: (msg) => {
        this.apply(msg.subject, msg.data);
        if (msg.info.pending === 0) this.caughtUp = true;
      },
      stopped: () => this.stopped,
      log: this.log,
    });
  }

  private apply(subject: string, data: Uint8Array): void {
    // seq.orders.<region>.<kind>
    const parts = subject.split('.');
    const region = parts[2];
    const kind = parts[3];
    if (region === undefined || region === this.region) return;
    try {
      const { c, m, v } = unpack(data) as Envelope;
      const record = unpack(v) as O & F;
      if (kind === 'order') this.view.order(region, record, Date.now());
      else if (kind === 'fill') this.view.fill(region, c, m, record, Date.now());
    } catch (err) {
      this.log.warn({ subject, err: (err as Error).message }, 'region link: an order event not understood was skipped');
    }
  }
}
