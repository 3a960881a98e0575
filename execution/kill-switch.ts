import type { LiveHaltReport } from '../actors/edge/messages.ts';
import type { KillSwitchState } from '../storage/meta.ts';
import type { MetaStore } from '../storage/meta.ts';
import type { HaltFlag } from './types.ts';

/** One Int32 the gateway thread writes and every router reads at admission: 1 while halted. */
export function createHaltFlag(): SharedArrayBuffer {
  return new SharedArrayBuffer(4);
}

/** The kill switch as a router on a worker reads it: no message, one atomic load. */
export function sharedHaltFlag(buffer: SharedArrayBuffer): HaltFlag {
  const word = new Int32Array(buffer);
  return {
    get active() {
      return Atomics.load(word, 0) === 1;
    },
  };
}

/**
 * The global kill switch: stored in LMDB (durable before acknowledged, survives restarts) and
 * mirrored into shared memory because every router's admission reads it. Listeners are how the
 * rest learns of a halt: the WebSocket `system` channel, and the routers' halt of working legs.
 */
export class KillSwitch {
  private current: KillSwitchState;
  private readonly listeners: ((state: KillSwitchState) => void)[] = [];

  private readonly word: Int32Array;
  /** What each live venue's edge did on the venue since the last halt (its cancel-all). */
  private readonly liveReports = new Map<string, LiveHaltReport>();

  constructor(
    private readonly meta: MetaStore,
    flag: SharedArrayBuffer = createHaltFlag(),
  ) {
    this.word = new Int32Array(flag);
    this.current = meta.killSwitch();
    Atomics.store(this.word, 0, this.current.active ? 1 : 0);
  }

  get state(): KillSwitchState {
    return this.current;
  }

  get active(): boolean {
    return this.current.active;
  }

  /** A live edge's cancel-all on its venue, as it reported it. */
  noteLiveVenue(report: LiveHaltReport): void {
    this.liveReports.set(report.edge_id, report);
  }

  /** The live venues' cancel-alls since the last halt, by venue. */
  liveVenues(): LiveHaltReport[] {
    return [...this.liveReports.values()].sort((a, b) => a.venue.localeCompare(b.venue));
  }

  onChange(listener: (state: KillSwitchState) => void): void {
    this.listeners.push(listener);
  }

  async set(active: boolean, reason: string | null, by: string): Promise<KillSwitchState> {
    const next: KillSwitchState = { active, reason: active ? reason : null, updated_at_ms: Date.now(), updated_by: by };
    await this.meta.setKillSwitch(next);
    this.current = next;
    if (active) this.liveReports.clear();
    Atomics.store(this.word, 0, active ? 1 : 0);
    for (const listener of this.listeners) listener(next);
    return next;
  }
}
