import type { Actor, ActorContext } from '../../engine/actor.ts';
import { publishOn, topic } from '../../engine/topic.ts';
import type { MakerFill } from '../edge/messages.ts';

/** A maker fill of a child this node runs for another region's order, on its way to the link. */
export const RELAYED_FILL_TOPIC = topic<MakerFill>('$relayed_fill');

/**
 * `relay:<home region>|<router>`: the owner an edge is given for a child it runs for an order
 * homed in another region (actors/edge/live/desk.ts `relayOwner`). The edge tells it the child's
 * maker fills as it would tell the order's router; it hands them to the link on the gateway
 * thread, which adds them to the child's record for the home node to collect. Stateless.
 */
export function relayActor(): Actor<MakerFill> {
  return {
    onMessage(message: MakerFill, ctx: ActorContext) {
      if (message.t === 'MakerFill') publishOn(ctx, RELAYED_FILL_TOPIC, message);
      return undefined;
    },
  };
}
