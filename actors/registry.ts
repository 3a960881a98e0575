import type { ActorRegistry } from '../engine/actor.ts';
import { probeActor } from './probe/actor.ts';

/**
 * Actor kinds by key prefix. Every worker loads this module; later issues add `edge`, `book`,
 * `router` and the singletons here.
 */
export const registry: ActorRegistry = {
  probe: probeActor,
};
