import type { PositionsView } from '../ledger/ledger.ts';
import type { SandboxWireRow } from '../sandbox.ts';
import type { PositionsPage } from './messages.ts';

/**
 * What a router keeps between the messages of one multi-part exchange, because a ring frame holds
 * at most half a ring (512 KiB by default) and a sandbox account may hold 20,000 positions:
 * positions views being read page by page, and a sandbox write's staged rows. Both bounded in
 * number and age: an exchange whose sender went away is forgotten, never kept.
 */

/** Rows per page of the positions view: ~300 bytes of msgpack each, up to ~700 with long event-contract names. */
export const POSITIONS_PAGE_ROWS = 400;
/** Exchanges kept per router at most, the oldest forgotten first. */
const MAX_KEPT = 8;
/** A kept exchange is forgotten after this long without its next message. */
const KEPT_MS = 30_000;

class Kept<T> {
  private readonly entries = new Map<number, { value: T; at: number }>();

  put(id: number, value: T, now: number): void {
    this.forget(now);
    this.entries.delete(id);
    this.entries.set(id, { value, at: now });
    while (this.entries.size > MAX_KEPT) this.entries.delete(this.entries.keys().next().value!);
  }

  get(id: number, now: number): T | undefined {
    this.forget(now);
    return this.entries.get(id)?.value;
  }

  delete(id: number): void {
    this.entries.delete(id);
  }

  private forget(now: number): void {
    for (const [id, e] of this.entries) if (now - e.at > KEPT_MS) this.entries.delete(id);
  }
}

/** Positions views read page by page: the first page computes the view, the next ones read that same view. */
export class PositionPages {
  private readonly views = new Kept<PositionsView>();
  private nextRead = 1;

  /** The first page (`page` undefined: `compute` runs) or the next one of a kept view; throws when that view was forgotten. */
  page(page: { read: number; from: number } | undefined, compute: () => PositionsView, now = Date.now()): PositionsPage {
    let view: PositionsView | undefined;
    let read: number;
    let from = 0;
    if (page === undefined) {
      view = compute();
      read = this.nextRead++;
      if (view.positions.length > POSITIONS_PAGE_ROWS) this.views.put(read, view, now);
    } else {
      ({ read, from } = page);
      view = this.views.get(read, now);
      if (view === undefined) throw new Error(`positions read ${read} expired; ask again from the first page`);
    }
    const to = from + POSITIONS_PAGE_ROWS;
    const last = to >= view.positions.length;
    if (last) this.views.delete(read);
    else this.views.put(read, view, now);
    return { positions: view.positions.slice(from, to), totals: view.totals, next: last ? null : { read, from: to } };
  }
}

/** A sandbox write's rows staged part by part until its last message applies them all. */
export class SandboxUploads {
  private readonly uploads = new Kept<SandboxWireRow[]>();

  stage(upload: number, rows: readonly SandboxWireRow[], now = Date.now()): void {
    const staged = this.uploads.get(upload, now) ?? [];
    for (const r of rows) staged.push(r);
    this.uploads.put(upload, staged, now);
  }

  /** The staged rows (removed), or undefined when the upload is unknown or was forgotten. */
  take(upload: number, now = Date.now()): SandboxWireRow[] | undefined {
    const staged = this.uploads.get(upload, now);
    this.uploads.delete(upload);
    return staged;
  }
}
