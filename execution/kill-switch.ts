import type { KillSwitchState } from '../storage/meta.ts';
import type { MetaStore } from '../storage/meta.ts';

/**
 * The global kill switch: stored in LMDB (durable before acknowledged, survives restarts) and
 * cached here because every order admission reads it. Listeners are how dispatch learns of a
 * halt: the WebSocket `system` channel now, the router actors in the execution issue.
 */
export class KillSwitch {
  private current: KillSwitchState;
  private readonly listeners: ((state: KillSwitchState) => void)[] = [];

  constructor(private readonly meta: MetaStore) {
    this.current = meta.killSwitch();
  }

  get state(): KillSwitchState {
    return this.current;
  }

  get active(): boolean {
    return this.current.active;
  }

  onChange(listener: (state: KillSwitchState) => void): void {
    this.listeners.push(listener);
  }

  async set(active: boolean, reason: string | null, by: string): Promise<KillSwitchState> {
    const next: KillSwitchState = { active, reason: active ? reason : null, updated_at_ms: Date.now(), updated_by: by };
    await this.meta.setKillSwitch(next);
    this.current = next;
    for (const listener of this.listeners) listener(next);
    return next;
  }
}
