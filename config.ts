import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseCredentialsKey } from './storage/crypto.ts';
import { liveVenuesFromEnv, type VenueEndpoints } from './actors/edge/live/endpoints.ts';
import type { VenueId } from './domain/market.ts';
import { regionFromEnv, type RegionConfig } from './actors/region-link/config.ts';

/** Runtime configuration from the environment; the README lists every variable and default. */
export interface ServiceConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Writes are refused while the data directory's filesystem has less free, MiB (`STORAGE_MIN_FREE_MB`, storage/disk-space.ts). */
  storageMinFreeMb?: number;
  workers: number;
  logLevel: string;
  /** Seed of the simulated venues: the same seed gives the same market. */
  simSeed: number;
  /** Seed of the sandbox venues' fault draws, for clients that set none: the same seed and book sequence give the same sandbox fills. */
  sandboxSeed: number;
  /** Mean seconds between market resolutions on each simulated prediction venue (`SIM_MARKET_RESOLVE_S`). */
  simMarketResolveS?: number;
  /** Long-dated prediction events listed at any instant, both venues together (`SIM_PREDICTION_EVENTS`). */
  simPredictionEvents?: number;
  /** Seconds between funding instants on every simulated perp venue (`SIM_FUNDING_INTERVAL_S`); unset: each venue's own schedule (1 h, 8 h). */
  simFundingIntervalS?: number | undefined;
  /** How long the token-style venue's relayer takes to credit a redemption, ms (`REDEEM_CREDIT_DELAY_MS`). */
  redeemCreditDelayMs?: number;
  /** How long a new managed trading wallet provisions, ms (`WALLET_PROVISION_MS`). */
  walletProvisionMs?: number;
  /** `venue` (default): a simulated venue executes an order its one-way latency after it is sent, live and sandbox alike; `off`: on receipt (engine-only benchmarks). */
  simOrderLatency?: 'venue' | 'off';
  /** 64 hex characters sealing venue credentials; unset: DATA_DIR/credentials.key, generated once. */
  credentialsKey?: string | undefined;
  /** `on` (default): completed orders are folded into the TCA aggregates; `off` measures what folding costs (bench/analytics.bench.ts), analytics then read nothing new. */
  tcaAggregates?: 'on' | 'off';
  /** Per-order notional cap, USD (pre-trade risk). */
  maxOrderNotionalUsd?: number;
  /** Cash a simulated venue account opens with, per quote currency, USD. */
  simAccountUsd?: number;
  /** Venues on their real adapter instead of the simulator (`LIVE_VENUES`), with the URLs they are reached at (docs/live-venues.md). */
  liveVenues?: { venue: VenueId; endpoints: VenueEndpoints }[];
  /** This node among several joined over NATS (`NATS_URL`, `REGION`, `LOCAL_VENUES`; docs/regions.md); unset: one node. */
  region?: RegionConfig | undefined;
  /** A live prediction venue's catalog is read this often, ms (`LIVE_CATALOG_MS`, default 30 s). */
  liveCatalogMs?: number;
  /** Trading markets whose books a live prediction edge streams unasked, by volume (`LIVE_FOLLOW_MAX`, default 200). */
  liveFollowMax?: number;
  /** Workers boot from this directory's bundle (scripts/build.mjs) rather than the layout the service was loaded from: the tests' in-process services. */
  workerBundle?: string;
  /** Strategy deployments (docs/deployments.md). */
  algo?: {
    /** algo worker threads, apart from the actor workers (`ALGO_WORKERS`, default 1) */
    workers: number;
    /** a module's memory cap, MiB (`ALGO_MEMORY_MB`, default 64) */
    memoryMb: number;
    /** the longest one callback may run, ms (`ALGO_CALLBACK_BUDGET_MS`, default 20) */
    callbackBudgetMs: number;
    /** largest artifact, bytes (`ALGO_ARTIFACT_MAX_BYTES`, default 1 MiB) */
    artifactMaxBytes: number;
    /** orders a deployment may enter per second (`ALGO_ORDERS_PER_S`, default 100) */
    ordersPerS: number;
    /** empty polls an algo worker spins before it parks (`ALGO_SPIN_POLLS`, default 256, as the other workers) */
    spinPolls?: number;
  };
  auth: {
    operatorKey: string | undefined;
    jwtSecret: string | undefined;
    jwksFile: string | undefined;
    jwtIssuer: string | undefined;
    jwtAudience: string | undefined;
    /** The longest a JWT may be valid for, seconds: `exp` is required and at most this far ahead (and after `iat`). */
    jwtMaxLifetimeS: number;
  };
}

/** Strategy deployments' defaults (the ALGO_* variables unset). */
export const DEFAULT_ALGO: NonNullable<ServiceConfig['algo']> = { workers: 1, memoryMb: 64, callbackBudgetMs: 20, artifactMaxBytes: 1 << 20, ordersPerS: 100, spinPolls: 256 };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const text = (name: string) => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(raw)}`);
    }
    return value;
  };
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const simOrderLatency = text('SIM_ORDER_LATENCY') ?? 'venue';
  if (simOrderLatency !== 'venue' && simOrderLatency !== 'off') throw new Error(`SIM_ORDER_LATENCY must be venue or off, got ${JSON.stringify(simOrderLatency)}`);
  const tcaAggregates = text('TCA_AGGREGATES') ?? 'on';
  if (tcaAggregates !== 'on' && tcaAggregates !== 'off') throw new Error(`TCA_AGGREGATES must be on or off, got ${JSON.stringify(tcaAggregates)}`);
  const credentialsKey = text('CREDENTIALS_KEY');
  if (credentialsKey !== undefined) parseCredentialsKey(credentialsKey); // throws without echoing the value
  return {
    host: text('HOST') ?? '127.0.0.1',
    port: integer('PORT', 8080, 0, 65_535),
    dataDir: resolve(text('DATA_DIR') ?? './data'),
    storageMinFreeMb: integer('STORAGE_MIN_FREE_MB', 64, 0, 1_048_576),
    workers: integer('WORKERS', Math.max(1, availableParallelism()), 1, 64),
    logLevel,
    simSeed: integer('SIM_SEED', 42, 0, 2 ** 31 - 1),
    sandboxSeed: integer('SANDBOX_SEED', 1, 0, 2 ** 31 - 1),
    simMarketResolveS: integer('SIM_MARKET_RESOLVE_S', 300, 1, 86_400),
    simPredictionEvents: integer('SIM_PREDICTION_EVENTS', 400, 10, 20_000),
    simFundingIntervalS: text('SIM_FUNDING_INTERVAL_S') === undefined ? undefined : integer('SIM_FUNDING_INTERVAL_S', 0, 1, 86_400),
    redeemCreditDelayMs: integer('REDEEM_CREDIT_DELAY_MS', 60_000, 0, 3_600_000),
    walletProvisionMs: integer('WALLET_PROVISION_MS', 5_000, 0, 600_000),
    simOrderLatency,
    tcaAggregates,
    credentialsKey,
    maxOrderNotionalUsd: integer('MAX_ORDER_NOTIONAL_USD', 1_000_000, 1, 1_000_000_000_000),
    simAccountUsd: integer('SIM_ACCOUNT_USD', 100_000, 0, 1_000_000_000_000),
    liveVenues: liveVenuesFromEnv(env),
    region: regionFromEnv(env),
    liveCatalogMs: integer('LIVE_CATALOG_MS', 30_000, 1_000, 3_600_000),
    liveFollowMax: integer('LIVE_FOLLOW_MAX', 200, 0, 10_000),
    algo: {
      workers: integer('ALGO_WORKERS', DEFAULT_ALGO.workers, 0, 16),
      memoryMb: integer('ALGO_MEMORY_MB', DEFAULT_ALGO.memoryMb, 1, 4_096),
      callbackBudgetMs: integer('ALGO_CALLBACK_BUDGET_MS', DEFAULT_ALGO.callbackBudgetMs, 1, 10_000),
      artifactMaxBytes: integer('ALGO_ARTIFACT_MAX_BYTES', DEFAULT_ALGO.artifactMaxBytes, 1_024, 64 << 20),
      ordersPerS: integer('ALGO_ORDERS_PER_S', DEFAULT_ALGO.ordersPerS, 1, 100_000),
      spinPolls: integer('ALGO_SPIN_POLLS', DEFAULT_ALGO.spinPolls!, 1, 2 ** 31 - 1),
    },
    auth: {
      operatorKey: text('OPERATOR_KEY'),
      jwtSecret: text('AUTH_JWT_SECRET'),
      jwksFile: text('AUTH_JWKS_FILE'),
      jwtIssuer: text('AUTH_JWT_ISSUER'),
      jwtAudience: text('AUTH_JWT_AUDIENCE'),
      jwtMaxLifetimeS: integer('AUTH_JWT_MAX_LIFETIME_S', 86_400, 60, 31 * 86_400),
    },
  };
}
