import { Type, type Static } from 'typebox';
import type { TapeStats } from '../../storage/trades.ts';
import { Count, describing, Nullable, StringEnum } from './common.ts';

/** Market-data health and the trade tape: `/v1/health/feeds`, `/v1/data/health`, `/v1/data/stats`. */

export const TapeStatsSchema = describing<TapeStats>()(
  Type.Object(
    {
      written: Count('trades written since the start'),
      pruned: Count('trades pruned past the retention since the start'),
      last_write_ms: Count('0 before the first write'),
      oldest_kept_ms: Count('the last prune cutoff; 0 before the first prune'),
    },
    { $id: 'TapeStats', additionalProperties: false, description: 'The trade tape of this process' },
  ),
);

export const FeedHealthSchema = Type.Object(
  {
    symbols: Type.Array(
      Type.Object(
        {
          symbol: Type.String(),
          instrument_type: StringEnum(['spot', 'perp']),
          age_ms: Nullable(Count(), 'since the consolidated book last changed; null before it has one'),
          venues_expected: Count('venues listing the symbol'),
          venues_quoting: Count(),
          crossed: Type.Boolean(),
          gap: Type.Boolean({ description: 'no consolidated book, or one unchanged for over 10 s' }),
        },
        { additionalProperties: false },
      ),
    ),
    rings: Type.Array(
      Type.Object(
        {
          thread: Type.Integer({ minimum: 1 }),
          up: Type.Boolean({ description: 'the worker answered the stats request' }),
          mailbox_pending_bytes: Nullable(Count(), 'null when the worker did not answer'),
          fullest_ring: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "the fullest of the worker's inbound rings, share in use (1: its producer sees backpressure)" })),
          heap_used_bytes: Nullable(Count(), "the worker's V8 heap in use; null when the worker did not answer"),
          actors: Nullable(Count(), 'null when the worker did not answer'),
        },
        { additionalProperties: false },
      ),
      { description: 'one per worker thread' },
    ),
    gateway_thread: Type.Object(
      {
        heap_used_bytes: Count("the gateway thread's V8 heap in use"),
        fullest_ring: Type.Number({ minimum: 0, maximum: 1, description: 'the fullest ring into the gateway thread (replies, publishes, journal frames), share in use' }),
        event_loop_delay: Type.Object(
          {
            window_ms: Count('the window these figures cover (the last complete one); 0 before the first ends'),
            p50_ms: Type.Number({ minimum: 0 }),
            p99_ms: Type.Number({ minimum: 0 }),
            max_ms: Type.Number({ minimum: 0 }),
          },
          { additionalProperties: false, description: "how late the gateway thread's event loop ran a 10 ms timer" },
        ),
      },
      { additionalProperties: false, description: 'thread 0: HTTP, WebSocket, SSE and the journal' },
    ),
    venues: Type.Array(
      Type.Object(
        {
          edge_id: Type.String(),
          connected: Type.Boolean(),
          last_seen_age_ms: Nullable(Count(), 'null before the edge saw anything'),
          symbol_count: Count(),
        },
        { additionalProperties: false },
      ),
    ),
    tape: TapeStatsSchema,
    reconciliation: Type.Object({ state: Type.Literal('not_applicable'), note: Type.String() }, { additionalProperties: false }),
  },
  { $id: 'FeedHealth', additionalProperties: false },
);

export const DataHealthSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'the tape was written within the last 10 s' }),
    ...TapeStatsSchema.properties,
    last_write_age_ms: Nullable(Count(), 'null before the first write'),
    retention_ms: Count(),
  },
  { $id: 'DataHealth', additionalProperties: false },
);

export const DataStatsSchema = Type.Object(
  {
    window_ms: Type.Literal(3_600_000),
    trades_last_hour: Type.Record(Type.String(), Count(), { description: 'trades on the tape per book (`SYMBOL`, or `SYMBOL:perp`)' }),
    tape: TapeStatsSchema,
  },
  { $id: 'DataStats', additionalProperties: false },
);

export type FeedHealth = Static<typeof FeedHealthSchema>;
export type DataHealth = Static<typeof DataHealthSchema>;
export type DataStats = Static<typeof DataStatsSchema>;
