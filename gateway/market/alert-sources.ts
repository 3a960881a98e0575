import type { EdgeMessage, EdgeStatus } from '../../actors/edge/messages.ts';
import { FAIR_ACTOR, type FairMessage, type FairReply } from '../../actors/fair-price/messages.ts';
import { edgeKey } from '../../actors/market/directory.ts';
import { EDGES } from '../../domain/venues.ts';
import type { Endpoint } from '../../engine/endpoint.ts';
import type { AlertSources } from '../../execution/alerts/alert-book.ts';
import type { RouterClient } from '../../execution/router/client.ts';
import type { QuoteService } from './quotes.ts';

const ASK_TIMEOUT_MS = 1_000;

/** What the level alerts read: the quote cache (synchronous), the fair price, the edges' status, the router's PnL. */
export function alertSources(quotes: QuoteService, routers: RouterClient, endpoint: Endpoint): AlertSources {
  return {
    nbbo: (symbol) => {
      const entry = quotes.resolve(symbol);
      return entry === undefined ? undefined : quotes.nbbo1e9(entry);
    },
    basis: async (underlying) => (await endpoint.ask<FairReply>(FAIR_ACTOR, { t: 'Get', underlying } satisfies FairMessage, ASK_TIMEOUT_MS))?.basis_bps ?? null,
    edges: () =>
      Promise.all(
        EDGES.map((spec) =>
          endpoint.ask<EdgeStatus>(edgeKey(spec.edge_id), { t: 'Status' } satisfies EdgeMessage, ASK_TIMEOUT_MS).then(
            (s) => ({ edge_id: spec.edge_id, connected: s.connected, last_seen_ms: s.last_seen_ms }),
            // An edge that does not answer is not publishing.
            () => ({ edge_id: spec.edge_id, connected: false, last_seen_ms: 0 }),
          ),
        ),
      ),
    pnl: async (client, mode) => {
      const { totals } = await routers.positions({ client_id: client, mode }, { include_closed: true });
      return BigInt(totals.realized_pnl_usd_1e9) + BigInt(totals.unrealized_pnl_usd_1e9);
    },
  };
}
