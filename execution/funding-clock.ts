// Funding of open perp positions (docs/positions-and-tca.md, "Perpetuals"): at each funding
// instant of a venue, every loaded ledger's position there pays or receives qty x mark x rate,
// as the venue settled it. The instants and their rates and marks are the edge's (its
// `FundingHistory`), so a router that was down or a ledger loaded later catches up on the
// instants it missed, each exactly once (the row's funding clock).
import type { EdgeMessage, FundingInfo, FundingPoint } from '../actors/edge/messages.ts';
import { edgeKey } from '../actors/market/directory.ts';
import { edgesOfVenue } from '../domain/venues.ts';
import { nowNs } from '../domain/units.ts';
import type { Logger } from '../engine/actor.ts';
import type { Ledgers } from './ledgers.ts';
import type { MarkFn } from './ledger/ledger.ts';
import type { ExecutionEvents, Messenger, Schedule } from './types.ts';

/** How often the clock looks for due instants: well under the shortest funding interval. */
export const FUNDING_CHECK_MS = 1_000;
const ASK_TIMEOUT_MS = 2_000;

/** The `funding` channel's accrual frame (docs/positions-and-tca.md). */
export interface FundingAccrual {
  kind: 'accrual';
  venue: string;
  symbol: string;
  position_id: number;
  ts_ns: number;
  rate_1e9: number;
  mark_1e9: number;
  qty_1e8: number;
  /** Positive when the position paid, negative when it received. */
  paid_usd_1e9: number;
  /** The position's funding so far (received +, paid -). */
  funding_usd_1e9: number;
}

/** The risk stream's margin event: a perp position crossed its liquidation price (or came back). */
export interface MarginEvent {
  kind: 'margin_call' | 'margin_ok';
  venue: string;
  symbol: string;
  position_id: number;
  qty_1e8: number;
  mark_1e9: number;
  liquidation_price_1e9: number | null;
  initial_margin_usd_1e9: number;
  unrealized_pnl_usd_1e9: number;
  /** What the service does: it alerts; it does not reduce or close (docs/positions-and-tca.md). */
  action: 'alert_only';
}

/**
 * The perp clock of a router: funding instants settled as they come (above), and each second
 * the loaded perp positions held against their liquidation price, a `margin_call` published
 * once when one crosses it and a `margin_ok` when it is back.
 */
export class FundingClock {
  /** `venue|symbol` -> the next funding instant the venue announced (ns). */
  private readonly nextDue = new Map<string, number>();
  /** Positions below maintenance now, by `client|mode|row id`. */
  private readonly below = new Set<string>();
  private cancel: (() => void) | undefined;
  private running = false;

  constructor(
    private readonly messenger: Messenger,
    private readonly schedule: Schedule,
    private readonly ledgers: Ledgers,
    private readonly events: ExecutionEvents,
    private readonly marks: MarkFn,
    private readonly log: Logger,
  ) {}

  start(): void {
    const loop = () => {
      this.cancel = this.schedule(FUNDING_CHECK_MS, () => {
        void this.tick().finally(() => {
          if (this.cancel !== undefined) loop();
        });
      });
    };
    loop();
  }

  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  /** Settles every due instant of the loaded ledgers' open perps. */
  async tick(now = nowNs()): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const [key, { venue, symbol, from_ns }] of this.ledgers.openPerps()) {
        if (now < (this.nextDue.get(key) ?? 0)) continue;
        const edge = edgesOfVenue(venue).find((e) => e.instrument_type === 'perp');
        if (edge === undefined) continue;
        const points = await this.messenger.ask<FundingPoint[]>(edgeKey(edge.edge_id), { t: 'FundingHistory', symbol, from_ns: from_ns + 1, to_ns: now } satisfies EdgeMessage, ASK_TIMEOUT_MS);
        const accruals = await this.ledgers.accrueFunding(venue, symbol, points);
        for (const a of accruals) if (this.events.wants('funding', a.client, a.mode)) this.events.publish('funding', a.client, a.mode, a.frame);
        const info = await this.messenger.ask<FundingInfo | null>(edgeKey(edge.edge_id), { t: 'Funding', symbol } satisfies EdgeMessage, ASK_TIMEOUT_MS);
        if (info !== null) this.nextDue.set(key, info.next_funding_ns);
      }
      this.watchMargins();
    } catch (err) {
      this.log.warn({ err }, 'funding not settled this round');
    } finally {
      this.running = false;
    }
  }

  private watchMargins(): void {
    const still = new Set<string>();
    for (const { client, mode, ledger } of this.ledgers.loaded()) {
      if (ledger.openPerps().length === 0) continue;
      for (const row of ledger.view(this.marks, { kinds: ['perp'] }).positions) {
        const key = `${client}|${mode}|${row.id}`;
        const below = row.margin_state === 'below_maintenance';
        if (below) still.add(key);
        if (below === this.below.has(key)) continue;
        const inst = row.instrument as { symbol: string };
        const event: MarginEvent = {
          kind: below ? 'margin_call' : 'margin_ok',
          venue: row.venue,
          symbol: inst.symbol,
          position_id: row.id,
          qty_1e8: Number(row.qty_1e8),
          mark_1e9: Number(row.current_price_usd_1e9),
          liquidation_price_1e9: row.liquidation_price_1e9 == null ? null : Number(row.liquidation_price_1e9),
          initial_margin_usd_1e9: Number(row.initial_margin_usd_1e9),
          unrealized_pnl_usd_1e9: Number(row.unrealized_pnl_usd_1e9),
          action: 'alert_only',
        };
        if (below) this.log.warn({ client_id: client, mode, venue: row.venue, symbol: inst.symbol }, 'perp position below maintenance');
        if (this.events.wants('margin', client, mode)) this.events.publish('margin', client, mode, event);
      }
    }
    // A position that closed or recovered without a frame leaves the set.
    for (const key of this.below) if (!still.has(key)) this.below.delete(key);
    for (const key of still) this.below.add(key);
  }
}
