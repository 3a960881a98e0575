import { book, UNDERLYING_NAMES, underlyingIndex } from '../../actors/market/directory.ts';
import { bookInterestIndex, fairInterestIndex, InterestKind, privateInterestIndex, type PrivateChannel } from '../../actors/market/interest.ts';
import type { Principal } from '../auth/principal.ts';
import { stringifyExact } from '../http/exact-json.ts';

/**
 * The WebSocket channel catalogue, in one place: a channel name as clients write it
 * (`prices:BTC-USDT`, `orders`), the uWS topic it maps to, and the shared interest counter the
 * publishing actor reads to skip frames nobody would receive. Public market-data channels map
 * to themselves; private channels (orders, fills, ... in the execution issue) map to a topic
 * scoped by mode and client, so one account never sees another's frames and sandbox never
 * mixes with live.
 */
export interface ChannelSpec {
  /** Name or prefix (ending in ':') as documented to clients. */
  readonly name: string;
  readonly description: string;
  matches(channel: string): boolean;
  topic(channel: string, principal: Principal): string;
  /** Index of the channel's subscriber counter in the shared interest array, if it has one. */
  interest?(channel: string, principal: Pick<Principal, 'client_id' | 'mode'>): number | undefined;
  /** A public topic the channel also delivers (a channel with a private and a public half). */
  readonly alsoTopic?: string;
}

/** The public half of the `funding` channel: rate changes (gateway/market/funding-feed.ts). */
export const FUNDING_RATES_TOPIC = '$funding:rates';

const exact = (name: string, description: string): ChannelSpec => ({
  name,
  description,
  matches: (channel) => channel === name,
  topic: () => name,
});

/** `<prefix><symbol>` or `<prefix><symbol>:perp` naming an existing book. */
function bookChannel(prefix: 'prices:' | 'book:', kind: 0 | 1, description: string): ChannelSpec {
  const entryOf = (channel: string) => {
    if (!channel.startsWith(prefix)) return undefined;
    const rest = channel.slice(prefix.length);
    return rest.endsWith(':perp') ? book(rest.slice(0, -5), 'perp') : book(rest, 'spot');
  };
  return {
    name: `${prefix}<symbol>`,
    description,
    matches: (channel) => entryOf(channel) !== undefined,
    topic: (channel) => channel,
    interest: (channel) => {
      const entry = entryOf(channel);
      return entry === undefined ? undefined : bookInterestIndex(entry.slot, kind);
    },
  };
}

const fairChannel: ChannelSpec = {
  name: 'fair_price:<underlying>',
  description: `fair price of an underlying on every recompute, coalesced to ~1 ms (${UNDERLYING_NAMES.join(', ')})`,
  matches: (channel) => channel.startsWith('fair_price:') && underlyingIndex(channel.slice(11)) !== undefined,
  topic: (channel) => channel,
  interest: (channel) => {
    const index = underlyingIndex(channel.slice(11));
    return index === undefined ? undefined : fairInterestIndex(index);
  },
};

/** A per-client channel: the topic is scoped by mode and client id. */
const privateChannel = (name: string, description: string): ChannelSpec => ({
  name,
  description,
  matches: (channel) => channel === name,
  topic: (channel, principal) => privateTopic(channel, principal),
  interest: (channel, principal) => privateInterestIndex(channel as PrivateChannel, principal.client_id, principal.mode),
});

/** `deployment_logs:<deployment_id>`: a deployment's log lines, scoped like a private channel (another client's id delivers nothing). */
const deploymentLogsChannel: ChannelSpec = {
  name: 'deployment_logs:<deployment_id>',
  description: "a deployment's log lines as they are written (DeploymentLogLine); an extension",
  matches: (channel) => /^deployment_logs:[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/.test(channel),
  topic: (channel, principal) => privateTopic(channel, principal),
};

export const CHANNELS: readonly ChannelSpec[] = [
  exact('system', 'service events: readiness changes, worker restarts, kill switch'),
  privateChannel('orders', "the caller's orders on every change (the OrderRest object)"),
  privateChannel('fills', "the caller's fills (FillRecord), each once, after it is durable"),
  privateChannel('routing', 'the routing plan of each order: venues, levels, scores, why each venue was kept or dropped'),
  privateChannel('tca', 'TCA of each completed order'),
  {
    ...privateChannel('funding', 'perpetual funding: each listing\'s rate when it changes (kind rate), and each funding payment on the caller\'s positions (kind accrual)'),
    alsoTopic: FUNDING_RATES_TOPIC,
  },
  bookChannel('prices:', InterestKind.PRICES, 'NBBO on change: bid, ask, mid, bid_sz, ask_sz, spread_bps, ts_ns (append :perp for perpetuals)'),
  bookChannel('book:', InterestKind.BOOK, 'merged book (20 levels) on change: bids, asks as [price, size], ts_ns (append :perp for perpetuals)'),
  fairChannel,
  deploymentLogsChannel,
];

export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000;

export function findChannel(channel: string): ChannelSpec | undefined {
  for (const spec of CHANNELS) if (spec.matches(channel)) return spec;
  return undefined;
}

/** Topic of a private channel, shared by the publisher and the subscriber side. */
export function privateTopic(channel: string, principal: Pick<Principal, 'client_id' | 'mode'>): string {
  return `${channel}|${principal.mode}|${principal.client_id}`;
}

/** The data frame every channel delivers. */
export function dataFrame(channel: string, data: unknown): string {
  return `{"type":"data","channel":${JSON.stringify(channel)},"ts_ns":${Date.now() * 1_000_000},"data":${stringifyExact(data)}}`;
}
