import type { ActorRegistry } from '../engine/actor.ts';
import { bookActor } from './book/actor.ts';
import { edgeActor } from './edge/actor.ts';
import { fairPriceActor } from './fair-price/actor.ts';
import { probeActor } from './probe/actor.ts';

/**
 * Actor kinds by key prefix. Every worker loads this module.
 *
 *   edge:<edge_id>          a venue edge (simulated venue behind the edge interface)
 *   book:<symbol>[:perp]    a consolidated book
 *   fair:all                fair prices of every underlying
 *   probe:<name>            diagnostics
 */
export const registry: ActorRegistry = {
  edge: edgeActor,
  book: bookActor,
  fair: fairPriceActor,
  probe: probeActor,
};
