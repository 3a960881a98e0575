/**
 * The other regions' edges as this node sees them (pure: no I/O, times passed in). Each node
 * publishes a status per edge every second and on change (`seq.edge.<region>.<venue>.status`);
 * here they become edges with `remote: true` and their `region`, `connected` only while their
 * node keeps speaking, and an age that includes the transit.
 *
 * Clocks differ between regions, so no time of the remote clock is compared with this one: the
 * remote node states how old its data was when it sent the status (by its clock), and this node
 * adds how long ago the status arrived (by its own) plus half the measured round trip to that
 * region (a ping over request/reply; until one is measured, nothing is added and
 * `transit_measured` says so).
 */

export interface EdgeStatusMessage {
  v: 1;
  region: string;
  edge_id: string;
  venue: string;
  connected: boolean;
  symbols: { symbol: string; instrument_type: 'spot' | 'perp' | 'prediction' }[];
  supports_algo_runtime: boolean;
  /** how old the edge's newest venue data was at sending, ms, by the sender's clock */
  data_age_ms: number;
  /** the edge's one-way latency to its venue, ms, as its node knows it */
  latency_ms: number;
  /** the sender's count of statuses for this edge: a late, older one never replaces a newer */
  seq: number;
}

export interface RemoteEdgeView {
  edge_id: string;
  venue: string;
  region: string;
  remote: true;
  connected: boolean;
  symbols: EdgeStatusMessage['symbols'];
  symbol_count: number;
  supports_algo_runtime: boolean;
  /** the edge's data age here: at sending, plus since arrival, plus half the round trip */
  age_ms: number;
  /** an order's one-way time from here to the venue: the edge's own latency plus half the round trip to its node */
  latency_ms: number;
  transit_measured: boolean;
}

interface Held {
  status: EdgeStatusMessage;
  receivedMs: number;
}

/** A remote node that has not spoken for this long is gone: its edges are not connected and the SOR drops them. */
export const REMOTE_SILENCE_MS = 3_000;

export class RemoteEdges {
  private readonly edges = new Map<string, Held>();
  private readonly roundTripMs = new Map<string, number>();

  constructor(
    private readonly localRegion: string,
    private readonly silenceMs = REMOTE_SILENCE_MS,
  ) {}

  /** Takes a status; false when it is this node's own, or older than one already held. */
  apply(status: EdgeStatusMessage, receivedMs: number): boolean {
    if (status.region === this.localRegion) return false;
    const held = this.edges.get(status.edge_id);
    if (held !== undefined && held.status.region === status.region && held.status.seq >= status.seq) return false;
    this.edges.set(status.edge_id, { status, receivedMs });
    return true;
  }

  /** A ping's round trip to `region`; a moving average, so one slow ping does not swing routing. */
  recordRoundTrip(region: string, ms: number): void {
    const before = this.roundTripMs.get(region);
    this.roundTripMs.set(region, before === undefined ? ms : before * 0.8 + ms * 0.2);
  }

  /** The measured round trip to `region`, ms, or undefined before the first ping. */
  roundTrip(region: string): number | undefined {
    return this.roundTripMs.get(region);
  }

  list(nowMs: number): RemoteEdgeView[] {
    return [...this.edges.values()]
      .map(({ status: s, receivedMs }) => {
        const rtt = this.roundTripMs.get(s.region);
        const sinceArrival = Math.max(0, nowMs - receivedMs);
        return {
          edge_id: s.edge_id,
          venue: s.venue,
          region: s.region,
          remote: true as const,
          connected: s.connected && sinceArrival <= this.silenceMs,
          symbols: s.symbols,
          symbol_count: s.symbols.length,
          supports_algo_runtime: s.supports_algo_runtime,
          age_ms: Math.round(Math.max(0, s.data_age_ms) + sinceArrival + (rtt === undefined ? 0 : rtt / 2)),
          latency_ms: Math.max(0, s.latency_ms) + (rtt === undefined ? 0 : rtt / 2),
          transit_measured: rtt !== undefined,
        };
      })
      .sort((a, b) => (a.edge_id < b.edge_id ? -1 : a.edge_id > b.edge_id ? 1 : 0));
  }

  /**
   * `/v1/health/edges` drift over the remote side: venues expected to run remotely with no
   * connected edge now, and remote venues nobody expected.
   */
  drift(expectedRemoteVenues: readonly string[], nowMs: number): { missing: string[]; unexpected: string[] } {
    const connected = new Set(this.list(nowMs).filter((e) => e.connected).map((e) => e.venue));
    const expected = new Set(expectedRemoteVenues);
    return {
      missing: [...expected].filter((v) => !connected.has(v)).sort(),
      unexpected: [...connected].filter((v) => !expected.has(v)).sort(),
    };
  }
}
