import { Type } from 'typebox';
import type { DeploymentView } from '../../execution/deployments/manager.ts';
import type { LogLine } from '../../execution/deployments/logs.ts';
import { Count, describing, Nullable, StringEnum } from './common.ts';

const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$';
const LABEL = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$' });

/** The spec's `CreateDeploymentRequest`, plus `instrument_type` (spot or perp edges; an extension). */
export const CreateDeploymentBody = Type.Object(
  {
    symbols: Type.Array(Type.String({ minLength: 3, maxLength: 40 }), { minItems: 1, maxItems: 8, uniqueItems: true, description: 'canonical symbols, e.g. BTC-USDT; `symbol_id` in the L2Book the algo reads is the index here' }),
    name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    venue: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'single target venue (or edge id)' }))),
    venues: Type.Optional(
      Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 16, uniqueItems: true, description: 'target venues or edge ids; overrides `venue`; null = every edge with supports_algo_runtime' })),
    ),
    instrument_type: Type.Optional(StringEnum(['spot', 'perp'] as const, "which of a venue's edges the algo runs on (default spot)")),
    start_immediately: Type.Optional(Type.Boolean()),
    artifact_base64: Type.Optional(Nullable(Type.String({ minLength: 1, description: 'a WebAssembly module built for the public algo ABI (docs/deployments.md), base64; at most ALGO_ARTIFACT_MAX_BYTES decoded' }))),
    bundle_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'a JavaScript strategy the operator installed (none are installed by default)' }))),
    config: Type.Optional(Type.Unknown({ description: 'any JSON, kept with the record' })),
    deployment_id: Type.Optional(Nullable(Type.String({ pattern: ID_PATTERN, description: 'the id the record takes (a fund-layer deployment id); 409 when taken' }))),
    mesh_group: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, pattern: ID_PATTERN }))),
    mesh_label: Type.Optional(Nullable(LABEL)),
  },
  { $id: 'CreateDeploymentRequest', additionalProperties: false },
);

const Percentiles = (description: string) =>
  Type.Object({ n: Count('samples so far'), p50: Type.Number({ minimum: 0 }), p99: Type.Number({ minimum: 0 }) }, { additionalProperties: false, description });

const EdgeData = Type.Object(
  {
    edge_id: Type.String(),
    venue: Type.String(),
    symbol: Type.String(),
    symbol_id: Count('the L2Book symbol_id this instance reads'),
    mesh_label: Type.String(),
    connected: Type.Boolean({ description: "the edge's feed is up (false while stopped)" }),
    position_1e8: Type.Integer({ description: "the instance's position from its own fills (AlgoState)" }),
    avg_entry_1e9: Count(),
    realized_pnl_1e9: Type.Integer(),
    unrealized_pnl_1e9: Type.Integer({ description: 'at the edge mid when the book was last seen' }),
    orders_sent: Count(),
    fills: Count(),
    filled_qty_1e8: Count(),
    rejects: Count(),
    cancels: Count(),
    books: Count('book callbacks'),
    last_book_ms: Nullable(Count(), 'when the algo last saw a book'),
    open_orders: Count(),
  },
  { additionalProperties: false },
);

export const DeploymentSchema = describing<DeploymentView>()(
  Type.Object(
    {
      deployment_id: Type.String(),
      name: Nullable(Type.String()),
      is_sandbox: Type.Boolean(),
      symbols: Type.Array(Type.String()),
      venues: Nullable(Type.Array(Type.String()), 'as asked; null = every capable edge'),
      instrument_type: StringEnum(['spot', 'perp'] as const),
      status: StringEnum(['created', 'starting', 'running', 'stopping', 'stopped', 'failed'] as const),
      reason: Nullable(Type.String(), 'why it failed'),
      mesh_group: Nullable(Type.String()),
      mesh_label: Nullable(Type.String()),
      bundle_id: Nullable(Type.String()),
      config: Type.Unknown(),
      artifact: Type.Object({ sha256: Type.String(), bytes: Count(), mesh_extension: Type.Boolean({ description: 'exports algo_on_mesh' }) }, { additionalProperties: false }),
      created_at_ms: Count(),
      started_at_ms: Nullable(Count()),
      stopped_at_ms: Nullable(Count()),
      starts: Count('starts so far (the epoch in its client_order_ids)'),
      edges: Type.Array(EdgeData, { description: 'live edge data, one entry per instance (edge x symbol)' }),
      runtime: Nullable(
        Type.Object(
          {
            memory_bytes: Count(),
            callbacks: Count(),
            max_callback_us: Count(),
            latency: Type.Object(
              {
                book_to_callback_us: Percentiles('the edge published a book change -> algo_on_book began'),
                book_to_router_us: Percentiles("-> the order it returned was taken by the client's router"),
                book_to_ack_us: Percentiles('-> the router answered it (admitted, durable)'),
                host_to_router_us: Percentiles("the algo host took the book change -> the router took the order (the host's own path)"),
              },
              { additionalProperties: false, description: 'over the last 4,096 samples of each, microseconds' },
            ),
          },
          { additionalProperties: false },
        ),
        'while running: WASM memory, callbacks so far, the slowest callback',
      ),
    },
    { $id: 'Deployment', additionalProperties: false },
  ),
);

export const DeploymentLogLine = describing<LogLine>()(
  Type.Object(
    {
      deployment_id: Type.String(),
      ts_ms: Count(),
      level: StringEnum(['trace', 'debug', 'info', 'warn', 'error'] as const),
      edge_id: Type.String({ description: "the instance's edge; empty for the host's own lines" }),
      text: Type.String(),
    },
    { $id: 'DeploymentLogLine', additionalProperties: false },
  ),
);

export const DeploymentLogs = Type.Object(
  { deployment_id: Type.String(), lines: Type.Array(DeploymentLogLine), dropped: Count('lines lost to the rate cap or the ring') },
  { additionalProperties: false },
);

export const DeploymentIdParams = Type.Object({ deployment_id: Type.String({ minLength: 1, maxLength: 64 }) });
