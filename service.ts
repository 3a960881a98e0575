import { readFileSync } from 'node:fs';
import type { ServiceConfig } from './config.ts';
import { createLogger, flushLogs } from './engine/log.ts';
import { Topology } from './engine/topology.ts';
import { Authenticator } from './gateway/auth/authenticator.ts';
import { Gateway } from './gateway/app.ts';
import { Storage } from './storage/index.ts';
import { FAIR_ACTOR } from './actors/fair-price/messages.ts';
import { edgeIds, edgeKey } from './actors/market/directory.ts';
import { createMarketMemory } from './gateway/market/memory.ts';
import { createHaltFlag } from './execution/kill-switch.ts';
import { journalStage } from './execution/journal/stage.ts';
import { JournalFrame } from './execution/journal/messages.ts';
import { closeAfterRestart } from './execution/reconciliation.ts';
import type { ExecutionConfig } from './execution/types.ts';
import { layouts } from './registry.ts';

export interface Service {
  readonly port: number;
  readonly gateway: Gateway;
  readonly topology: Topology;
  readonly storage: Storage;
  /** Set only on the first start without OPERATOR_KEY: shown once, never stored. */
  readonly generatedOperatorKey: string | undefined;
  stop(): Promise<void>;
}

const VERSION = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

/**
 * Start-up order: storage (migrations) -> operator identity -> gateway listening (so the
 * liveness probe answers and readiness says 503 while workers boot) -> actor workers.
 * Shutdown runs it backwards: stop accepting, drain the rings, close LMDB.
 */
export async function startService(config: ServiceConfig): Promise<Service> {
  const log = createLogger(config.logLevel);
  const storage = Storage.open(config.dataDir, { credentialsKey: config.credentialsKey });
  const auth = new Authenticator(storage, config.auth);
  const generatedOperatorKey = await auth.init();
  const market = createMarketMemory();
  const haltFlag = createHaltFlag();
  const execution: ExecutionConfig = {
    maxOrderNotionalUsd1e9: (config.maxOrderNotionalUsd ?? 1_000_000) * 1e9,
    simAccountUsd: config.simAccountUsd ?? 100_000,
  };
  // Working orders of the last run are closed before anything new is admitted (reconciliation.ts).
  const reconciled = await closeAfterRestart(storage.orders);
  if (reconciled > 0) log.warn({ orders: reconciled }, 'working orders reconciled after restart');
  const topology = new Topology({
    workers: config.workers,
    registryUrl: new URL('./registry.ts', import.meta.url).href,
    layouts,
    log,
    logLevel: config.logLevel,
    shared: { quotes: market.quotes, depth: market.depth, interest: market.interest, halt: haltFlag },
    settings: { simSeed: config.simSeed, dataDir: config.dataDir, ...execution },
  });
  // The journal: the single LMDB writer every router's durable writes go through.
  const journal = journalStage(storage.orders, (thread, bytes) => topology.endpoint.sendBinary(thread, JournalFrame.ACK, bytes), (correlation, value) =>
    topology.endpoint.answerAsk(correlation, value),
  );
  topology.endpoint.onBinary(journal.type, journal.handler);
  const gateway = new Gateway({
    storage,
    topology,
    auth,
    log,
    logLevel: config.logLevel,
    version: VERSION,
    market,
    haltFlag,
    execution,
  });
  const port = await gateway.listen(config.host, config.port);
  await topology.start();
  // The market comes up with the workers: every venue edge and the fair-price actor.
  for (const edgeId of edgeIds()) topology.startActor(edgeKey(edgeId));
  topology.startActor(FAIR_ACTOR);
  log.info({ host: config.host, port, workers: config.workers, version: VERSION }, 'service ready');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log.info({}, 'shutting down');
      await gateway.close();
      await topology.stop();
      await storage.close();
      log.info({}, 'stopped');
      flushLogs();
    })());
  return { port, gateway, topology, storage, generatedOperatorKey, stop };
}
