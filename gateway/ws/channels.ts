import type { Principal } from '../auth/principal.ts';

/**
 * The WebSocket channel catalogue, in one place: a channel name as clients write it
 * (`prices:BTC-USDT`, `orders`), and the uWS topic it maps to. Public market-data channels map
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
}

const exact = (name: string, description: string): ChannelSpec => ({
  name,
  description,
  matches: (channel) => channel === name,
  topic: () => name,
});

export const CHANNELS: readonly ChannelSpec[] = [
  exact('system', 'service events: readiness changes, worker restarts, kill switch'),
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
  return JSON.stringify({ type: 'data', channel, ts_ns: Date.now() * 1_000_000, data });
}
