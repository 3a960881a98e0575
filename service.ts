import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { bundled, repoRoot } from './engine/bundle.ts';
import { DEFAULT_ALGO, type ServiceConfig } from './config.ts';
import { createLogger, flushLogs } from './engine/log.ts';
import { Topology } from './engine/topology.ts';
import { CHAINS } from './domain/chains.ts';
import { Authenticator } from './gateway/auth/authenticator.ts';
import { Gateway } from './gateway/app.ts';
import { Storage } from './storage/index.ts';
import { FAIR_ACTOR } from './actors/fair-price/messages.ts';
import { edgeIds, edgeKey } from './actors/market/directory.ts';
import { createMarketMemory } from './gateway/market/memory.ts';
import { warmValidators } from './gateway/validation.ts';
import { journalStage } from './execution/journal/stage.ts';
import { JournalFrame } from './execution/journal/messages.ts';
import { closeAfterRestart } from './execution/reconciliation.ts';
import type { ExecutionConfig } from './execution/types.ts';
import type { OrderRecord } from './domain/orders.ts';
import type { RegionReads } from './gateway/context.ts';
import { layouts } from './registry.ts';
import { TopicDispatch } from './engine/topic.ts';
import { LIVE_HALT_TOPIC, TAPE_TOPIC } from './actors/edge/messages.ts';
import { createHaltFlag, KillSwitch } from './execution/kill-switch.ts';
import { CredentialProbes } from './execution/credential-probes.ts';
import { clientsWithCredentials } from './storage/credentials.ts';
import { RouterClient } from './execution/router/client.ts';
import { ORDER_EVENTS_TOPIC, ROUTER_UP_TOPIC } from './execution/router/messages.ts';
import { QuoteService } from './gateway/market/quotes.ts';
import { PredictionCatalog } from './gateway/market/prediction-catalog.ts';
import { TapeWriter } from './gateway/market/tape-writer.ts';
import { createCallbackWatch } from './execution/algo/watch.ts';
import { DEPLOYMENT_EVENTS_TOPIC } from './execution/algo/messages.ts';
import { DeploymentManager } from './execution/deployments/manager.ts';
import { privateTopic } from './gateway/ws/channels.ts';
import { TcaAggregates } from './execution/analytics/tca-aggregates.ts';
import { AlertBook } from './execution/alerts/alert-book.ts';
import { alertSources } from './gateway/market/alert-sources.ts';
import { RegionLink } from './actors/region-link/link.ts';
import { replicatedTables } from './storage/replicated-tables.ts';
import { RELAYED_FILL_TOPIC } from './actors/region-link/relay-actor.ts';
import type { RegionConfig } from './actors/region-link/config.ts';
import type { OrderCommand } from './actors/region-link/order-commands.ts';
import { graphIdOf } from './execution/order-record.ts';

/** The other regions' orders as the gateway reads them (the link's view holds the journal's records as stored). */
function regionReads(link: RegionLink): RegionReads {
  const view = link.orders.view;
  return {
    region: link.config.region,
    orders: (client, mode, region) => view.orders(client, mode, region),
    order: (client, mode, id) => view.get(client, mode, id),
    // The view keys a fill by its home region (fill ids are per node); the fill is served as recorded.
    fills: (client, mode, region) => view.fills(client, mode, region).map(({ home_region: _home, ...fill }) => fill),
    sources: (now) => link.orders.sources(now),
    command: (op, owner, node_order_id, home) => link.forwardOrderCommand(home, { v: 1, op, ...owner, node_order_id }),
  };
}

/** What every worker reads to know which edges run here and which are another region's (actors/edge/live/select.ts). */
function regionSettings(region: RegionConfig | undefined): Record<string, string> {
  return region === undefined ? {} : { region: region.region, natsUrls: region.natsUrls.join(','), localVenues: region.localVenues.join(',') };
}

export interface Service {
  readonly port: number;
  readonly gateway: Gateway;
  readonly topology: Topology;
  readonly storage: Storage;
  /** Set only on the first start without OPERATOR_KEY: shown once, never stored. */
  readonly generatedOperatorKey: string | undefined;
  stop(): Promise<void>;
}

const VERSION = (JSON.parse(readFileSync(new URL('package.json', repoRoot(import.meta.url)), 'utf8')) as { version: string }).version;

/**
 * The whole system, assembled top to bottom: storage, shared memory, the actor threads and
 * their rings, the journal, the execution client, the gateway, and the wiring between them
 * (internal topics, credential and kill-switch events). Nothing else builds or wires parts.
 *
 * Start-up order: storage (migrations) -> operator identity -> gateway listening (so the
 * liveness probe answers and readiness says 503 while workers boot) -> actor workers -> the
 * market's actors. Shutdown runs it backwards: stop accepting, drain the routers and the rings,
 * close LMDB.
 */
export async function startService(config: ServiceConfig): Promise<Service> {
  const log = createLogger(config.logLevel);

  // 1. Durable state: LMDB (orders, fills, positions, keys, credentials), operator identity.
  const storage = Storage.open(config.dataDir, {
    credentialsKey: config.credentialsKey,
    minFreeBytes: (config.storageMinFreeMb ?? 64) * 1024 * 1024,
    // Refused, never a crash: the writes of that transaction are failed to their callers (an
    // order's durable write answers 503), readiness fails for a while, the process goes on.
    onWriteFailure: (err) => log.error({ err: err.message }, 'LMDB commit failed: its writes are refused'),
  });
  const auth = new Authenticator(storage, config.auth);
  const generatedOperatorKey = await auth.init();
  // Working orders of the last run are closed before anything new is admitted (reconciliation.ts),
  // each marked for the TCA aggregates in the same transaction: folded below with the other marks.
  const markEnded = config.tcaAggregates === 'off' ? undefined : (o: OrderRecord) => storage.tcaBuckets.putPending(o.client_id, o.mode, o.node_order_id);
  const afterRestart = await closeAfterRestart(storage.orders, markEnded, (config.liveVenues ?? []).map((v) => v.venue));
  if (afterRestart.closed > 0) log.warn({ orders: afterRestart.closed }, 'working orders reconciled after restart');

  // 2. Shared memory every thread maps: quote and depth caches, listener interest, the kill switch.
  const market = createMarketMemory(config.simPredictionEvents);
  const liveVenues = config.liveVenues ?? [];
  const haltFlag = createHaltFlag();
  const execution: ExecutionConfig = {
    maxOrderNotionalUsd1e9: (config.maxOrderNotionalUsd ?? 1_000_000) * 1e9,
    simAccountUsd: config.simAccountUsd ?? 100_000,
    redeemCreditDelayMs: config.redeemCreditDelayMs ?? 60_000,
    walletProvisionMs: config.walletProvisionMs ?? 5_000,
    liveVenues: (config.liveVenues ?? []).map((v) => v.venue),
    ...(config.region !== undefined ? { region: { name: config.region.region, localVenues: config.region.localVenues } } : {}),
  };

  const algo = config.algo ?? DEFAULT_ALGO;
  if (liveVenues.length > 0) log.warn({ live_venues: liveVenues.map((v) => ({ venue: v.venue, rest: v.endpoints.rest, ws: v.endpoints.ws })) }, 'live venues: orders on these venues are real');
  const algoWatch = createCallbackWatch();

  // 3. Threads and rings: thread 0 (gateway, journal), the actor workers (edges, books, fair
  //    price, routers) and the algo workers (strategy deployments only), every pair joined by
  //    SPSC rings; the order path in binary layouts.
  const topology = new Topology({
    workers: config.workers,
    algoWorkers: algo.workers,
    ...(algo.spinPolls !== undefined ? { algoSpinPolls: algo.spinPolls } : {}),
    registryUrl: new URL(bundled(import.meta.url) ? './registry.js' : './registry.ts', import.meta.url).href,
    ...(config.workerBundle !== undefined ? { workerBundle: pathToFileURL(`${config.workerBundle}/`) } : {}),
    layouts,
    log,
    logLevel: config.logLevel,
    shared: {
      quotes: market.quotes,
      depth: market.depth,
      interest: market.interest,
      predictionStats: market.predictionStats,
      halt: haltFlag,
      algoWatch,
      // Live edges open their clients' sealed venue credentials themselves: only then is the key
      // shared (a remote edge is a live edge whose venue is another region's node).
      ...(liveVenues.length > 0 || config.region !== undefined ? { credentialsKey: storage.credentialsKeyForWorkers() } : {}),
    },
    settings: { liveVenues: liveVenues.map((v) => v.venue).join(','), liveCatalogMs: config.liveCatalogMs ?? 30_000, liveFollowMax: config.liveFollowMax ?? 200, liveEndpoints: JSON.stringify(Object.fromEntries(liveVenues.map((v) => [v.venue, v.endpoints]))), algoMemoryBytes: algo.memoryMb * 1024 * 1024, algoOrdersPerSecond: algo.ordersPerS, simSeed: config.simSeed, sandboxSeed: config.sandboxSeed, simOrderLatency: config.simOrderLatency ?? 'venue', simMarketResolveS: config.simMarketResolveS ?? 300, simPredictionEvents: config.simPredictionEvents ?? 400, ...(config.simFundingIntervalS !== undefined ? { simFundingIntervalS: config.simFundingIntervalS } : {}), dataDir: config.dataDir, tcaAggregates: config.tcaAggregates ?? 'on', maxOrderNotionalUsd1e9: execution.maxOrderNotionalUsd1e9, simAccountUsd: execution.simAccountUsd, redeemCreditDelayMs: execution.redeemCreditDelayMs, walletProvisionMs: execution.walletProvisionMs, ...regionSettings(config.region) },
  });
  const endpoint = topology.endpoint;
  // Among regions (docs/regions.md): built here (the journal writes to it), started once the edges are.
  // Commands other nodes forward on orders homed here (a cancel, an activation) go to this node's routers.
  const runCommand = ({ op, client_id, mode, node_order_id }: OrderCommand) =>
    op === 'cancel' ? routers.cancel({ client_id, mode }, node_order_id) : routers.activate({ client_id, mode }, graphIdOf(node_order_id));
  const regionLink = config.region === undefined ? undefined : new RegionLink(config.region, market.depth, endpoint, log, replicatedTables(storage), (since) => storage.orders.changedSince(since), runCommand);

  // 4. The journal: the single LMDB writer every router's durable writes go through, on thread 0;
  //    beside it what follows each write: the TCA aggregates, the alerts on orders and fills.
  const routers = new RouterClient(endpoint, log);
  const quotes = new QuoteService(market, endpoint);
  const tcaAggregates = new TcaAggregates(
    storage.tcaBuckets,
    undefined,
    (client, mode, id) => storage.orders.getOrder(client, mode, id),
    (err, what) => log.error({ err }, what),
    async (client, mode) => void (await routers.flushTca({ client_id: client, mode })),
  );
  // Orders a crash left between their commit and their router's TCA delta are folded again.
  const refolded = tcaAggregates.foldMarked();
  await tcaAggregates.durable();
  if (refolded > 0) log.info({ orders: refolded }, 'TCA aggregates: marked orders folded again');
  const alerts = new AlertBook(storage.alerts, alertSources(quotes, routers, endpoint), log);
  const journal = journalStage(
    storage.orders,
    (fresh) => storage.refusal(fresh),
    (thread, bytes) => endpoint.sendBinary(thread, JournalFrame.ACK, bytes),
    (correlation, value) => endpoint.answerAsk(correlation, value),
    config.tcaAggregates === 'off' ? undefined : tcaAggregates,
    alerts,
    regionLink === undefined ? undefined : { written: (kind, client, mode, value) => regionLink.orders.written(kind, client, mode, value) },
  );
  endpoint.onBinary(journal.type, journal.handler);

  // 5. What the gateway's handlers call: the routers, the kill switch, quotes; the trade tape.
  const killSwitch = new KillSwitch(storage.meta, haltFlag);
  const credentialProbes = new CredentialProbes(endpoint, execution.liveVenues ?? [], log);
  const prediction = new PredictionCatalog(endpoint, market, log);
  const tape = new TapeWriter(storage, log);
  const deployments = new DeploymentManager(
    storage.deployments,
    topology,
    algoWatch,
    { artifactBytes: algo.artifactMaxBytes, memoryBytes: algo.memoryMb * 1024 * 1024, callbackBudgetMs: algo.callbackBudgetMs, perClient: 50, runningPerClient: 10 },
    log,
  );

  // 6. The gateway: HTTP, WebSocket, SSE.
  const gateway = new Gateway({ storage, topology, auth, log, logLevel: config.logLevel, version: VERSION, market, quotes, prediction, killSwitch, credentialProbes, execution: routers, executionConfig: execution, deployments, tcaAggregates, alerts, regions: regionLink === undefined ? undefined : regionReads(regionLink) });

  // 7. Wiring. What the workers publish: internal topics to their consumers, the rest (client
  //    channels) to the WebSocket fan-out.
  endpoint.onPublish(
    new TopicDispatch()
      .on(TAPE_TOPIC, (batch) => tape.onBatch(batch))
      .on(LIVE_HALT_TOPIC, (report) => killSwitch.noteLiveVenue(report))
      .on(ORDER_EVENTS_TOPIC, (event) => gateway.orderEvents.publish(event))
      .on(ROUTER_UP_TOPIC, (key) => routers.noteRouter(key))
      .on(DEPLOYMENT_EVENTS_TOPIC, (event) => deployments.onEvent(event))
      .on(RELAYED_FILL_TOPIC, (fill) => regionLink?.onRelayedFill(fill))
      .otherwise((channel, payload) => gateway.broadcast(channel, payload)).handle,
  );
  // A router learns of its client's credentials once the row is durable, and opens the
  // simulated venue account and probes the fee tier itself. The store's answer (the 200) waits
  // for the account to be durable, so positions show it at once; one cut off by a crash is
  // opened when the router next starts.
  storage.credentials.onStored((event) => {
    // A live venue's key is probed in the background (rates, permissions); the answer does not wait.
    void credentialProbes.probe(event.client_id, event.mode, event.venue);
    return routers.credentialsChanged(event, event.venue, true).catch((err: unknown) => log.error({ err }, 'venue account not opened'));
  });
  storage.credentials.onRemoved((event) => {
    credentialProbes.forget(event.client_id, event.mode, event.venue);
    return routers.credentialsChanged(event, event.venue, false).catch((err: unknown) => log.error({ err }, 'router not told of removed credentials'));
  });
  killSwitch.onChange((state) => {
    gateway.streams.risk.publishAll('risk', { kill_switch: state, as_of_ns: Date.now() * 1_000_000 });
    if (state.active) routers.haltAll().catch((err: unknown) => log.error({ err }, 'halt failed'));
    gateway.broadcast('system', { event: 'kill_switch', ...state });
  });
  alerts.onFired((client, mode, event) => gateway.streams.alerts.publish(`${client}|${mode}`, 'alert', event));
  deployments.onLog((owner, id, line) => gateway.publishTo(privateTopic(`deployment_logs:${id}`, owner), `deployment_logs:${id}`, line));
  topology.onReadyChange((ready) => gateway.broadcast('system', { event: 'readiness', ready }));
  // Among regions the lifecycle events go through the regions' stream: stored once, read back by every node.
  if (regionLink !== undefined) {
    gateway.lifecycle.onObserved((kind, key, frame) => regionLink.lifecycle.observed(kind, key, frame));
    regionLink.deliverLifecycle((kind, key, frame) => void gateway.lifecycle.publish(kind, key, frame, true));
  }
  // A stored resolution moves every running router's contracts of the market to `resolved`.
  gateway.lifecycleEvents.onResolved((resolution) => {
    routers.marketResolved(resolution).catch((err: unknown) => log.error({ err }, 'routers not told of a resolution'));
  });

  // 8. Up: listen, start the workers, then the market (every venue edge, the fair price).
  tape.start();
  quotes.start();
  const port = await gateway.listen(config.host, config.port);
  await topology.start();
  for (const edgeId of edgeIds()) topology.startActor(edgeKey(edgeId));
  // Every stored key of a live venue is probed again (the probes live in memory).
  for (const { venue } of liveVenues) for (const client of clientsWithCredentials(storage.db, venue, 'live')) void credentialProbes.probe(client, 'live', venue);
  topology.startActor(FAIR_ACTOR);
  // Among regions: this node's edges published for the others (theirs are followed by the remote
  // edges just started). In the background: a node serves its own venues while NATS is out of reach.
  regionLink?.start().catch((err: unknown) => log.error({ err: (err as Error).message }, 'region link not started: this node runs alone until restarted'));
  for (const { chain } of CHAINS) topology.startActor(`dex:${chain}`);
  prediction.start();
  gateway.fundingFeed.start();
  await deployments.boot();
  alerts.start();
  // Orders of the last run with legs on a live venue: their routers ask the venues what became of them.
  for (const owner of afterRestart.recover) {
    routers.recoverAfterRestart(owner).then(
      (n) => log.warn({ client_id: owner.client_id, mode: owner.mode, orders: n }, 'live orders of the last run reconciled with their venues'),
      (err: unknown) => log.error({ client_id: owner.client_id, err }, 'live orders of the last run not reconciled'),
    );
  }
  // The request validators no request compiled yet, in the background once the threads are up
  // (not during their boot, which they would slow): the first order finds its schema ready.
  void warmValidators();
  log.info({ host: config.host, port, workers: config.workers, version: VERSION }, 'service ready');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log.info({}, 'shutting down');
      await gateway.close();
      alerts.stop();
      deployments.close();
      prediction.stop();
      tape.stop();
      quotes.stop();
      await regionLink?.stop();
      await routers.drain();
      await topology.stop();
      await tcaAggregates.durable();
      await storage.close();
      log.info({}, 'stopped');
      await flushLogs();
    })());
  return { port, gateway, topology, storage, generatedOperatorKey, stop };
}
