import { RecentMap } from '../../domain/recent.ts';

/** Lifecycle replay (spec, Limits: "Lifecycle replay: last 128 events"). */
export const LIFECYCLE_REPLAY = 128;

/**
 * The frames of one lifecycle stream: the last `capacity` in order, for a new subscriber's
 * replay, and the keys of recent ones so an event observed twice (a resync, another region) is
 * sent once. Pure; the server sends what it accepts.
 */
export class ReplayFeed {
  private readonly frames: string[] = [];
  private readonly seen: RecentMap<string, true>;

  constructor(
    readonly capacity = LIFECYCLE_REPLAY,
    dedupWindow = 65_536,
  ) {
    this.seen = new RecentMap(Math.max(capacity, dedupWindow));
  }

  /** Accepts a frame unless its key was seen; true when it is new (send it live). */
  offer(key: string, frame: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.set(key, true);
    this.frames.push(frame);
    if (this.frames.length > this.capacity) this.frames.shift();
    return true;
  }

  /** The frames to replay on connect, oldest first. */
  replay(): readonly string[] {
    return this.frames;
  }
}
