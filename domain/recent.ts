/**
 * A window of the most recent keys, for exactly-once checks that need only the recent past
 * (fill ids a ledger has booked, child orders an edge has answered): at most `capacity` keys,
 * the oldest inserted forgotten first.
 *
 * Eviction does not iterate the Map. `map.keys().next()` looks cheap but walks past every
 * entry deleted since V8 last rehashed the table: with one delete per insert, each call
 * skipped up to thousands of holes, and two such windows made the router's and the edges'
 * CPU per order grow by half within a minute of load. Here a ring of the keys in insertion
 * order names the one to evict. There is no `delete`: a key leaves only by being the oldest,
 * or by being older than a time its owner names (`forgetBefore`, with each key's `set` time).
 */
export class RecentMap<K, V> {
  private readonly map = new Map<K, V>();
  private readonly order: (K | undefined)[];
  /** When each slot's key was set (`set`'s `at`), for `forgetBefore`. */
  private readonly stamps: Float64Array;
  private next = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.order = new Array<K | undefined>(capacity).fill(undefined);
    this.stamps = new Float64Array(capacity);
  }

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  /**
   * A new key becomes the most recent (the oldest goes when full), stamped `at` (any clock the
   * owner keeps, non-decreasing); a known key keeps its place and its stamp.
   */
  set(key: K, value: V, at = 0): void {
    if (!this.map.has(key)) {
      const oldest = this.order[this.next];
      if (oldest !== undefined) this.map.delete(oldest);
      this.order[this.next] = key;
      this.stamps[this.next] = at;
      this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    }
    this.map.set(key, value);
  }

  /** Forgets the keys set before `at`, oldest first. */
  forgetBefore(at: number): void {
    // Occupied slots are contiguous and end just before `next`: keys leave only from the old end.
    let slot = (this.next - this.map.size + this.capacity) % this.capacity;
    while (this.map.size > 0 && this.stamps[slot]! < at) {
      this.map.delete(this.order[slot]!);
      this.order[slot] = undefined;
      slot = slot + 1 === this.capacity ? 0 : slot + 1;
    }
  }

  /** The keys, oldest first. */
  *keys(): IterableIterator<K> {
    for (let i = 0; i < this.capacity; i++) {
      const key = this.order[(this.next + i) % this.capacity];
      if (key !== undefined) yield key;
    }
  }
}

/** `RecentMap` of keys alone. */
export class RecentSet<K> {
  private readonly keysMap: RecentMap<K, true>;

  constructor(capacity: number) {
    this.keysMap = new RecentMap(capacity);
  }

  get size(): number {
    return this.keysMap.size;
  }

  has(key: K): boolean {
    return this.keysMap.has(key);
  }

  add(key: K): void {
    this.keysMap.set(key, true);
  }

  /** The keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.keysMap.keys();
  }
}
