import type { components } from './schema.ts';
import type { StreamFrame } from './stream.ts';

type Schemas = components['schemas'];

/**
 * The data of each `/v1/stream` channel, by its name, or by its prefix for a channel named per
 * symbol, underlying or deployment. Each type is the `data` of the channel's frame schema in the
 * service's OpenAPI document (the `x-websocket` messages of `GET /v1/stream`, generated into
 * schema.ts), so a frame type cannot drift from what the service documents and its contract
 * test checks it sends.
 */
export interface ChannelData {
  orders: Schemas['WsOrdersFrame']['data'];
  fills: Schemas['WsFillsFrame']['data'];
  routing: Schemas['WsRoutingFrame']['data'];
  tca: Schemas['WsTcaFrame']['data'];
  /** a listing's rate (`kind: 'rate'`) or a payment on the caller's position (`kind: 'accrual'`) */
  funding: Schemas['WsFundingFrame']['data'];
  system: Schemas['WsSystemFrame']['data'];
  prices: Schemas['WsPricesFrame']['data'];
  book: Schemas['WsBookFrame']['data'];
  fair_price: Schemas['WsFairPriceFrame']['data'];
  deployment_logs: Schemas['WsDeploymentLogsFrame']['data'];
}

export type ChannelKind = keyof ChannelData;

/** The channels named `<kind>:<key>`: `prices:BTC-USDT` (`:perp` appended for perpetuals), `fair_price:BTC`, `deployment_logs:<id>`. */
const PREFIXED = ['prices', 'book', 'fair_price', 'deployment_logs'] as const satisfies readonly ChannelKind[];
type PrefixedKind = (typeof PREFIXED)[number];
type NamedKind = Exclude<ChannelKind, PrefixedKind>;

/** A channel name the service serves, written as clients subscribe to it. */
export type TypedChannel = NamedKind | `${PrefixedKind}:${string}`;

/** The kind of a channel name: `'book'` for `'book:ETH-USDT'`, `'orders'` for `'orders'`. */
export type KindOf<C extends string> = C extends `${infer P}:${string}` ? (P extends PrefixedKind ? P : never) : C extends NamedKind ? C : never;

/** A data frame of channel `C`; `resumed` marks an order or fill read back over REST after a reconnect. */
export interface DataFrameOf<C extends TypedChannel> {
  type: 'data';
  channel: C;
  ts_ns: number;
  data: ChannelData[KindOf<C>];
  resumed?: boolean;
}

/** The first frame of a `prices:` channel (ServiceStream): `GET /v1/quotes/{symbol}`'s answer, as a quiet market stays silent. */
export interface QuoteSnapshotFrame<C extends string = `prices:${string}`> {
  type: 'snapshot';
  channel: C;
  ts_ns: number;
  data: Schemas['QuoteResponse'];
}

/** What a listener of channel `C` receives. */
export type FrameOf<C extends TypedChannel> = DataFrameOf<C> | (C extends `prices:${string}` ? QuoteSnapshotFrame<C> : never);

/** What a frame of any channel of one kind is: `FrameOfKind<'book'>` for every `book:` channel. */
export type FrameOfKind<K extends ChannelKind> = FrameOf<K extends PrefixedKind ? `${K}:${string}` : K>;

/** Any frame, told apart by `kindOf(frame.channel)` or narrowed with `isFrameOf`. */
export type TypedFrame = { [K in ChannelKind]: FrameOfKind<K> }[ChannelKind];

/** Every named kind, checked by `tsc` against ChannelData: a channel added there fails here until listed. */
const NAMED = { orders: true, fills: true, routing: true, tca: true, funding: true, system: true } as const satisfies Record<NamedKind, true>;

/** The kind of a channel name, or undefined for one the client has no type for. */
export function kindOf(channel: string): ChannelKind | undefined {
  const colon = channel.indexOf(':');
  if (colon >= 0) {
    const prefix = channel.slice(0, colon);
    return (PREFIXED as readonly string[]).includes(prefix) ? (prefix as PrefixedKind) : undefined;
  }
  return Object.hasOwn(NAMED, channel) ? (channel as NamedKind) : undefined;
}

/**
 * Narrows a frame given to `onFrame` to its channel's type:
 * `if (isFrameOf(frame, 'book')) frame.data.bids[0]`.
 */
export function isFrameOf<K extends ChannelKind>(frame: StreamFrame, kind: K): frame is FrameOfKind<K> & StreamFrame {
  return kindOf(frame.channel) === kind;
}
