import type { ActorRegistry } from '../engine/actor.ts';
import { bookActor } from './book/actor.ts';
import { edgeActor } from './edge/actor.ts';
import { fairPriceActor } from './fair-price/actor.ts';
import { probeActor } from './probe/actor.ts';
import { predictionEdgeActor } from './prediction-edge/actor.ts';
import { simEdge } from './edge/sim/catalog.ts';
import { dexChainActor } from './dex-chain/actor.ts';
import { liveEdgeOf, selectedEdge } from './edge/live/select.ts';
import { livePredictionEdgeOf } from './prediction-edge/live-actor.ts';
import { LiveEdgeActor } from './edge/live/actor.ts';
import { RegionVenue } from './region-link/region-venue.ts';
import { relayActor } from './region-link/relay-actor.ts';

function venueEdge(key: string) {
  const spec = simEdge(key.slice('edge:'.length));
  if (spec === undefined) return edgeActor(key);
  // A venue in LIVE_VENUES gets its real adapter where one is built (edge/live/select.ts).
  return spec.instrument_type === 'prediction'
    ? selectedEdge(spec, () => predictionEdgeActor(spec), livePredictionEdgeOf(spec))
    : selectedEdge(spec, () => edgeActor(key), liveEdgeOf(spec), (region, log) => new LiveEdgeActor(spec, new RegionVenue(spec, region, log)));
}

/**
 * Actor kinds by key prefix. Every worker loads this module.
 *
 *   edge:<edge_id>          a venue edge (simulated venue, its real adapter with LIVE_VENUES, or
 *                           another region's node when the venue is not in LOCAL_VENUES); the
 *                           prediction venues' edges are their own actor (prediction-edge/)
 *   book:<symbol>[:perp]    a consolidated book
 *   fair:all                fair prices of every underlying
 *   dex:<chain>             a simulated chain's DEX pools (dex-chain/)
 *   probe:<name>            diagnostics
 *   relay:<region>|<router> maker fills of a child run here for another region's order (region-link/)
 */
export const registry: ActorRegistry = {
  edge: venueEdge,
  book: bookActor,
  fair: fairPriceActor,
  dex: dexChainActor,
  probe: probeActor,
  relay: relayActor,
};
