import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ALGO, type ServiceConfig } from '../../config.ts';
import { startService, type Service } from '../../service.ts';
import { bundleDir } from './bundle.ts';

export const TEST_OPERATOR_KEY = 'sqk_op_test_operator_key_0123456789abcdef';
export const TEST_JWT_SECRET = 'test-jwt-secret-with-enough-entropy-0123456789';

export interface TestService {
  service: Service;
  base: string;
  dataDir: string;
  config: ServiceConfig;
  /** Stops the service; keeps the data directory unless `removeData` (default true). */
  stop(removeData?: boolean): Promise<void>;
}

/**
 * The real service (gateway, workers, LMDB) on an ephemeral loopback port with a temp data
 * directory. Pass `dataDir` to restart over an existing database.
 */
export async function startTestService(
  overrides: Partial<Omit<ServiceConfig, 'auth'>> & { auth?: Partial<ServiceConfig['auth']> } = {},
): Promise<TestService> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'seq-test-'));
  const workerBundle = bundleDir();
  const config: ServiceConfig = {
    host: '127.0.0.1',
    port: 0,
    workers: 2,
    logLevel: process.env['LOG_LEVEL'] ?? 'silent',
    simSeed: 7,
    sandboxSeed: 1,
    // No algo worker unless a test asks for one (deployments, health): a worker's boot is ~0.5 s of
    // a service start, and most suites never deploy. Algos then run on the actor workers (dev mode).
    // A callback's budget is wall time: on this 2-core machine under two test processes a healthy
    // algo's callback can be descheduled past the default 20 ms (the deployments suite sets its own).
    algo: { ...DEFAULT_ALGO, workers: 0, callbackBudgetMs: 200 },
    // Workers from this checkout's bundle (bundle.ts): a start in ~0.6 s instead of ~4 s through tsx.
    ...(workerBundle !== undefined ? { workerBundle } : {}),
    ...overrides,
    dataDir,
    auth: {
      operatorKey: TEST_OPERATOR_KEY,
      jwtSecret: TEST_JWT_SECRET,
      jwksFile: undefined,
      jwtIssuer: undefined,
      jwtAudience: undefined,
      jwtMaxLifetimeS: 86_400,
      ...overrides.auth,
    },
  };
  const service = await startService(config);
  return {
    service,
    base: `http://127.0.0.1:${service.port}`,
    dataDir,
    config,
    stop: async (removeData = true) => {
      await service.stop();
      if (removeData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** fetch with a bearer credential and a JSON body; parses the JSON answer. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/** Asserts the spec's error envelope and returns it. */
export function envelope(body: unknown): { code: string; message: string; request_id: string; details: { field: string; message: string }[] } {
  const error = (body as { error?: unknown }).error as {
    code: string;
    message: string;
    request_id: string;
    details: { field: string; message: string }[];
  };
  if (typeof error !== 'object' || error === null) throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  for (const k of ['code', 'message', 'request_id'] as const) {
    if (typeof error[k] !== 'string') throw new Error(`envelope lacks ${k}: ${JSON.stringify(body)}`);
  }
  if (!Array.isArray(error.details)) throw new Error(`envelope lacks details: ${JSON.stringify(body)}`);
  return error;
}

/**
 * Polls `probe` until it returns something other than undefined; fails after `timeoutMs`. A probe
 * whose request timed out or found no connection is asked again (a loaded machine answers late,
 * a process starting answers nothing yet); any other error, an assertion's, fails at once.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let transient = '';
  for (;;) {
    let value: T | undefined;
    try {
      value = await probe();
    } catch (err) {
      if (!isTransient(err) || Date.now() >= deadline) throw err;
      transient = ` (last: ${(err as Error).message})`;
    }
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms${transient}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A request that timed out or could not connect: worth asking again. */
function isTransient(err: unknown): boolean {
  const e = err as { name?: string; cause?: { code?: string } } | null;
  return e?.name === 'TimeoutError' || (e?.name === 'TypeError' && /fetch failed/.test(String((err as Error).message)) && ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(e.cause?.code ?? ''));
}

/** Credentials a simulated venue accepts (okx also wants a passphrase). */
export function venueCredentials(venue: string): Record<string, string> {
  return { api_key: `key-${venue}-0123456789`, api_secret: `secret-${venue}-0123456789abcdef`, ...(venue === 'okx' || venue === 'kucoin' ? { passphrase: 'pass' } : {}) };
}

export interface TradingService {
  svc: TestService;
  base: string;
  /** the client's live API key */
  token: string;
}

/** A test service that answers ready, with live consolidated quotes for `symbols`. */
export async function startLiveService(symbols: readonly string[], overrides?: Parameters<typeof startTestService>[0]): Promise<TestService> {
  const svc = await startTestService(overrides);
  await until('service ready', async () => ((await call(svc.base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
  await until(`live ${symbols.join(', ')} quotes`, async () => {
    for (const symbol of symbols) {
      const res = await call<{ source: string }>(svc.base, 'GET', `/v1/quotes/${symbol}`, { token: TEST_OPERATOR_KEY });
      if (res.status !== 200 || res.body.source !== 'edge_nbbo') return undefined;
    }
    return true;
  }, 15_000, 100);
  return svc;
}

/**
 * A ready test service with one enterprise client holding credentials (so funded accounts) on
 * `venues`; with `symbol`, also waits for its live consolidated quote.
 */
export async function startTradingService(options: {
  client: string;
  venues: readonly string[];
  symbol?: string;
  service?: Parameters<typeof startTestService>[0];
}): Promise<TradingService> {
  const svc = await startLiveService(options.symbol === undefined ? [] : [options.symbol], options.service);
  const base = svc.base;
  const storage = svc.service.storage;
  await storage.clients.put({ client_id: options.client, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
  const token = (await storage.apiKeys.create(options.client, { label: 'live', sandbox: false })).raw_key;
  for (const venue of options.venues) {
    const res = await call(base, 'POST', `/v1/credentials/${venue}`, { token, body: venueCredentials(venue) });
    if (res.status !== 200) throw new Error(`credentials for ${venue}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { svc, base, token };
}

/** A fresh enterprise client of a running test service, with a live and a sandbox key. */
export async function clientWithKeys(svc: TestService, clientId: string): Promise<{ live: string; sandbox: string }> {
  const storage = svc.service.storage;
  await storage.clients.put({ client_id: clientId, tier: 'enterprise', rate_limit_qps: 2_000, is_admin: false, created_at_ms: Date.now() });
  return {
    live: (await storage.apiKeys.create(clientId, { label: 'live', sandbox: false })).raw_key,
    sandbox: (await storage.apiKeys.create(clientId, { label: 'sandbox', sandbox: true })).raw_key,
  };
}
