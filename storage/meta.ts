import type { Databases } from './database.ts';

export interface KillSwitchState {
  active: boolean;
  reason: string | null;
  updated_at_ms: number | null;
  updated_by: string | null;
}

const KILL_SWITCH_KEY = 'kill_switch';
const OPERATOR_KEY_HASH_KEY = 'operator_key_hash';

export const KILL_SWITCH_OFF: KillSwitchState = { active: false, reason: null, updated_at_ms: null, updated_by: null };

/** Singleton settings of the service, kept in the `meta` database. */
export class MetaStore {
  constructor(private readonly db: Databases) {}

  killSwitch(): KillSwitchState {
    return (this.db.meta.get(KILL_SWITCH_KEY) as KillSwitchState | undefined) ?? KILL_SWITCH_OFF;
  }

  /** Durable before it resolves: a halt acknowledged to an operator survives a crash. */
  async setKillSwitch(state: KillSwitchState): Promise<void> {
    await this.db.meta.put(KILL_SWITCH_KEY, state);
    await this.db.root.flushed;
  }

  operatorKeyHash(): string | undefined {
    return this.db.meta.get(OPERATOR_KEY_HASH_KEY) as string | undefined;
  }

  async setOperatorKeyHash(hash: string): Promise<void> {
    await this.db.meta.put(OPERATOR_KEY_HASH_KEY, hash);
    await this.db.root.flushed;
  }
}
