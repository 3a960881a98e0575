import type { Actor, ActorContext } from '../../engine/actor.ts';
import { underlyingIndex } from '../market/directory.ts';
import { fairInterestIndex } from '../market/interest.ts';
import { FairPriceRegistry, type FairPrice } from './compute.ts';
import type { FairMessage } from './messages.ts';

/** `fair_price:<underlying>` fires at most once per this interval per underlying (spec: ~1 ms). */
export const FAIR_COALESCE_MS = 1;

/**
 * Fair prices of every underlying. Contributions from the book actors land in the pure
 * registry; each underlying that changed is recomputed once per coalescing window and published
 * when someone listens.
 */
export function fairPriceActor(): Actor<FairMessage> {
  const registry = new FairPriceRegistry();
  const dirty = new Set<string>();
  let flushScheduled = false;
  let interest: Int32Array | undefined;

  const listening = (underlying: string) => {
    if (interest === undefined) return true;
    const index = underlyingIndex(underlying);
    return index === undefined || Atomics.load(interest, fairInterestIndex(index)) > 0;
  };

  const flush = (ctx: ActorContext) => {
    flushScheduled = false;
    const now = Date.now() * 1_000_000;
    for (const underlying of dirty) {
      if (!listening(underlying)) continue;
      const fair = registry.compute(underlying, now);
      if (fair !== undefined) ctx.publish(`fair_price:${underlying}`, fair);
    }
    dirty.clear();
  };

  const touch = (ctx: ActorContext, symbol: string, changed: boolean) => {
    if (!changed) return;
    const underlying = symbol.slice(0, symbol.indexOf('-'));
    dirty.add(underlying);
    if (!flushScheduled) {
      flushScheduled = true;
      ctx.schedule(FAIR_COALESCE_MS, () => flush(ctx));
    }
  };

  return {
    onStart(ctx) {
      const shared = ctx.environment.shared['interest'];
      if (shared !== undefined) interest = new Int32Array(shared);
    },
    onMessage(message, ctx): FairPrice | null | string[] | undefined {
      switch (message.t) {
        case 'Contribution': {
          const { symbol, t: _t, ...contribution } = message;
          touch(ctx, symbol, registry.update(symbol, contribution));
          return undefined;
        }
        case 'Remove':
          touch(ctx, message.symbol, registry.remove(message.symbol, message.venue, message.instrument_type));
          return undefined;
        case 'Get':
          return registry.compute(message.underlying, Date.now() * 1_000_000) ?? null;
        case 'List':
          return registry.underlyings().sort();
      }
    },
  };
}
