import { randomBase62 } from '../../storage/random.ts';
import type { Principal } from './principal.ts';

export const TICKET_TTL_MS = 30_000;
const MAX_TICKETS = 100_000;

interface Ticket {
  principal: Principal;
  expiresAtMs: number;
}

/**
 * Short-lived, single-use WebSocket tickets, so long-lived keys never sit in URLs (spec,
 * Authentication 6). In memory on the gateway thread: a ticket is worth 30 seconds, so losing
 * them on restart costs a client one more `GET /v1/ws/ticket`.
 */
export class TicketStore {
  private readonly tickets = new Map<string, Ticket>();

  private issued = 0;

  issue(principal: Principal, nowMs: number): { ticket: string; expiresAtMs: number } {
    // Unredeemed tickets expire in 30 s; swept every 1,000 issues so they never pile up towards the cap.
    if (this.tickets.size >= MAX_TICKETS || ++this.issued % 1_000 === 0) this.sweep(nowMs);
    const ticket = `wst_${randomBase62(32)}`;
    const expiresAtMs = nowMs + TICKET_TTL_MS;
    this.tickets.set(ticket, { principal, expiresAtMs });
    return { ticket, expiresAtMs };
  }

  /** Returns the principal and forgets the ticket; undefined when unknown, used or expired (or its JWT has). */
  redeem(ticket: string, nowMs: number): Principal | undefined {
    const entry = this.tickets.get(ticket);
    if (entry === undefined) return undefined;
    this.tickets.delete(ticket);
    const credentialExpiry = entry.principal.expires_at_ms ?? Infinity;
    return entry.expiresAtMs > nowMs && credentialExpiry > nowMs ? entry.principal : undefined;
  }

  /** Voids every unredeemed ticket minted with API key `keyId` (deleted or rotated). */
  revokeKey(keyId: string): void {
    for (const [ticket, entry] of this.tickets) if (entry.principal.key_id === keyId) this.tickets.delete(ticket);
  }

  sweep(nowMs: number): void {
    for (const [ticket, entry] of this.tickets) if (entry.expiresAtMs <= nowMs) this.tickets.delete(ticket);
    // Still full of live tickets: drop the oldest (Map keeps insertion order).
    for (const ticket of this.tickets.keys()) {
      if (this.tickets.size < MAX_TICKETS) break;
      this.tickets.delete(ticket);
    }
  }

  get size(): number {
    return this.tickets.size;
  }
}
