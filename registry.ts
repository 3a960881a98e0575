import type { ActorRegistry } from './engine/actor.ts';
import { registry as marketActors } from './actors/registry.ts';
import { routerActor } from './execution/router/actor.ts';

/**
 * Every actor kind a worker hosts, by key prefix: the market's actors (actors/registry.ts) and
 *
 *   router:<mode>|<client>  one client's execution in one mode (execution/router/)
 *
 * The journal stage (binary JOURNAL_WRITE frames) runs on the gateway thread, beside LMDB's
 * writer (service.ts).
 */
export const registry: ActorRegistry = {
  ...marketActors,
  router: routerActor,
};
