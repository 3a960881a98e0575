import type { EdgeMessage, FeeTierInfo } from '../actors/edge/messages.ts';
import { edgeKey } from '../actors/market/directory.ts';
import type { Mode } from '../domain/orders.ts';
import { edgesOfVenue } from '../domain/venues.ts';
import type { Logger } from '../engine/actor.ts';

const PROBE_TIMEOUT_MS = 10_000;

/** What the venue says of a stored key. */
export interface KeyProbe {
  tier: string;
  maker_bps: number;
  taker_bps: number;
  /** true: the key can withdraw (unsafe for an execution service); null: the venue does not say */
  can_withdraw: boolean | null;
  at_ms: number;
}

/**
 * The credentials probe of the live venues (spec, Credentials: "after a POST, the per-venue fee
 * tier is probed ... in the background"): the venue is asked, with the client's own key, for its
 * fee rates and permissions. A key that can withdraw is flagged unsafe in the credential listing
 * and counted in `/v1/health`: an execution service needs read and trade only. On the gateway
 * thread; held in memory and probed again for every stored live key at start.
 */
export class CredentialProbes {
  private readonly probes = new Map<string, KeyProbe>();

  constructor(
    private readonly asker: { ask<R>(to: string, message: unknown, timeoutMs?: number): Promise<R> },
    private readonly liveVenues: readonly string[],
    private readonly log: Logger,
  ) {}

  /** Asks the venue about the client's key; never rejects (a failed probe leaves nothing flagged). */
  async probe(client_id: string, mode: Mode, venue: string): Promise<KeyProbe | undefined> {
    if (mode !== 'live' || !this.liveVenues.includes(venue)) return undefined;
    const edge = edgesOfVenue(venue).find((e) => e.instrument_type === 'spot') ?? edgesOfVenue(venue)[0];
    if (edge === undefined) return undefined;
    try {
      const info = await this.asker.ask<FeeTierInfo>(edgeKey(edge.edge_id), { t: 'FeeTier', client_id } satisfies EdgeMessage, PROBE_TIMEOUT_MS);
      const probe: KeyProbe = { tier: info.tier, maker_bps: info.maker_bps, taker_bps: info.taker_bps, can_withdraw: info.can_withdraw ?? null, at_ms: Date.now() };
      this.probes.set(`${client_id}|${mode}|${venue}`, probe);
      if (probe.can_withdraw === true) this.log.warn({ client_id, venue }, 'venue key can withdraw: flagged unsafe (grant read and trade only)');
      return probe;
    } catch (err) {
      this.log.warn({ client_id, venue, err }, 'credentials probe failed');
      return undefined;
    }
  }

  forget(client_id: string, mode: Mode, venue: string): void {
    this.probes.delete(`${client_id}|${mode}|${venue}`);
  }

  /** The client's venues whose key the venue reports able to withdraw, sorted. */
  unsafe(client_id: string, mode: Mode): string[] {
    const prefix = `${client_id}|${mode}|`;
    const out: string[] = [];
    for (const [key, probe] of this.probes) if (probe.can_withdraw === true && key.startsWith(prefix)) out.push(key.slice(prefix.length));
    return out.sort();
  }

  /** Stored keys, all clients, that can withdraw. */
  unsafeCount(): number {
    let n = 0;
    for (const probe of this.probes.values()) if (probe.can_withdraw === true) n++;
    return n;
  }
}
