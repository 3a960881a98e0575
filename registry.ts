import type { ActorRegistry } from './engine/actor.ts';
import { registry as marketActors } from './actors/registry.ts';
import { edgeLayouts } from './actors/edge/wire.ts';
import type { MessageLayout } from './engine/message-layout.ts';
import { routerActor } from './execution/router/actor.ts';
import { algoActor } from './execution/algo/actor.ts';
import { routerLayouts } from './execution/router/wire.ts';

/**
 * Every actor kind a worker hosts, by key prefix: the market's actors (actors/registry.ts) and
 *
 *   router:<mode>|<client>  one client's execution in one mode (execution/router/)
 *   algo:<mode>|<client>|<id>  a strategy deployment, on the algo workers (execution/algo/)
 *
 * The journal stage (binary JOURNAL_WRITE frames) runs on the gateway thread, beside LMDB's
 * writer (service.ts).
 */
export const registry: ActorRegistry = {
  ...marketActors,
  router: routerActor,
  algo: algoActor,
};

/**
 * Messages of the order path that travel as fixed binary layouts instead of msgpack: the order
 * request, child orders and their execution reports, maker fills. Every thread loads this list.
 */
export const layouts: readonly MessageLayout[] = [...edgeLayouts, ...routerLayouts];
