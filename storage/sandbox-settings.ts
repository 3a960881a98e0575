import type { Databases } from './database.ts';

/**
 * A client's sandbox settings (spec, Sandbox rule 8: a change takes effect on the next reset),
 * one record per client:
 *
 *   sandbox_settings: client_id -> { v, pending, effective, updated_at_ms, reset_at_ms }
 *
 * `pending` is what PUT /v1/sandbox/settings writes and GET shows; `effective` is `pending` as
 * it was at the client's last POST /v1/sandbox/reset: the balance that reset seeded and the seed
 * and fault knobs the client's sandbox orders run with until the next one. A client that never
 * set or reset anything has the defaults in both. Written on the gateway thread, durable before
 * the answer; a router reads `effective` through its worker's reader (`effectiveSandboxSettings`).
 */
export interface SandboxSettings {
  /** USD of each quote asset a reset seeds on every venue with markets. */
  initial_balance_usd: number;
  /** Seed of the sandbox venues' fault draws; null: the service's SANDBOX_SEED. */
  seed: number | null;
  /** Added to each venue's own latency before a sandbox child meets the book, 0-10,000 ms. */
  latency_ms: number;
  /** Share of sandbox children refused by the venue, 0-1. */
  reject_rate: number;
  /** Share of IOC children filled only in part, 0-1. */
  partial_fill_rate: number;
  /** Share of venue answers lost on the way back (reconciled), 0-1. */
  disconnect_rate: number;
  /** A cancel races a last fill. */
  cancel_race: boolean;
}

export const SANDBOX_DEFAULT_SETTINGS: Readonly<SandboxSettings> = Object.freeze({
  initial_balance_usd: 1_000_000_000,
  seed: null,
  latency_ms: 0,
  reject_rate: 0,
  partial_fill_rate: 0,
  disconnect_rate: 0,
  cancel_race: false,
});

interface SandboxSettingsRecord {
  v: 1;
  pending: SandboxSettings;
  effective: SandboxSettings;
  updated_at_ms: number;
  reset_at_ms: number | null;
}

/** A stored settings object over the defaults: a setting a later build adds reads as its default. */
function withDefaults(stored: unknown): SandboxSettings {
  const out: SandboxSettings = { ...SANDBOX_DEFAULT_SETTINGS };
  if (typeof stored !== 'object' || stored === null) return out;
  const s = stored as Record<string, unknown>;
  for (const key of Object.keys(SANDBOX_DEFAULT_SETTINGS) as (keyof SandboxSettings)[]) {
    const value = s[key];
    const fits = key === 'seed' ? value === null || typeof value === 'number' : typeof value === typeof SANDBOX_DEFAULT_SETTINGS[key];
    if (fits) (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}

function recordOf(db: Pick<Databases, 'sandboxSettings'>, clientId: string): SandboxSettingsRecord | undefined {
  const value = db.sandboxSettings.get(clientId) as Partial<SandboxSettingsRecord> | undefined;
  if (value === undefined) return undefined;
  return { v: 1, pending: withDefaults(value.pending), effective: withDefaults(value.effective), updated_at_ms: value.updated_at_ms ?? 0, reset_at_ms: value.reset_at_ms ?? null };
}

/**
 * The settings a client's sandbox orders run with now (those of its last reset; the defaults
 * before one), read from any thread's handle on the environment. A worker's reader sees a reset's
 * settings once it refreshes after the reset was acknowledged (the router's `SandboxReset` does).
 */
export function effectiveSandboxSettings(db: Pick<Databases, 'sandboxSettings'>, clientId: string): SandboxSettings {
  return recordOf(db, clientId)?.effective ?? { ...SANDBOX_DEFAULT_SETTINGS };
}

export class SandboxSettingsStore {
  constructor(private readonly db: Databases) {}

  /** What GET shows: the settings the next reset makes effective. */
  pending(clientId: string): SandboxSettings {
    return recordOf(this.db, clientId)?.pending ?? { ...SANDBOX_DEFAULT_SETTINGS };
  }

  effective(clientId: string): SandboxSettings {
    return effectiveSandboxSettings(this.db, clientId);
  }

  /**
   * Merges `changes` into the pending settings (a setting not given keeps its pending value);
   * the effective ones stay until the next reset. Read and written in one turn of this thread,
   * the only writer, so two concurrent calls cannot lose each other's read. Durable before it
   * resolves; answers the new pending settings.
   */
  async updatePending(clientId: string, changes: Partial<SandboxSettings>, nowMs = Date.now()): Promise<SandboxSettings> {
    const record = recordOf(this.db, clientId) ?? this.fresh(nowMs);
    const pending: SandboxSettings = { ...record.pending };
    for (const key of Object.keys(SANDBOX_DEFAULT_SETTINGS) as (keyof SandboxSettings)[]) {
      if (changes[key] !== undefined) (pending as unknown as Record<string, unknown>)[key] = changes[key];
    }
    await this.write(clientId, { ...record, pending, updated_at_ms: nowMs });
    return pending;
  }

  /** A reset: the pending settings become the effective ones. Durable before it resolves; answers them. */
  async applyPending(clientId: string, nowMs = Date.now()): Promise<SandboxSettings> {
    const record = recordOf(this.db, clientId) ?? this.fresh(nowMs);
    await this.write(clientId, { ...record, effective: { ...record.pending }, reset_at_ms: nowMs });
    return { ...record.pending };
  }

  private fresh(nowMs: number): SandboxSettingsRecord {
    return { v: 1, pending: { ...SANDBOX_DEFAULT_SETTINGS }, effective: { ...SANDBOX_DEFAULT_SETTINGS }, updated_at_ms: nowMs, reset_at_ms: null };
  }

  private async write(clientId: string, record: SandboxSettingsRecord): Promise<void> {
    await this.db.sandboxSettings.put(clientId, record);
    await this.db.root.flushed;
  }
}
