import { isTerminal, type OrderStatus as EngineStatus } from '../../domain/orders.ts';
import type { Actor, ActorContext } from '../../engine/actor.ts';
import { hashKey } from '../../engine/placement.ts';
import { publishOn } from '../../engine/topic.ts';
import { openDatabases } from '../../storage/database.ts';
import { DeploymentStore, type DeploymentRecord } from '../../storage/deployments.ts';
import { routerKey, type RouterAnswer, type SubmitAnswer } from '../router/messages.ts';
import { RejectCode } from './abi.ts';
import { checkArtifact } from './artifact.ts';
import { AlgoInstance, type AlgoOrder } from './instance.ts';
import { algoOwner, DEPLOYMENT_EVENTS_TOPIC, type AlgoMessage, type AlgoStats, type OrderUpdate, type StartAnswer } from './messages.ts';
import { actionIntent, algoClientOrderId, failureCode, refusalCode } from './orders.ts';
import { CALLBACKS, CallbackMarker, type CallbackName } from './watch.ts';
import { WasmAlgo, type CallResult } from './wasm-algo.ts';
import { LatencySamples } from './latency.ts';
import { wallClockNs } from '../../domain/units.ts';

/** A watch on an edge's book lasts this long unrenewed; renewed every LEASE_RENEW_MS. */
const LEASE_MS = 3_000;
const LEASE_RENEW_MS = 1_000;
const ORDER_ASK_TIMEOUT_MS = 10_000;
/** How long a stop waits for the cancels of its orders to be answered. */
const STOP_SETTLE_MS = 3_000;
/** Log lines a deployment may emit per second; the rest are counted as dropped. */
const LOG_LINES_PER_S = 200;

interface WorkerResources {
  store: DeploymentStore;
  marker: CallbackMarker;
}
let resources: WorkerResources | undefined;

function workerResources(ctx: ActorContext): WorkerResources {
  if (resources !== undefined) return resources;
  const db = openDatabases(String(ctx.environment.settings['dataDir']), { readerOnly: true });
  resources = { store: new DeploymentStore(db), marker: new CallbackMarker(ctx.environment.shared['algoWatch']!, ctx.thread) };
  return resources;
}

/**
 * `algo:<mode>|<client>|<deployment_id>`: a strategy deployment, on an algo worker (apart from
 * the edges, books and routers). It runs one WASM instance of the deployment's module per
 * (edge, symbol), feeds each the edge's book as it changes (`BookChanged`, then a copy from the
 * depth cache straight into the module's memory), keeps each AlgoState true, and enters the
 * algo's orders through the client's router over the rings, with the same admission, risk, kill
 * switch, reservations and journal as `POST /v1/orders`, each carrying the lineage.
 *
 * A failing algo (a trap, a bad answer, memory past its cap) is stopped here: its orders are
 * cancelled and the manager is told. A callback that never returns is the manager's watchdog's
 * (watch.ts): it ends this thread, which the topology restarts with the other deployments.
 */
export function algoActor(key: string): Actor<AlgoMessage> {
  const owner = algoOwner(key);
  const keyHash = hashKey(key);
  let ctx!: ActorContext;
  let res!: WorkerResources;
  let record: DeploymentRecord | undefined;
  /** This run's part of the client_order_ids: the record's start count and a random suffix (a resume does not count a start). */
  let run = '';
  let instances: AlgoInstance[] = [];
  const byBook = new Map<string, AlgoInstance[]>();
  let running = false;
  let cancelLease: (() => void) | undefined;
  let callbacks = 0;
  let maxCallbackUs = 0;
  // Logs: batched per poll, capped per second.
  let logLines: { ts_ms: number; level: number; edge_id: string; text: string }[] = [];
  let logDropped = 0;
  let logWindow = 0;
  let logInWindow = 0;
  let logFlushQueued = false;
  // Orders: a token bucket per deployment.
  let tokens = 0;
  let tokensAt = 0;
  let ordersPerSecond = 100;
  // Mesh peers: label -> actor keys, read again on a miss (at most once a second).
  let peers = new Map<string, string[]>();
  let peersAt = 0;
  const router = owner === undefined ? '' : routerKey(owner.mode, owner.client_id);
  const latency = { callback: new LatencySamples(), router: new LatencySamples(), ack: new LatencySamples(), hostToRouter: new LatencySamples() };
  /** The book change behind the callback running now (its orders' latency), 0 outside algo_on_book: when the edge published it, when this host took it. */
  let bookNs = 0;
  let hostNs = 0;
  /** Submits not yet answered: a stop waits for them, so it cancels what they opened. */
  const inflight = new Set<Promise<void>>();

  const flushLogs = () => {
    logFlushQueued = false;
    if (logLines.length === 0 && logDropped === 0) return;
    publishOn(ctx, DEPLOYMENT_EVENTS_TOPIC, { t: 'log', key, lines: logLines, dropped: logDropped });
    logLines = [];
    logDropped = 0;
  };

  const log = (instance: AlgoInstance | undefined, level: number, text: string) => {
    const now = Date.now();
    if (now - logWindow >= 1_000) {
      logWindow = now;
      logInWindow = 0;
    }
    if (++logInWindow > LOG_LINES_PER_S) logDropped++;
    else logLines.push({ ts_ms: now, level, edge_id: instance?.spec.edge_id ?? '', text });
    if (!logFlushQueued) {
      logFlushQueued = true;
      ctx.atNextPoll(flushLogs);
    }
  };

  /** Runs one callback under the watch words, timed. */
  const call = (instance: AlgoInstance, name: CallbackName, fn: () => CallResult): CallResult => {
    res.marker.enter(keyHash, CALLBACKS.indexOf(name), instance.index);
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      res.marker.leave();
      const us = (performance.now() - t0) * 1_000;
      if (us > maxCallbackUs) maxCallbackUs = us;
      callbacks++;
    }
  };

  const checkpoint = () => {
    if (record !== undefined) publishOn(ctx, DEPLOYMENT_EVENTS_TOPIC, { t: 'checkpoint', key, checkpoints: instances.map((i) => i.checkpoint()) });
  };

  const stopInstances = () => {
    running = false;
    cancelLease?.();
    cancelLease = undefined;
    byBook.clear();
  };

  /** The algo failed: nothing more runs, its orders are cancelled, the manager hears why. */
  const fail = (reason: string) => {
    if (!running) return;
    log(undefined, 4, `deployment failed: ${reason}`);
    flushLogs();
    checkpoint();
    stopInstances();
    ctx.tell(router, { t: 'CancelLineage', deployment_id: owner!.deployment_id });
    publishOn(ctx, DEPLOYMENT_EVENTS_TOPIC, { t: 'failed', key, reason });
  };

  /** A callback's outcome: its actions entered, or the deployment failed. */
  const outcome = (instance: AlgoInstance, result: CallResult, allowNew = true) => {
    if (typeof result !== 'number') return fail(result.failed);
    if (result > 0) act(instance, result, allowNew);
  };

  const reject = (instance: AlgoInstance, orderId: number, code: RejectCode) => {
    instance.rejects++;
    // A stopped algo is not called again; the host still keeps its state true.
    if (!running) return;
    const result = call(instance, 'algo_on_reject', () => instance.algo.onReject(orderId, code));
    if (typeof result !== 'number') fail(result.failed);
  };

  const takeToken = (): boolean => {
    const now = Date.now();
    tokens = Math.min(ordersPerSecond, tokens + ((now - tokensAt) * ordersPerSecond) / 1_000);
    tokensAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };

  const sendCancel = (instance: AlgoInstance, order: AlgoOrder) => {
    instance.cancels++;
    void ctx.ask<RouterAnswer<unknown>>(router, { t: 'Cancel', node_order_id: order.node_order_id }, ORDER_ASK_TIMEOUT_MS).catch(() => undefined);
  };

  /** The actions the last callback returned (read before anything else calls into the module). */
  const act = (instance: AlgoInstance, count: number, allowNew: boolean) => {
    const rejects: [number, RejectCode][] = [];
    for (let i = 0; i < count; i++) {
      const intent = actionIntent(instance.algo.actions[i]!, instance.spec, owner!.deployment_id);
      if (intent.t === 'invalid') {
        log(instance, 3, `action refused: ${intent.reason}`);
        rejects.push([intent.order_id, RejectCode.INVALID_PARAMS]);
        continue;
      }
      if (intent.t === 'cancel') {
        const order = instance.orders.get(intent.order_id);
        if (order === undefined || order.dead) continue;
        if (order.node_order_id === null) order.cancel_pending = true;
        else sendCancel(instance, order);
        continue;
      }
      if (!allowNew) {
        log(instance, 3, `order ${intent.order_id} refused: a stopping deployment places no new orders`);
        continue;
      }
      if (instance.orders.has(intent.order_id)) {
        rejects.push([intent.order_id, RejectCode.INVALID_PARAMS]);
        continue;
      }
      if (!takeToken()) {
        rejects.push([intent.order_id, RejectCode.RATE_LIMIT]);
        continue;
      }
      if (!instance.state.track(intent.order_id, intent.px_1e9, intent.qty_1e8, intent.side)) {
        rejects.push([intent.order_id, RejectCode.RISK]);
        continue;
      }
      const client_order_id = algoClientOrderId(owner!.deployment_id, instance.index, run, intent.order_id);
      const order: AlgoOrder = { order_id: intent.order_id, client_order_id, side: intent.side, book_ns: bookNs, host_ns: hostNs, node_order_id: null, cancel_pending: false, rejected: false, dead: false };
      instance.track(order);
      instance.orders_sent++;
      const pending = ctx
        .ask<RouterAnswer<SubmitAnswer>>(router, { t: 'Submit', request: { ...intent.request, client_order_id }, idempotency_key: null }, ORDER_ASK_TIMEOUT_MS)
        .then(
          (answer) => submitted(instance, order, answer),
          () => submitted(instance, order, { failed: 'no answer from the router' }),
        );
      inflight.add(pending);
      void pending.finally(() => inflight.delete(pending));
    }
    for (const [orderId, code] of rejects) if (running) reject(instance, orderId, code);
  };

  const submitted = (instance: AlgoInstance, order: AlgoOrder, answer: RouterAnswer<SubmitAnswer>) => {
    // Sampled first: a rejected order's update (it ends dead) may come ahead of this answer.
    if ('ok' in answer && order.book_ns > 0 && answer.ok.received_ns !== undefined) {
      latency.router.add((answer.ok.received_ns - order.book_ns) / 1_000);
      latency.hostToRouter.add((answer.ok.received_ns - order.host_ns) / 1_000);
      latency.ack.add((wallClockNs() - order.book_ns) / 1_000);
    }
    if (order.dead) return;
    if ('ok' in answer) {
      const o = answer.ok.order;
      order.node_order_id = o.node_order_id;
      if (isTerminal(o.status)) return update(instance, order, o.status, o.failure_class, o.failure_reason, []);
      instance.state.acked(order.order_id);
      if (order.cancel_pending) sendCancel(instance, order);
      return;
    }
    order.dead = true;
    order.rejected = true;
    instance.state.dead(order.order_id);
    instance.forget(order);
    if ('refused' in answer) reject(instance, order.order_id, refusalCode(answer.refused.code));
    else {
      log(instance, 3, `order ${order.order_id}: ${answer.failed}`);
      reject(instance, order.order_id, RejectCode.NETWORK);
    }
  };

  /** The router says an order changed: its new fills reach the algo, then its end. */
  const update = (instance: AlgoInstance, order: AlgoOrder, status: EngineStatus, failureClass: string | null, failureReason: string | null, fills: OrderUpdate['fills']) => {
    for (const f of fills) {
      instance.state.fill(order.order_id, order.side, f.qty_1e8, f.price_1e9);
      if (!running) continue;
      const result = call(instance, 'algo_on_fill', () =>
        instance.algo.onFill({ order_id: order.order_id, px_1e9: f.price_1e9, qty_1e8: f.qty_1e8, recv_ns: f.ts_ns, side: order.side }, instance.state),
      );
      instance.state.shown();
      if (typeof result !== 'number') return fail(result.failed);
    }
    if (fills.length > 0) checkpoint();
    if (!isTerminal(status) || order.dead) return;
    order.dead = true;
    instance.state.dead(order.order_id);
    instance.forget(order);
    if (status === 'REJECTED' && !order.rejected) {
      order.rejected = true;
      reject(instance, order.order_id, failureCode(failureClass, failureReason));
    }
  };

  const onBook = (instance: AlgoInstance) => {
    instance.dirty = false;
    if (!running || !instance.readBook()) return;
    instance.state.compact();
    const { bids, asks } = instance.book;
    bookNs = instance.edgeNs;
    hostNs = instance.hostNs;
    if (bookNs > 0) latency.callback.add((wallClockNs() - bookNs) / 1_000);
    const result = call(instance, 'algo_on_book', () => instance.algo.onBook(bids, asks, instance.spec.symbol_id, Math.round(bookNs), instance.state));
    instance.state.shown();
    outcome(instance, result);
    bookNs = 0;
    hostNs = 0;
  };

  const renewLeases = () => {
    if (!running) return;
    const until = Date.now() + LEASE_MS;
    for (const i of instances) ctx.tell(`edge:${i.spec.edge_id}`, { t: 'WatchBook', symbol: i.spec.symbol, watcher: key, until_ms: until });
    cancelLease = ctx.schedule(LEASE_RENEW_MS, renewLeases);
  };

  const meshPeers = (label: string): string[] => {
    const now = Date.now();
    if (!peers.has(label) && now - peersAt >= 1_000 && record?.mesh_group != null) {
      peersAt = now;
      peers = new Map();
      for (const d of res.store.list(owner!.client_id, owner!.mode)) {
        if (d.mesh_group !== record.mesh_group || (d.status !== 'running' && d.status !== 'starting')) continue;
        const peerKey = `algo:${owner!.mode}|${owner!.client_id}|${d.deployment_id}`;
        for (const i of d.instances) {
          const l = d.mesh_label ?? i.edge_id;
          const keys = peers.get(l) ?? [];
          if (!keys.includes(peerKey)) keys.push(peerKey);
          peers.set(l, keys);
        }
      }
    }
    return peers.get(label) ?? [];
  };

  /** Boots the instances from the stored record and artifact. */
  const start = (): StartAnswer => {
    if (owner === undefined) return { ok: false, reason: `bad actor key ${key}` };
    stopInstances();
    record = res.store.getFresh(owner.client_id, owner.mode, owner.deployment_id);
    if (record === undefined) return { ok: false, reason: 'deployment record not found' };
    const bytes = res.store.artifact(owner.client_id, owner.mode, owner.deployment_id);
    if (bytes === undefined) return { ok: false, reason: 'deployment artifact not found' };
    run = `${record.starts}-${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
    // The cap is written into the module's memory section: memory.grow past it fails inside the algo.
    const memoryCap = Number(ctx.environment.settings['algoMemoryBytes'] ?? 64 << 20);
    ordersPerSecond = Number(ctx.environment.settings['algoOrdersPerSecond'] ?? 100);
    tokens = ordersPerSecond;
    tokensAt = Date.now();
    const artifact = checkArtifact(bytes, memoryCap);
    if (!artifact.ok) return { ok: false, reason: artifact.message };
    const depth = ctx.environment.shared['depth']!;
    const started: AlgoInstance[] = [];
    for (const [index, spec] of record.instances.entries()) {
      let instance: AlgoInstance | undefined;
      const host = {
        log: (level: number, text: string) => log(instance, level, text),
        meshSend: (to: string, data: Uint8Array) => {
          const targets = meshPeers(to);
          for (const target of targets) ctx.tell(target, { t: 'Mesh', from: instance?.label ?? '', to, data });
          return targets.length > 0 ? 0 : -1;
        },
      };
      res.marker.enter(keyHash, CALLBACKS.indexOf('instantiate'), index);
      const algo = WasmAlgo.create(artifact.module, host);
      res.marker.leave();
      if (!(algo instanceof WasmAlgo)) return { ok: false, reason: algo.failed };
      instance = new AlgoInstance(index, spec, algo, record.mesh_label ?? spec.edge_id, depth);
      instance.restore(record.checkpoints[index]);
      started.push(instance);
    }
    instances = started;
    for (const i of instances) {
      const bookKey = `${i.spec.edge_id}|${i.spec.symbol}`;
      byBook.set(bookKey, [...(byBook.get(bookKey) ?? []), i]);
    }
    running = true;
    // Orders of an earlier run are unknown to these fresh instances: they end before the algo starts over.
    ctx.tell(router, { t: 'CancelLineage', deployment_id: owner.deployment_id });
    renewLeases();
    return { ok: true, instances: instances.length };
  };

  const stop = async (): Promise<{ ok: true }> => {
    if (!running) return { ok: true };
    for (const instance of instances) {
      const result = call(instance, 'algo_on_shutdown', () => instance.algo.onShutdown(instance.state));
      outcome(instance, result, false);
      if (!running) return { ok: true };
    }
    flushLogs();
    stopInstances();
    // Orders still being admitted are answered first, so the cancel finds every one of them.
    await Promise.allSettled([...inflight]);
    await ctx.ask(router, { t: 'CancelLineage', deployment_id: owner!.deployment_id }, ORDER_ASK_TIMEOUT_MS).catch(() => undefined);
    await untilSettled(STOP_SETTLE_MS);
    checkpoint();
    return { ok: true };
  };

  /** Resolves once no order of the instances is live (each cancel answered), or after `ms`. */
  const untilSettled = (ms: number) =>
    new Promise<void>((resolve) => {
      const deadline = Date.now() + ms;
      const check = () => {
        if (instances.every((i) => i.state.liveOrders === 0) || Date.now() >= deadline) resolve();
        else ctx.schedule(20, check);
      };
      check();
    });

  const stats = (): AlgoStats => ({
    running,
    instances: instances.map((i) => ({
      ...i.checkpoint(),
      edge_id: i.spec.edge_id,
      venue: i.spec.venue,
      symbol: i.spec.symbol,
      connected: i.book.connected,
    })),
    memory_bytes: instances.reduce((s, i) => s + i.algo.memoryBytes, 0),
    callbacks,
    max_callback_us: Math.round(maxCallbackUs),
    latency: {
      book_to_callback_us: latency.callback.summary(),
      book_to_router_us: latency.router.summary(),
      book_to_ack_us: latency.ack.summary(),
      host_to_router_us: latency.hostToRouter.summary(),
    },
  });

  return {
    onStart(c) {
      ctx = c;
      res = workerResources(c);
      // Created again after its worker restarted (or the service did): a running deployment resumes.
      if (owner === undefined) return;
      const stored = res.store.getFresh(owner.client_id, owner.mode, owner.deployment_id);
      if (stored?.status === 'running') {
        const answer = start();
        if (!answer.ok) publishOn(ctx, DEPLOYMENT_EVENTS_TOPIC, { t: 'failed', key, reason: answer.reason });
      }
    },

    onMessage(m: AlgoMessage) {
      switch (m.t) {
        case 'Start':
          return start();
        case 'Stop':
          return stop();
        case 'BookChanged': {
          const list = byBook.get(`${m.edge_id}|${m.symbol}`);
          if (list !== undefined) {
            const now = wallClockNs();
            for (const i of list) {
              i.dirty = true;
              i.edgeNs = m.edge_ns;
              i.hostNs = now;
            }
          }
          return undefined;
        }
        case 'OrderUpdate': {
          for (const instance of instances) {
            const order = instance.byClientOrderId.get(m.client_order_id);
            if (order === undefined) continue;
            order.node_order_id ??= m.node_order_id;
            update(instance, order, m.status as EngineStatus, m.failure_class, m.failure_reason, m.fills);
          }
          return undefined;
        }
        case 'Mesh': {
          if (!running) return false;
          for (const instance of instances) {
            if (instance.label !== m.to) continue;
            const result = call(instance, 'algo_on_mesh', () => instance.algo.onMesh(m.from, m.data));
            outcome(instance, result);
          }
          return true;
        }
        case 'Stats':
          return stats();
      }
    },

    onBatchEnd() {
      if (!running) return;
      for (const instance of instances) if (instance.dirty) onBook(instance);
    },

    onStop() {
      stopInstances();
    },
  };
}
