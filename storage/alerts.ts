import type { Mode } from '../domain/orders.ts';
import type { Databases } from './database.ts';

/**
 * User-defined alerts and their firings, per (client, mode):
 *
 *   alerts:       [client_id, mode, alert_id] -> the alert (execution/alerts/types.ts AlertRecord)
 *   alert_events: [client_id, mode, seq]      -> one firing, seq counting from 1 per client and mode
 *
 * Written by the gateway thread (execution/alerts/). A firing and its alert's new state are put
 * in the same event turn (one transaction); the event is published once `durable()` resolves.
 * Only the last `keep` events of a client and mode are kept: seqs are contiguous, so each new
 * event deletes the one `keep` before it. Bigints are stored as decimal strings.
 */
export type StoredAlert = Record<string, unknown> & { alert_id: string; client_id: string; mode: Mode };
export type StoredAlertEvent = Record<string, unknown> & { seq: number };

export class AlertStore {
  constructor(private readonly db: Databases) {}

  all(): StoredAlert[] {
    return [...this.db.alerts.getRange()].map(({ value }) => value as StoredAlert);
  }

  list(client: string, mode: Mode): StoredAlert[] {
    return [...this.db.alerts.getRange({ start: [client, mode], end: [client, mode, '\uffff'] })].map(({ value }) => value as StoredAlert);
  }

  put(alert: StoredAlert): void {
    this.db.writes.watch(this.db.alerts.put([alert.client_id, alert.mode, alert.alert_id], alert));
  }

  remove(client: string, mode: Mode, alertId: string): void {
    this.db.writes.watch(this.db.alerts.remove([client, mode, alertId]));
  }

  putEvent(client: string, mode: Mode, event: StoredAlertEvent, keep: number): void {
    this.db.writes.watch(this.db.alertEvents.put([client, mode, event.seq], event));
    if (event.seq > keep) this.db.writes.watch(this.db.alertEvents.remove([client, mode, event.seq - keep]));
  }

  /** The highest seq written for a client and mode, 0 when none. */
  lastSeq(client: string, mode: Mode): number {
    for (const key of this.db.alertEvents.getKeys({ start: [client, mode, Number.MAX_SAFE_INTEGER], end: [client, mode, 0], reverse: true, limit: 1 })) return (key as [string, Mode, number])[2];
    return 0;
  }

  /** Events with seq > `after`, oldest first, at most `limit`. */
  eventsAfter(client: string, mode: Mode, after: number, limit: number): StoredAlertEvent[] {
    return [...this.db.alertEvents.getRange({ start: [client, mode, after + 1], end: [client, mode, Number.MAX_SAFE_INTEGER], limit })].map(({ value }) => value as StoredAlertEvent);
  }

  /** On disk; rejects when the transaction carrying the writes failed. */
  async durable(): Promise<void> {
    await Promise.all([this.db.writes.settled(), this.db.root.flushed]);
  }
}
