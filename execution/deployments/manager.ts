import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '../../engine/actor.ts';
import { hashKey } from '../../engine/placement.ts';
import type { Topology } from '../../engine/topology.ts';
import type { DeploymentRecord, DeploymentStore, InstanceCheckpoint } from '../../storage/deployments.ts';
import { checkArtifact } from '../algo/artifact.ts';
import { algoKey, algoOwner, type AlgoStats, type DeploymentEvent, type StartAnswer } from '../algo/messages.ts';
import { clearCallback, runningCallback } from '../algo/watch.ts';
import type { AlgoLatency } from '../algo/latency.ts';
import { refuse, ResultCode } from '../result-codes.ts';
import { routerKey } from '../router/messages.ts';
import type { OrderOwner } from '../types.ts';
import { deploymentInstances } from './instances.ts';
import { LogRing, type LogLine } from './logs.ts';

export interface DeploymentLimits {
  /** largest artifact, bytes (ALGO_ARTIFACT_MAX_BYTES) */
  artifactBytes: number;
  /** a module's memory cap, bytes (ALGO_MEMORY_MB) */
  memoryBytes: number;
  /** the longest one callback may run, ms (ALGO_CALLBACK_BUDGET_MS) */
  callbackBudgetMs: number;
  /** deployments a client keeps per mode, and how many of them may run at once */
  perClient: number;
  runningPerClient: number;
}

/** `CreateDeploymentRequest` after schema validation. */
export interface CreateDeployment {
  symbols: string[];
  name?: string | null;
  venue?: string | null;
  venues?: string[] | null;
  instrument_type?: 'spot' | 'perp';
  start_immediately?: boolean;
  artifact_base64?: string | null;
  bundle_id?: string | null;
  config?: unknown;
  deployment_id?: string | null;
  mesh_group?: string | null;
  mesh_label?: string | null;
}

/** The record as the API shows it, with its live edge data. */
export interface DeploymentView {
  deployment_id: string;
  name: string | null;
  is_sandbox: boolean;
  symbols: string[];
  venues: string[] | null;
  instrument_type: 'spot' | 'perp';
  status: DeploymentRecord['status'];
  reason: string | null;
  mesh_group: string | null;
  mesh_label: string | null;
  bundle_id: string | null;
  config: unknown;
  artifact: { sha256: string; bytes: number; mesh_extension: boolean };
  created_at_ms: number;
  started_at_ms: number | null;
  stopped_at_ms: number | null;
  starts: number;
  edges: (InstanceCheckpoint & { edge_id: string; venue: string; symbol: string; symbol_id: number; mesh_label: string; connected: boolean })[];
  runtime: { memory_bytes: number; callbacks: number; max_callback_us: number; latency: AlgoLatency } | null;
}

const WATCH_EVERY_MS = 5;
const ASK_MS = 10_000;
const ACTIVE = new Set(['starting', 'running', 'stopping']);

/**
 * Strategy deployments on the gateway thread, beside LMDB's writer: the records' lifecycle
 * (created -> starting -> running -> stopping -> stopped, or failed with a reason), the algo
 * actors told to start and stop, their logs (a bounded ring per deployment, fanned out to
 * `deployment_logs:<id>`), their checkpoints, and the watchdog that ends an algo worker whose
 * callback ran past its budget (docs/deployments.md).
 */
export class DeploymentManager {
  /**
   * Every record by actor key: this thread is their only writer, so the map is the truth and
   * LMDB is written through (a read of LMDB right after a put would not see it before the
   * commit). The algo actors and routers read LMDB.
   */
  private readonly records = new Map<string, DeploymentRecord>();
  private readonly logs = new Map<string, LogRing>();
  /** key hash -> actor key of every active deployment, for the watchdog */
  private readonly byHash = new Map<number, string>();
  private watchTimer: NodeJS.Timeout | undefined;
  /** The callback watch words, read every WATCH_EVERY_MS. */
  private readonly watchWords: Float64Array;
  private logListener: ((owner: OrderOwner, id: string, line: LogLine) => void) | undefined;

  constructor(
    private readonly store: DeploymentStore,
    private readonly topology: Topology,
    watch: SharedArrayBuffer,
    private readonly limits: DeploymentLimits,
    private readonly log: Logger,
  ) {
    this.watchWords = new Float64Array(watch);
    for (const r of store.all()) this.records.set(algoKey(r.mode, r.client_id, r.deployment_id), r);
  }

  private find(client: string, mode: OrderOwner['mode'], id: string): DeploymentRecord | undefined {
    return this.records.get(algoKey(mode, client, id));
  }

  private ofClient(client: string, mode: OrderOwner['mode']): DeploymentRecord[] {
    return [...this.records.values()].filter((r) => r.client_id === client && r.mode === mode).sort((a, b) => a.created_at_ms - b.created_at_ms);
  }

  private save(record: DeploymentRecord): Promise<boolean> {
    this.records.set(algoKey(record.mode, record.client_id, record.deployment_id), record);
    return this.store.put(record);
  }

  onLog(listener: (owner: OrderOwner, id: string, line: LogLine) => void): void {
    this.logListener = listener;
  }

  /** After the workers are up: running deployments start again, half-stopped ones end stopped. */
  async boot(): Promise<void> {
    for (const d of [...this.records.values()]) {
      if (d.status === 'starting' || d.status === 'running') {
        if (d.status === 'starting') await this.save({ ...d, status: 'running', updated_at_ms: Date.now() });
        this.activate(d);
      } else if (d.status === 'stopping') {
        await this.save({ ...d, status: 'stopped', stopped_at_ms: Date.now(), updated_at_ms: Date.now() });
        await this.cancelOrders(d);
      }
    }
    this.watchTimer = setInterval(() => this.watchdog(), WATCH_EVERY_MS);
    this.watchTimer.unref();
  }

  close(): void {
    if (this.watchTimer !== undefined) clearInterval(this.watchTimer);
  }

  async create(owner: OrderOwner, body: CreateDeployment): Promise<DeploymentView> {
    const { client_id, mode } = owner;
    if (body.bundle_id != null) throw refuse(ResultCode.BUNDLE_NOT_FOUND, `no operator bundle ${body.bundle_id} is installed (JavaScript strategies run only as bundles the operator installs)`);
    if (body.artifact_base64 == null) throw refuse(ResultCode.INVALID_FIELD, 'artifact_base64 (a WebAssembly module for the algo ABI) or bundle_id is required', 'artifact_base64');
    const bytes = Buffer.from(body.artifact_base64, 'base64');
    if (bytes.length > this.limits.artifactBytes) throw refuse(ResultCode.INVALID_FIELD, `artifact is ${bytes.length} bytes; the cap is ${this.limits.artifactBytes}`, 'artifact_base64');
    const artifact = checkArtifact(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), this.limits.memoryBytes);
    if (!artifact.ok) throw refuse(ResultCode.INVALID_FIELD, artifact.message, 'artifact_base64');
    const targets = body.venues ?? (body.venue != null ? [body.venue] : null);
    const instrumentType = body.instrument_type ?? 'spot';
    const instances = deploymentInstances(body.symbols, targets, instrumentType);
    if ('field' in instances) throw refuse(ResultCode.INVALID_FIELD, instances.message, instances.field);
    const id = body.deployment_id ?? `dep_${randomBytes(8).toString('hex')}`;
    if (this.find(client_id, mode, id) !== undefined) throw refuse(ResultCode.DEPLOYMENT_EXISTS, `deployment ${id} exists`);
    if (this.ofClient(client_id, mode).length >= this.limits.perClient) throw refuse(ResultCode.DEPLOYMENT_LIMIT, `at most ${this.limits.perClient} deployments per client and mode; delete one first`);
    const now = Date.now();
    const record: DeploymentRecord = {
      deployment_id: id,
      client_id,
      mode,
      name: body.name ?? null,
      symbols: [...body.symbols],
      venues: targets === null ? null : [...targets],
      instrument_type: instrumentType,
      instances,
      status: 'created',
      reason: null,
      mesh_group: body.mesh_group ?? null,
      mesh_label: body.mesh_label ?? null,
      config: body.config ?? null,
      bundle_id: null,
      artifact_sha256: createHash('sha256').update(bytes).digest('hex'),
      artifact_bytes: bytes.length,
      has_mesh: artifact.has_mesh,
      created_at_ms: now,
      started_at_ms: null,
      stopped_at_ms: null,
      updated_at_ms: now,
      starts: 0,
      checkpoints: [],
    };
    this.records.set(algoKey(mode, client_id, id), record);
    try {
      await this.store.create(record, artifact.bytes);
      await this.store.durable();
    } catch (err) {
      this.records.delete(algoKey(mode, client_id, id));
      throw err;
    }
    this.log.info({ client_id, mode, deployment_id: id, instances: instances.length }, 'deployment created');
    if (body.start_immediately === true) return this.start(owner, id);
    return this.view(record, null);
  }

  async list(owner: OrderOwner): Promise<DeploymentView[]> {
    const records = this.ofClient(owner.client_id, owner.mode);
    return Promise.all(records.map(async (r) => this.view(r, await this.stats(r))));
  }

  async get(owner: OrderOwner, id: string): Promise<DeploymentView> {
    const record = this.record(owner, id);
    return this.view(record, await this.stats(record));
  }

  async start(owner: OrderOwner, id: string): Promise<DeploymentView> {
    const record = this.record(owner, id);
    if (ACTIVE.has(record.status)) throw refuse(ResultCode.DEPLOYMENT_RUNNING, `deployment ${id} is ${record.status}`);
    const running = this.ofClient(owner.client_id, owner.mode).filter((d) => ACTIVE.has(d.status)).length;
    if (running >= this.limits.runningPerClient) throw refuse(ResultCode.DEPLOYMENT_LIMIT, `at most ${this.limits.runningPerClient} deployments run at once per client and mode`);
    const now = Date.now();
    const starting: DeploymentRecord = { ...record, status: 'starting', reason: null, started_at_ms: now, stopped_at_ms: null, updated_at_ms: now, starts: record.starts + 1 };
    await this.save(starting);
    await this.store.durable();
    const key = this.activate(starting);
    const answer = await this.topology.endpoint.ask<StartAnswer>(key, { t: 'Start' }, ASK_MS).catch((err: unknown): StartAnswer => ({ ok: false, reason: `the algo worker did not answer: ${(err as Error).message}` }));
    const current = this.find(owner.client_id, owner.mode, id) ?? starting;
    if (!answer.ok) {
      await this.failed(key, answer.reason);
    } else if (current.status === 'starting') {
      await this.save({ ...current, status: 'running', updated_at_ms: Date.now() });
      this.note(key, 2, `started: ${answer.instances} instance(s)`);
    }
    return this.get(owner, id);
  }

  async stop(owner: OrderOwner, id: string): Promise<DeploymentView> {
    const record = this.record(owner, id);
    if (!ACTIVE.has(record.status) || record.status === 'stopping') return this.get(owner, id);
    const key = algoKey(owner.mode, owner.client_id, id);
    await this.save({ ...record, status: 'stopping', updated_at_ms: Date.now() });
    await this.topology.endpoint.ask(key, { t: 'Stop', reason: null }, ASK_MS).catch((err: unknown) => this.log.warn({ err, deployment_id: id }, 'algo did not answer its stop'));
    // Whatever the algo did not cancel (or could not, its worker gone) is cancelled here.
    await this.cancelOrders(record);
    this.deactivate(key);
    const current = this.find(owner.client_id, owner.mode, id) ?? record;
    if (current.status === 'stopping') await this.save({ ...current, status: 'stopped', stopped_at_ms: Date.now(), updated_at_ms: Date.now() });
    await this.store.durable();
    this.note(key, 2, 'stopped');
    return this.get(owner, id);
  }

  async remove(owner: OrderOwner, id: string): Promise<{ deleted: true; deployment_id: string }> {
    const record = this.record(owner, id);
    if (ACTIVE.has(record.status)) throw refuse(ResultCode.DEPLOYMENT_RUNNING, `deployment ${id} is ${record.status}; stop it first`);
    this.records.delete(algoKey(owner.mode, owner.client_id, id));
    await this.store.remove(owner.client_id, owner.mode, id);
    await this.store.durable();
    this.logs.delete(algoKey(owner.mode, owner.client_id, id));
    return { deleted: true, deployment_id: id };
  }

  logsOf(owner: OrderOwner, id: string, limit: number, sinceMs: number | undefined): { lines: LogLine[]; dropped: number } {
    this.record(owner, id);
    const ring = this.logs.get(algoKey(owner.mode, owner.client_id, id));
    return ring === undefined ? { lines: [], dropped: 0 } : { lines: ring.tail(limit, sinceMs), dropped: ring.dropped };
  }

  /** What the algo actors publish (DEPLOYMENT_EVENTS_TOPIC). */
  onEvent(event: DeploymentEvent): void {
    switch (event.t) {
      case 'log':
        for (const line of event.lines) this.note(event.key, line.level, line.text, line.edge_id, line.ts_ms);
        if (event.dropped > 0) this.ringOf(event.key).drop(event.dropped);
        return;
      case 'checkpoint': {
        const record = this.records.get(event.key);
        if (record !== undefined) {
          const next = { ...record, checkpoints: event.checkpoints, updated_at_ms: Date.now() };
          this.records.set(event.key, next);
          this.store.putWatched(next);
        }
        return;
      }
      case 'failed':
        this.failed(event.key, event.reason).catch((err: unknown) => this.log.error({ err, key: event.key }, 'failed deployment not recorded'));
        return;
    }
  }

  private record(owner: OrderOwner, id: string): DeploymentRecord {
    const record = this.find(owner.client_id, owner.mode, id);
    if (record === undefined) throw refuse(ResultCode.DEPLOYMENT_NOT_FOUND, `deployment ${id} not found`);
    return record;
  }

  /** The actor starts now and again after every restart of its worker. */
  private activate(record: DeploymentRecord): string {
    const key = algoKey(record.mode, record.client_id, record.deployment_id);
    this.byHash.set(hashKey(key), key);
    this.topology.startActor(key);
    return key;
  }

  private deactivate(key: string): void {
    this.byHash.delete(hashKey(key));
    this.topology.forgetActor(key);
  }

  private async failed(key: string, reason: string): Promise<void> {
    const o = algoOwner(key);
    if (o === undefined) return;
    this.deactivate(key);
    const record = this.records.get(key);
    if (record === undefined || record.status === 'failed' || record.status === 'stopped') return;
    this.note(key, 4, `failed: ${reason}`);
    this.log.warn({ client_id: o.client_id, mode: o.mode, deployment_id: o.deployment_id, reason }, 'deployment failed');
    await this.save({ ...record, status: 'failed', reason, stopped_at_ms: Date.now(), updated_at_ms: Date.now() });
    await this.cancelOrders(record);
  }

  private async cancelOrders(record: DeploymentRecord): Promise<void> {
    await this.topology.endpoint
      .ask(routerKey(record.mode, record.client_id), { t: 'CancelLineage', deployment_id: record.deployment_id }, ASK_MS)
      .catch((err: unknown) => this.log.warn({ err, deployment_id: record.deployment_id }, 'lineage orders not cancelled'));
  }

  private async stats(record: DeploymentRecord): Promise<AlgoStats | null> {
    if (record.status !== 'running') return null;
    return this.topology.endpoint.ask<AlgoStats>(algoKey(record.mode, record.client_id, record.deployment_id), { t: 'Stats' }, 1_000).catch(() => null);
  }

  /**
   * Every few ms: a callback running past its budget on an algo worker ends that worker (WASM
   * cannot be interrupted inside its thread). Its deployment fails first, so it does not start
   * again with the worker; the others on the worker resume from their records.
   */
  private watchdog(): void {
    const now = Date.now();
    // Without algo workers (ALGO_WORKERS=0: development only) the algos share the actor workers,
    // and a runaway one ends an actor worker (restarted as after a crash).
    const first = this.topology.algoWorkers > 0 ? this.topology.workers + 1 : 1;
    for (let thread = first; thread <= this.topology.workers + this.topology.algoWorkers; thread++) {
      const running = runningCallback(this.watchWords, thread);
      if (running === undefined) continue;
      const budget = budgetOf(running.callback, this.limits.callbackBudgetMs);
      if (now - running.started_ms <= budget) continue;
      const key = this.byHash.get(running.key_hash);
      const reason = `${running.callback} ran past its budget of ${budget} ms (instance ${running.instance}); the algo worker was restarted`;
      clearCallback(this.watchWords, thread);
      if (key !== undefined) this.failed(key, reason).catch((err: unknown) => this.log.error({ err, key }, 'failed deployment not recorded'));
      this.log.error({ thread, key, callback: running.callback }, 'algo callback over budget: ending its worker');
      void this.topology.killWorker(thread);
    }
  }

  private ringOf(key: string): LogRing {
    let ring = this.logs.get(key);
    if (ring === undefined) this.logs.set(key, (ring = new LogRing()));
    return ring;
  }

  /** A log line of a deployment: kept in its ring, sent to `deployment_logs:<id>` subscribers. */
  private note(key: string, level: number, text: string, edgeId = '', tsMs = Date.now()): void {
    const o = algoOwner(key);
    if (o === undefined) return;
    const line = this.ringOf(key).push(o.deployment_id, tsMs, level, edgeId, text);
    this.logListener?.({ client_id: o.client_id, mode: o.mode }, o.deployment_id, line);
  }

  private view(r: DeploymentRecord, stats: AlgoStats | null): DeploymentView {
    return {
      deployment_id: r.deployment_id,
      name: r.name,
      is_sandbox: r.mode === 'sandbox',
      symbols: r.symbols,
      venues: r.venues,
      instrument_type: r.instrument_type,
      status: r.status,
      reason: r.reason,
      mesh_group: r.mesh_group,
      mesh_label: r.mesh_label,
      bundle_id: r.bundle_id,
      config: r.config,
      artifact: { sha256: r.artifact_sha256, bytes: r.artifact_bytes, mesh_extension: r.has_mesh },
      created_at_ms: r.created_at_ms,
      started_at_ms: r.started_at_ms,
      stopped_at_ms: r.stopped_at_ms,
      starts: r.starts,
      edges: r.instances.map((spec, i) => {
        const live = stats?.instances[i];
        const saved = live ?? r.checkpoints[i] ?? EMPTY_CHECKPOINT;
        return {
          edge_id: spec.edge_id,
          venue: spec.venue,
          symbol: spec.symbol,
          symbol_id: spec.symbol_id,
          mesh_label: r.mesh_label ?? spec.edge_id,
          connected: live?.connected ?? false,
          ...pickCheckpoint(saved),
        };
      }),
      runtime: stats === null ? null : { memory_bytes: stats.memory_bytes, callbacks: stats.callbacks, max_callback_us: stats.max_callback_us, latency: stats.latency },
    };
  }
}

const EMPTY_CHECKPOINT: InstanceCheckpoint = {
  position_1e8: 0,
  avg_entry_1e9: 0,
  realized_pnl_1e9: 0,
  unrealized_pnl_1e9: 0,
  orders_sent: 0,
  fills: 0,
  filled_qty_1e8: 0,
  rejects: 0,
  cancels: 0,
  books: 0,
  last_book_ms: null,
  open_orders: 0,
};

function pickCheckpoint(c: InstanceCheckpoint): InstanceCheckpoint {
  const out = { ...EMPTY_CHECKPOINT };
  for (const k of Object.keys(EMPTY_CHECKPOINT) as (keyof InstanceCheckpoint)[]) (out as Record<string, unknown>)[k] = c[k];
  return out;
}

/**
 * Instantiating compiles the module: its time grows with the artifact (up to 1 MiB), not with a
 * runaway loop, and on a busy machine it passed 20 ms for a healthy algo. It gets a budget of its
 * own; every callback of the algo's keeps the configured one.
 */
export const INSTANTIATE_BUDGET_MS = 2_000;

export function budgetOf(callback: string, callbackBudgetMs: number): number {
  return callback === 'instantiate' ? Math.max(INSTANTIATE_BUDGET_MS, callbackBudgetMs) : callbackBudgetMs;
}
