import { DepthCacheReader } from '../../actors/edge/depth-cache.ts';
import type { SandboxProfile } from '../../actors/edge/messages.ts';
import { privateInterestIndex } from '../../actors/market/interest.ts';
import { orderView, type Mode } from '../../domain/orders.ts';
import { decimalToScaled, exactInt, wallClockNs } from '../../domain/units.ts';
import { NO_REPLY, type Actor, type ActorContext } from '../../engine/actor.ts';
import { publishOn } from '../../engine/topic.ts';
import { storedVenues } from '../../storage/credentials.ts';
import { DeploymentStore } from '../../storage/deployments.ts';
import { algoKey, type OrderUpdate } from '../algo/messages.ts';
import { openDatabases, type Databases } from '../../storage/database.ts';
import { OrderStore } from '../../storage/orders.ts';
import { MarketResolutionStore } from '../../storage/market-resolutions.ts';
import { storedOutcome } from '../contract-outcomes.ts';
import { effectiveSandboxSettings, SANDBOX_DEFAULT_SETTINGS, type SandboxSettings } from '../../storage/sandbox-settings.ts';
import { FeeTiers } from '../fee-tiers.ts';
import { JournaledOrders } from '../journal/journaled-orders.ts';
import { JournalLink } from '../journal/link.ts';
import { JOURNAL_THREAD } from '../journal/messages.ts';
import { sharedHaltFlag } from '../kill-switch.ts';
import { SharedMarketView } from '../market-view.ts';
import { ExecutionRefusal, refuse, ResultCode } from '../result-codes.ts';
import { ExecutionService } from '../service.ts';
import type { ExecutionConfig, OrderOwner } from '../types.ts';
import { VenueBooks } from '../views.ts';
import { ORDER_EVENTS_TOPIC, ROUTER_UP_TOPIC, routerOwner, type RiskAnswer, type RouterAnswer, type RouterMessage } from './messages.ts';
import { PositionPages, SandboxUploads } from './staging.ts';

/** What every router on a worker shares: one LMDB reader (and id generator), the journal link, the shared market. */
interface WorkerResources {
  db: Databases;
  reader: OrderStore;
  journal: JournalLink;
  depth: DepthCacheReader;
  market: SharedMarketView;
}

let resources: WorkerResources | undefined;

function workerResources(ctx: ActorContext): WorkerResources {
  if (resources !== undefined) return resources;
  const { shared, settings } = ctx.environment;
  const db = openDatabases(String(settings['dataDir']), { readerOnly: true });
  resources = { db, reader: new OrderStore(db), journal: new JournalLink(ctx), depth: new DepthCacheReader(shared['depth']!), market: new SharedMarketView(shared['quotes']!) };
  return resources;
}

/** The execution settings every router reads from the topology's settings. */
function executionConfig(settings: Readonly<Record<string, string | number | boolean>>): ExecutionConfig {
  return {
    maxOrderNotionalUsd1e9: Number(settings['maxOrderNotionalUsd1e9']),
    simAccountUsd: Number(settings['simAccountUsd']),
    redeemCreditDelayMs: Number(settings['redeemCreditDelayMs'] ?? 60_000),
    walletProvisionMs: Number(settings['walletProvisionMs'] ?? 5_000),
    liveVenues: String(settings['liveVenues'] ?? '').split(',').filter((v) => v !== ''),
    ...(settings['region'] ? { region: { name: String(settings['region']), localVenues: String(settings['localVenues'] ?? '').split(',').filter((v) => v !== '') } } : {}),
  };
}

/**
 * `router:<mode>|<client>`: one client's execution in one mode, on the worker its key hashes
 * to. It owns the client's admission state, reservations and balances, working orders, the SOR
 * call, child dispatch to the edges, fill booking, TCA and order events; single-threaded, so
 * no locks and no other client in its way. Durable writes go to the journal (JournaledOrders);
 * reads are its worker's own LMDB reader.
 *
 * Every answer is a value (`RouterAnswer`): a refusal or an unexpected failure never throws out
 * of the actor, because the runtime restarts an actor that throws and this one holds working
 * orders and reservations in memory.
 */
export function routerActor(key: string): Actor<RouterMessage> {
  const owner: OrderOwner = routerOwner(key) ?? { mode: 'live', client_id: '' };
  let service: ExecutionService | undefined;
  let orders: JournaledOrders | undefined;
  let venues: ReadonlySet<string> | undefined;
  let reader: OrderStore | undefined;
  let db: Databases | undefined;
  /** How this client's sandbox legs execute: its effective settings, read at start and at each reset. */
  let sandboxProfile: SandboxProfile = profileOf(SANDBOX_DEFAULT_SETTINGS, 1);
  let sandboxSeed = 1;
  const pages = new PositionPages();
  const uploads = new SandboxUploads();
  return {
    onStart(ctx) {
      const r = workerResources(ctx);
      r.reader.refresh();
      ({ reader, db } = r);
      const interest = new Int32Array(ctx.environment.shared['interest']!);
      sandboxSeed = Number(ctx.environment.settings['sandboxSeed'] ?? 1);
      if (owner.mode === 'sandbox') sandboxProfile = profileOf(effectiveSandboxSettings(r.db, owner.client_id), sandboxSeed);
      const tcaClock = { schedule: (ms: number, fn: () => void) => void ctx.schedule(ms, fn), log: (err: unknown) => ctx.log.error({ err, router: key }, 'TCA delta not journalled') };
      orders = new JournaledOrders({ clientId: owner.client_id, mode: owner.mode }, r.reader, r.journal, ctx.environment.settings['tcaAggregates'] === 'off' ? undefined : tcaClock);
      const resolutions = new MarketResolutionStore(r.db);
      const deployments = new DeploymentStore(r.db);
      service = new ExecutionService({
        orders,
        messenger: ctx,
        schedule: (ms, fn) => ctx.schedule(ms, fn),
        books: new VenueBooks(ctx, r.depth),
        feeTiers: new FeeTiers(ctx, ctx.log),
        market: r.market,
        halt: sharedHaltFlag(ctx.environment.shared['halt']!),
        // In sandbox mode a venue's sandbox balances stand in for its credentials (docs/api-decisions.md).
        credentialedVenues: (client, mode) => (mode === 'sandbox' ? service!.ledger(client, 'sandbox').venueSet() : (venues ??= new Set(storedVenues(r.db, client, mode as Mode)))),
        sandboxProfile: () => sandboxProfile,
        events: {
          wants: (channel, client, mode) => Atomics.load(interest, privateInterestIndex(channel, client, mode)) > 0,
          publish: (channel, client, mode, data) => void publishOn(ctx, ORDER_EVENTS_TOPIC, [channel, client, mode, data]),
          lineage: (order, fills) =>
            void ctx.tell(algoKey(order.mode, order.client_id, order.lineage_deployment_id!), {
              t: 'OrderUpdate',
              client_order_id: order.client_order_id,
              node_order_id: order.node_order_id,
              status: order.status,
              failure_class: order.failure_class,
              failure_reason: order.failure_reason,
              fills: fills.map((f) => ({ qty_1e8: f.qty_1e8, price_1e9: f.price_1e9, ts_ns: f.ts_unix_ns })),
            } satisfies OrderUpdate),
        },
        deploymentRunning: (client, mode, id) => {
          // A deployment started after this worker's read transaction began is seen on a fresh one.
          const running = (d: { status: string } | undefined) => d !== undefined && (d.status === 'running' || d.status === 'starting');
          return running(deployments.get(client, mode, id)) || running(deployments.getFresh(client, mode, id));
        },
        config: executionConfig(ctx.environment.settings),
        log: ctx.log,
        self: key,
        storedOutcome: (contract, venue) => storedOutcome(resolutions, contract, venue),
      });
      service.start();
      // Credentials made durable just before a crash may have lost their account's opening:
      // it opens now (an account that has any row is left alone; live rows are never deleted).
      if (owner.mode === 'live') {
        for (const venue of storedVenues(r.db, owner.client_id, owner.mode)) {
          service.openSimAccount(owner.client_id, owner.mode, venue).catch((err: unknown) => ctx.log.error({ err, venue }, 'venue account not opened'));
        }
      }
      publishOn(ctx, ROUTER_UP_TOPIC, key);
    },

    onMessage(m: RouterMessage, ctx: ActorContext): unknown {
      const s = service!;
      switch (m.t) {
        case 'Submit':
        case 'SubmitExtended': {
          // Asked from the journal's thread for the JSON answer: a new order's 201 rides in the
          // journal frame that makes it durable, and the journal answers this ask with it.
          const reply = m.as === 'json' && ctx.askThread === JOURNAL_THREAD ? ctx.askCorrelation : undefined;
          // An actor's order (a deployment's) learns when the router took it: its latency figure.
          const received_ns = m.request.lineage_deployment_id === undefined ? undefined : wallClockNs();
          const submitted = s.submit(owner, m.request, m.idempotency_key ?? undefined, reply);
          if (m.as !== 'json') return answer(received_ns === undefined ? submitted : submitted.then((a) => ({ ...a, received_ns })));
          return answer(submitted.then(({ status, order }) => (reply !== undefined && status === 201 ? NO_REPLY : { status, json: JSON.stringify(orderView(order)) }))).then((a) =>
            'ok' in a && a.ok === NO_REPLY ? NO_REPLY : a,
          );
        }
        case 'Preview':
          return answer(s.preview(owner, m.request));
        case 'Cancel':
          return answer(s.cancel(owner, m.node_order_id));
        case 'Activate':
          return answer(s.activate(owner, m.graph_id));
        case 'VenueView':
          return answer(s.venueView(owner.client_id, owner.mode));
        case 'Recon':
          return answer(Promise.resolve().then(() => s.reconState()));
        case 'Positions':
          return answer(Promise.resolve().then(() => pages.page(m.page, () => s.ledger(owner.client_id, owner.mode).view((asset, instrument) => s.markOf(asset, instrument), m.filters))));
        case 'Risk':
          return answer(Promise.resolve().then(() => risk(s, owner)));
        case 'CredentialsStored':
        case 'CredentialsRemoved':
          // The gateway wrote the row on its thread: read it through a fresh transaction.
          reader!.refresh();
          venues = new Set(storedVenues(db!, owner.client_id, owner.mode));
          if (m.t === 'CredentialsRemoved') return answer(Promise.resolve(true));
          void s.feeTiers.probe(owner.client_id, owner.mode, m.venue);
          return answer(s.openSimAccount(owner.client_id, owner.mode, m.venue).then(() => true));
        case 'SandboxStage':
        case 'SandboxPositions':
        case 'SandboxReset':
          return answer(Promise.resolve().then(() => sandbox(m)));
        case 'Halt':
          return answer(s.haltAll().then(() => true));
        case 'RecoverAfterRestart':
          return answer(Promise.resolve(s.recoverAfterRestart()));
        case 'CancelLineage':
          return answer(s.cancelLineage(owner, m.deployment_id));
        case 'Drain':
          return answer(s.drain().then(() => orders!.settleTca()).then(() => true));
        case 'FlushTca':
          return answer(orders!.settleTca().then(() => true));
        case 'MakerFill':
          s.onMakerFill(m);
          return undefined;
        case 'MarketResolved':
          return answer(s.marketResolved(m.resolution));
        case 'Redeem':
          return answer(s.redeem(owner, m.venue, m.markets, m.credit_delay_ms));
        case 'WalletFunded':
          return answer(s.fundWallet(owner, BigInt(m.usdc_1e8)));
        case 'Withdraw':
          return answer(s.withdraw(owner, m.chain, m.token, BigInt(m.qty_1e8)).then((left) => left.toString()));
        default:
          ctx.log.warn({ router: key, type: (m as { t?: unknown }).t }, 'unknown router message dropped');
          return undefined;
      }
    },

    onStop() {
      service?.stop();
    },
  };

  /** The sandbox endpoints' messages; a live router refuses them (a live key reaches only live infrastructure). */
  function sandbox(m: Extract<RouterMessage, { t: 'SandboxStage' | 'SandboxPositions' | 'SandboxReset' }>): Promise<unknown> | boolean {
    const s = service!;
    if (owner.mode !== 'sandbox') throw refuse(ResultCode.SANDBOX_ONLY, `${key} is not a sandbox router`);
    switch (m.t) {
      case 'SandboxStage':
        uploads.stage(m.upload, m.rows);
        return true;
      case 'SandboxPositions': {
        const staged = m.upload === null ? [] : uploads.take(m.upload);
        if (staged === undefined) throw new Error(`sandbox write ${m.upload}: its first parts were forgotten (older than 30 s); send it again`);
        return s.writeSandboxPositions(owner.client_id, staged.length === 0 ? m.rows : staged.concat(m.rows), m.replace);
      }
      case 'SandboxReset': {
        const balance = decimalToScaled(m.initial_balance_usd, 8);
        if (balance === undefined || balance < 0n) throw refuse(ResultCode.INVALID_FIELD, 'initial_balance_usd must be >= 0 with at most 8 decimal places', 'initial_balance_usd');
        // The gateway made the client's settings effective in LMDB before asking: reads from
        // here on (the sandbox profile of the next orders) see them through a fresh transaction.
        reader!.refresh();
        sandboxProfile = profileOf(effectiveSandboxSettings(db!, owner.client_id), sandboxSeed);
        // A reset funds the sandbox wallet's chains again, as it funds every venue.
        const wallet = db!.wallets.get([owner.client_id, 'sandbox']) !== undefined;
        return s.resetSandbox(owner, balance).then(async (answer) => (wallet ? { ...answer, venues_seeded: [...answer.venues_seeded, ...(await s.fundWallet(owner, balance))] } : answer));
      }
    }
  }
}

function answer<T>(work: Promise<T>): Promise<RouterAnswer<T>> {
  return work.then(
    (ok) => ({ ok }),
    (err: unknown) =>
      err instanceof ExecutionRefusal
        ? { refused: { code: err.code, message: err.message, field: err.field } }
        : { failed: err instanceof Error ? err.message : String(err) },
  );
}

function risk(s: ExecutionService, owner: OrderOwner): RiskAnswer {
  const ledger = s.ledger(owner.client_id, owner.mode);
  const view = ledger.view((asset, instrument) => s.markOf(asset, instrument));
  return {
    reserved: ledger
      .rows()
      .filter((r) => r.locked_qty_1e8 > 0n)
      .map((r) => ({ venue: r.venue, instrument: r.instrument, locked_qty_1e8: exactInt(r.locked_qty_1e8) })),
    nav_usd_1e9: view.totals.nav_usd_1e9,
    cash_usd_1e9: view.totals.cash_usd_1e9,
    gross_exposure_usd_1e9: exactInt(view.positions.filter((r) => r.instrument.kind === 'crypto').reduce((sum, r) => sum + absBig(BigInt(r.current_value_usd_1e9)), 0n)),
  };
}

function absBig(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** The edge's view of a client's effective sandbox settings; no seed of its own: the service's. */
function profileOf(settings: SandboxSettings, serviceSeed: number): SandboxProfile {
  return {
    seed: settings.seed ?? serviceSeed,
    latency_ms: settings.latency_ms,
    reject_rate: settings.reject_rate,
    partial_fill_rate: settings.partial_fill_rate,
    disconnect_rate: settings.disconnect_rate,
    cancel_race: settings.cancel_race,
  };
}
