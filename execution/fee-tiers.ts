import type { FeeTierInfo, EdgeMessage } from '../actors/edge/messages.ts';
import { edgeSpec, edgesOfVenue } from '../domain/venues.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { Mode } from '../domain/orders.ts';
import type { Logger } from '../engine/actor.ts';

const PROBE_TIMEOUT_MS = 2_000;

export interface FeeRates {
  maker_bps: number;
  taker_bps: number;
}

interface CachedTier extends FeeRates {
  tier: string;
  /** `probed` from the venue, or the catalog's `default` when the probe failed */
  source: 'probed' | 'default';
  at_ms: number;
}

/**
 * Each client's fee tier per venue edge (spec, credentials: "after a POST, the per-venue fee
 * tier is probed and cached in the background; when probing fails, hardcoded per-venue defaults
 * are used"). Not exposed for reading; the router prices legs with it. Reservations keep the
 * catalog's larger rate, so a tier can only make them more conservative.
 */
export class FeeTiers {
  private readonly tiers = new Map<string, CachedTier>();

  constructor(
    private readonly asker: { ask<R>(to: string, message: unknown, timeoutMs?: number): Promise<R> },
    private readonly log: Logger,
  ) {}

  /** Probes every edge of the venue (spot and perpetual); resolves when all are cached. */
  async probe(client: string, mode: Mode, venue: string): Promise<void> {
    await Promise.all(
      edgesOfVenue(venue).map(async (edge) => {
        const key = `${client}|${mode}|${edge.edge_id}`;
        try {
          // A live edge asks the venue with the client's key; a simulated one answers its schedule.
          const info = await this.asker.ask<FeeTierInfo>(edgeKey(edge.edge_id), (mode === 'live' ? { t: 'FeeTier', client_id: client } : { t: 'FeeTier' }) satisfies EdgeMessage, PROBE_TIMEOUT_MS);
          this.tiers.set(key, { tier: info.tier, maker_bps: info.maker_bps, taker_bps: info.taker_bps, source: 'probed', at_ms: Date.now() });
        } catch (err) {
          this.log.warn({ client_id: client, mode, edge_id: edge.edge_id, err }, 'fee tier probe failed; using the default schedule');
          this.tiers.set(key, { tier: 'default', maker_bps: edge.maker_bps, taker_bps: edge.taker_bps, source: 'default', at_ms: Date.now() });
        }
      }),
    );
  }

  /** The rates to route with: the probed tier, else the catalog's schedule. */
  rates(client: string, mode: Mode, edgeId: string): FeeRates {
    const cached = this.tiers.get(`${client}|${mode}|${edgeId}`);
    if (cached !== undefined) return cached;
    const spec = edgeSpec(edgeId)!;
    return { maker_bps: spec.maker_bps, taker_bps: spec.taker_bps };
  }

  /** Where a client's rates on an edge came from (tests and diagnostics; never an API field). */
  sourceOf(client: string, mode: Mode, edgeId: string): 'probed' | 'default' | undefined {
    return this.tiers.get(`${client}|${mode}|${edgeId}`)?.source;
  }
}
