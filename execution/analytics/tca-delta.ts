import { WireReader, type WireWriter } from '../../engine/wire.ts';
import { execSamples, tcaSamples, type ExecSample } from './samples.ts';
import { TcaBucket, type TcaKind, type TcaSample } from './tca-bucket.ts';

/** What the aggregates read of an order that ended. */
export type CompletedOrder = Parameters<typeof tcaSamples>[0] & Parameters<typeof execSamples>[0];

/** One bucket's change: its key below (client, mode), and what the orders folded since the last delta add to it. */
export interface TcaDeltaRow {
  hour_ms: number;
  kind: TcaKind;
  symbol: string;
  routing_version: number;
  venue: string;
  bucket: TcaBucket;
}

const KINDS: readonly TcaKind[] = ['price', 'prediction'];
const reader = new WireReader();

/**
 * The change a batch of completed orders makes to one owner's (client, mode) TCA buckets, and
 * which orders it holds. Pure. A router folds each of its orders here once the order's ending
 * is on disk, and journals the delta every few tens of milliseconds: the gateway thread merges
 * one small bucket per row and batch instead of decoding and folding every order
 * (docs/analytics.md, "How the aggregates are kept"). Merging bucket deltas is exact for every
 * count, money sum, sketch bin and extreme; the notional-weighted float sums only change their
 * order of addition.
 */
export class TcaDelta {
  readonly rows = new Map<string, TcaDeltaRow>();
  /** node_order_ids of the orders folded in: their pending marks go when the delta is merged */
  orders: string[] = [];
  /** hour|kind|symbol|version -> venue -> the row's bucket (the same buckets as `rows`) */
  private readonly byPrefix = new Map<string, Map<string, TcaBucket>>();
  private last: Map<string, TcaBucket> | undefined;
  private lastHour = 0;
  private lastKind: TcaKind = 'price';
  private lastSymbol = '';
  private lastVersion = 0;

  get empty(): boolean {
    return this.orders.length === 0 && this.rows.size === 0;
  }

  /** Adds one ended order: its TCA samples and execution counts, each into its row (the order whole, and each venue). */
  fold(order: CompletedOrder): void {
    for (const s of tcaSamples(order)) this.row(s).add(s);
    for (const s of execSamples(order)) addExec(this.row(s), s);
    this.orders.push(order.node_order_id);
  }

  /** Takes in another delta (one whose journal write failed, folded back to go again). */
  merge(other: TcaDelta): void {
    for (const r of other.rows.values()) this.row(r).merge(r.bucket);
    for (const id of other.orders) this.orders.push(id);
  }

  /**
   * The wire form (engine/wire.ts encodings), the value of a journal `tca delta` record: u32
   * rows, each f64 hour, u8 kind (0 price, 1 prediction), str symbol, f64 routing version, str
   * venue and its bucket's binary form (TcaBucket.write); then u32 orders, each str id.
   */
  write(w: WireWriter): void {
    w.u32(this.rows.size);
    for (const r of this.rows.values()) {
      w.f64(r.hour_ms).u8(KINDS.indexOf(r.kind)).str(r.symbol).f64(r.routing_version).str(r.venue);
      r.bucket.write(w);
    }
    w.u32(this.orders.length);
    for (const id of this.orders) w.str(id);
  }

  static decode(bytes: Uint8Array): TcaDelta {
    const r = reader.reset(bytes);
    const d = new TcaDelta();
    for (let n = r.u32(); n > 0; n--) {
      const hour_ms = r.f64();
      const kind = KINDS[r.u8()];
      if (kind === undefined) throw new RangeError('TCA delta: unknown kind');
      const symbol = r.str();
      const routing_version = r.f64();
      const venue = r.str();
      d.row({ hour_ms, kind, symbol, routing_version, venue }, TcaBucket.read(r));
    }
    for (let n = r.u32(); n > 0; n--) d.orders.push(r.str());
    return d;
  }

  /**
   * The row of a sample. Every sample of one order shares its hour, kind, symbol and version:
   * the rows of those are found by comparing four values, then by venue, with no key built
   * (building and hashing a key string per sample was a third of a fold).
   */
  private row(s: Pick<TcaSample, 'hour_ms' | 'kind' | 'symbol' | 'routing_version' | 'venue'>, adopt?: TcaBucket): TcaBucket {
    let byVenue = this.last;
    if (byVenue === undefined || this.lastHour !== s.hour_ms || this.lastKind !== s.kind || this.lastSymbol !== s.symbol || this.lastVersion !== s.routing_version) {
      const prefix = `${s.hour_ms}|${s.kind}|${s.symbol}|${s.routing_version}`;
      byVenue = this.byPrefix.get(prefix);
      if (byVenue === undefined) this.byPrefix.set(prefix, (byVenue = new Map()));
      this.last = byVenue;
      this.lastHour = s.hour_ms;
      this.lastKind = s.kind;
      this.lastSymbol = s.symbol;
      this.lastVersion = s.routing_version;
    }
    let bucket = byVenue.get(s.venue);
    if (bucket !== undefined && adopt !== undefined) bucket.merge(adopt);
    if (bucket === undefined) {
      // A decoded row's bucket is taken as it is, not merged into a fresh one.
      byVenue.set(s.venue, (bucket = adopt ?? new TcaBucket()));
      this.rows.set(rowId(s.hour_ms, s.kind, s.symbol, s.routing_version, s.venue), { hour_ms: s.hour_ms, kind: s.kind, symbol: s.symbol, routing_version: s.routing_version, venue: s.venue, bucket });
    }
    return bucket;
  }
}

function addExec(b: TcaBucket, s: ExecSample): void {
  if (s.order !== undefined) b.exec.addOrder(s.order);
  if (s.leg !== undefined) b.exec.addLeg(s.leg);
}

function rowId(hour_ms: number, kind: TcaKind, symbol: string, routing_version: number, venue: string): string {
  return `${hour_ms}|${kind}|${symbol}|${routing_version}|${venue}`;
}
