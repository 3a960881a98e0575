import type { EdgeMessage, FundingInfo } from '../../actors/edge/messages.ts';
import { edgeKey } from '../../actors/market/directory.ts';
import { EDGES } from '../../domain/venues.ts';
import type { Endpoint } from '../../engine/endpoint.ts';
import type { Logger } from '../../engine/actor.ts';
import type { TemplatedApp } from '../uws.ts';
import { dataFrame, FUNDING_RATES_TOPIC } from '../ws/channels.ts';

/** How often the perp edges' funding rates are read while someone listens. */
export const FUNDING_FEED_MS = 5_000;
const ASK_TIMEOUT_MS = 2_000;

/** The `funding` channel's rate frame. */
export interface FundingRateFrame extends FundingInfo {
  kind: 'rate';
  venue: string;
  edge_id: string;
}

/**
 * The public half of the `funding` channel: each perp listing's funding rate, read from its
 * edge every 5 s while the channel has subscribers, one frame when its predicted rate or next
 * instant changed (the first read sends them all). The private half, each accrual on the
 * caller's positions, comes from the routers (execution/funding-clock.ts).
 */
export class FundingFeed {
  private readonly last = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly app: TemplatedApp,
    private readonly endpoint: Endpoint,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), FUNDING_FEED_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async poll(): Promise<void> {
    if (this.app.numSubscribers(FUNDING_RATES_TOPIC) === 0) {
      // Nobody listens: the next subscriber starts from a full set.
      this.last.clear();
      return;
    }
    for (const edge of EDGES) {
      if (edge.instrument_type !== 'perp') continue;
      let infos: FundingInfo[];
      try {
        infos = await this.endpoint.ask<FundingInfo[]>(edgeKey(edge.edge_id), { t: 'FundingAll' } satisfies EdgeMessage, ASK_TIMEOUT_MS);
      } catch (err) {
        this.log.warn({ err, edge_id: edge.edge_id }, 'funding rates not read');
        continue;
      }
      for (const info of infos) {
        const key = `${edge.edge_id}|${info.symbol}`;
        const figure = `${info.rate_1e9}|${info.next_funding_ns}`;
        if (this.last.get(key) === figure) continue;
        this.last.set(key, figure);
        const frame: FundingRateFrame = { kind: 'rate', venue: edge.venue, edge_id: edge.edge_id, ...info };
        this.app.publish(FUNDING_RATES_TOPIC, dataFrame('funding', frame));
      }
    }
  }
}
