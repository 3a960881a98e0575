import { Type } from 'typebox';
import { ApiError, Errors } from '../errors.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteSpec } from '../http/route.ts';
import { KillSwitchSchema } from '../schemas/risk.ts';

const WorkerStatusSchema = Type.Object({
  thread: Type.Integer(),
  role: Type.String({ enum: ['actor', 'algo'], description: '`actor`: edges, books, routers; `algo`: strategy deployments only (an algo worker restarting does not make the service unready)' }),
  state: Type.String({ enum: ['starting', 'up', 'restarting', 'stopped'] }),
  restarts: Type.Integer({ minimum: 0 }),
  thread_id: Type.Union([Type.Integer(), Type.Null()]),
});

const HealthSchema = Type.Object(
  {
    status: Type.String({ enum: ['ok', 'degraded', 'halted'] }),
    version: Type.String(),
    uptime_ms: Type.Integer({ minimum: 0 }),
    ready: Type.Boolean(),
    safe: Type.Boolean(),
    workers: Type.Array(WorkerStatusSchema),
    storage: Type.Object({
      open: Type.Boolean(),
      schema_version: Type.Integer(),
      writable: Type.Boolean({ description: 'false while the disk is below its free-space reserve, and for 10 s after an LMDB commit failed (I/O error): not ready, writes refused with 503' }),
      reason: Type.Union([Type.String(), Type.Null()], { description: 'why writes are refused, while they are' }),
      write_failures: Type.Integer({ minimum: 0, description: 'failed LMDB commits since start' }),
      free_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "free space on the data directory's filesystem (null: the filesystem does not say)" }),
      min_free_bytes: Type.Integer({ minimum: 0, description: 'the reserve below which writes are refused (STORAGE_MIN_FREE_MB)' }),
    }),
    kill_switch: KillSwitchSchema,
    ws_connections: Type.Integer({ minimum: 0 }),
    unsafe_credentials: Type.Integer({ minimum: 0, description: 'stored live-venue keys the venue reports able to withdraw (GET /v1/credentials names them to their client)' }),
  },
  { $id: 'Health' },
);

const tags = ['health'];

export function healthRoutes(ctx: GatewayContext): RouteSpec[] {
  const ready = () => ctx.storage.isOpen && ctx.storage.writable && ctx.topology.ready;
  const notReadyReason = () =>
    !ctx.storage.isOpen
      ? 'storage is not open'
      : !ctx.storage.writable
        ? `storage refuses writes: ${ctx.storage.refusal() ?? 'no longer'}`
        : `workers not up: ${ctx.topology
          .status()
          .filter((w) => w.state !== 'up')
          .map((w) => `${w.thread}=${w.state}`)
          .join(', ')}`;
  return [
    {
      method: 'get',
      path: '/v1/health',
      operationId: 'getHealth',
      summary: 'Detailed health: workers, storage, kill switch',
      tags,
      auth: 'public',
      responses: { 200: { description: 'Health', schema: HealthSchema } },
      handler: () => {
        const isReady = ready();
        const refusal = ctx.storage.refusal();
        const free = ctx.storage.space.free();
        const safe = !ctx.killSwitch.active;
        return {
          status: 200,
          body: {
            status: !safe ? 'halted' : isReady ? 'ok' : 'degraded',
            version: ctx.version,
            uptime_ms: Date.now() - ctx.startedAtMs,
            ready: isReady,
            safe,
            workers: ctx.topology.status(),
            storage: {
              open: ctx.storage.isOpen,
              schema_version: ctx.storage.isOpen ? ctx.storage.schemaVersion : 0,
              writable: refusal === undefined,
              reason: refusal ?? null,
              write_failures: ctx.storage.writeFailures,
              free_bytes: Number.isFinite(free) ? free : null,
              min_free_bytes: ctx.storage.space.minFreeBytes,
            },
            kill_switch: ctx.killSwitch.state,
            ws_connections: ctx.wsConnections(),
            unsafe_credentials: ctx.credentialProbes.unsafeCount(),
          },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/health/live',
      operationId: 'getHealthLive',
      summary: '200 while the process is alive',
      tags,
      auth: 'public',
      responses: {
        200: { description: 'Alive', schema: Type.Object({ status: Type.Literal('alive'), uptime_ms: Type.Integer() }) },
      },
      handler: () => ({ status: 200, body: { status: 'alive', uptime_ms: Date.now() - ctx.startedAtMs } }),
    },
    {
      method: 'get',
      path: '/v1/health/ready',
      operationId: 'getHealthReady',
      summary: '200 when workers and storage are up, 503 otherwise',
      tags,
      auth: 'public',
      responses: {
        200: { description: 'Ready', schema: Type.Object({ ready: Type.Literal(true), workers: Type.Integer() }) },
        503: { description: 'Not ready (error envelope, code NOT_READY)' },
      },
      handler: () => {
        if (!ready()) throw Errors.unavailable('NOT_READY', notReadyReason());
        return { status: 200, body: { ready: true, workers: ctx.topology.workers } };
      },
    },
    {
      method: 'get',
      path: '/v1/health/safety',
      operationId: 'getHealthSafety',
      summary: '200 when execution admission is safe, 503 while the kill switch halts dispatch',
      tags,
      auth: 'public',
      responses: {
        200: { description: 'Safe', schema: Type.Object({ safe: Type.Literal(true), kill_switch_active: Type.Literal(false) }) },
        503: { description: "Dispatch halted (error envelope, code DISPATCH_HALTED); `details` has one row per live venue: its cancel-all's outcome on the venue" },
      },
      handler: () => {
        const state = ctx.killSwitch.state;
        if (state.active) {
          // Each live venue's cancel-all, as its edge reported it: what was cancelled on the venue.
          const venues = ctx.killSwitch.liveVenues().map((r) => ({
            field: r.venue,
            message: `cancel-all at ${new Date(r.at_ms).toISOString()}: ${r.cancelled} open orders cancelled on the venue${r.failed > 0 ? `; accounts the venue refused or did not answer: ${r.failed}` : ''}`,
          }));
          throw new ApiError(503, 'DISPATCH_HALTED', `kill switch active${state.reason ? `: ${state.reason}` : ''}`, venues);
        }
        return { status: 200, body: { safe: true, kill_switch_active: false } };
      },
    },
  ];
}
