// Which resolutions a position's event contract is bound by: the pure match, and the lookup a
// router makes in the stored resolutions for rows that missed the live event.
import type { MarketResolution, MarketResolutionStore } from '../storage/market-resolutions.ts';
import type { ContractOutcome, EventContractInstrument } from './ledger/ledger.ts';

/** What a resolution says, as a router is told it (the stored record without its frame). */
export type ResolutionFacts = Pick<MarketResolution, 'venue' | 'market_id' | 'yes_token_id' | 'no_token_id' | 'yes_won' | 'resolved_at_ns'>;

/**
 * The outcome of `r` for a contract held on `venue`; undefined when it is another market. A
 * contract with a token id is that token's leg (a position stated by token id alone is bound
 * by its token, whatever outcome label it carries); otherwise the market is its slug (the
 * ticker on the ticker-style venue) and the leg its outcome.
 */
export function contractOutcome(r: ResolutionFacts, contract: EventContractInstrument, venue: string): ContractOutcome | undefined {
  if (venue !== r.venue) return undefined;
  const at = r.resolved_at_ns;
  if (contract.token_id !== null && r.yes_token_id !== undefined) {
    if (contract.token_id === r.yes_token_id) return { won: r.yes_won, resolved_at_ns: at };
    if (contract.token_id === r.no_token_id) return { won: !r.yes_won, resolved_at_ns: at };
    return undefined;
  }
  if (contract.market_slug !== r.market_id) return undefined;
  return { won: (contract.outcome.toUpperCase() === 'YES') === r.yes_won, resolved_at_ns: at };
}

/** The stored resolution binding a contract, if its market has resolved (a router's ledger on load, a late position). */
export function storedOutcome(store: Pick<MarketResolutionStore, 'get' | 'byToken'>, contract: EventContractInstrument, venue: string): ContractOutcome | undefined {
  const r = contract.token_id !== null ? store.byToken(contract.token_id) : store.get(venue, contract.market_slug);
  return r === undefined ? undefined : contractOutcome(r, contract, venue);
}
