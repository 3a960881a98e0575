import type { Principal } from './principal.ts';
import type { TicketStore } from './tickets.ts';

/**
 * How a long-lived session (a WebSocket, an SSE response) is ended when its credential is:
 * WebSocket close code 4401 with the reason, or a last SSE `end` event with both.
 */
export const SESSION_ENDED = {
  revoked: { code: 4401, reason: 'api key revoked' },
  expired: { code: 4401, reason: 'token expired' },
} as const;

export type SessionEnd = (typeof SESSION_ENDED)[keyof typeof SESSION_ENDED];

/** How often open sessions' keys are re-read, for keys deactivated by another process (the admin CLI). */
const RECHECK_MS = 2_000;

interface Session {
  readonly principal: Principal;
  readonly end: (why: SessionEnd) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The gateway's open sessions by the credential that opened them, so a session ends when its
 * credential does: deleting or rotating an API key ends its WebSockets and SSE streams and
 * voids its unredeemed tickets at once; a JWT session ends at the token's `exp`. A request is
 * authenticated on every call; a session only at its start, hence this registry.
 */
export class Sessions {
  private readonly byKey = new Map<string, Set<Session>>();
  private readonly recheck: NodeJS.Timeout;

  constructor(
    private readonly tickets: TicketStore,
    /** Whether the API key `key_id` of `client_id` is still active (an LMDB read). */
    private readonly keyActive: (clientId: string, keyId: string) => boolean,
  ) {
    this.recheck = setInterval(() => this.recheckKeys(), RECHECK_MS);
    this.recheck.unref();
  }

  /** Registers a session that has just opened; returns what its close must call. */
  open(principal: Principal, end: (why: SessionEnd) => void, nowMs = Date.now()): () => void {
    const session: Session = { principal, end, timer: undefined };
    const keyId = principal.key_id;
    if (keyId !== null) {
      let set = this.byKey.get(keyId);
      if (set === undefined) this.byKey.set(keyId, (set = new Set()));
      set.add(session);
    }
    if (principal.expires_at_ms !== null) {
      // Node timers cap at 2^31-1 ms; a JWT lives at most AUTH_JWT_MAX_LIFETIME_S (31 days at most).
      const delay = Math.min(Math.max(0, principal.expires_at_ms - nowMs), 2 ** 31 - 1);
      session.timer = setTimeout(() => session.end(SESSION_ENDED.expired), delay);
      session.timer.unref();
    }
    return () => this.forget(session);
  }

  /** The key was deleted or rotated: its tickets are void and its sessions end now. Returns how many ended. */
  revokeKey(keyId: string): number {
    this.tickets.revokeKey(keyId);
    const set = this.byKey.get(keyId);
    if (set === undefined) return 0;
    this.byKey.delete(keyId);
    for (const session of set) {
      if (session.timer !== undefined) clearTimeout(session.timer);
      session.end(SESSION_ENDED.revoked);
    }
    return set.size;
  }

  get openCount(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }

  close(): void {
    clearInterval(this.recheck);
  }

  private forget(session: Session): void {
    if (session.timer !== undefined) clearTimeout(session.timer);
    const keyId = session.principal.key_id;
    if (keyId === null) return;
    const set = this.byKey.get(keyId);
    if (set === undefined) return;
    set.delete(session);
    if (set.size === 0) this.byKey.delete(keyId);
  }

  private recheckKeys(): void {
    for (const [keyId, set] of [...this.byKey]) {
      const first = set.values().next().value;
      if (first !== undefined && !this.keyActive(first.principal.client_id, keyId)) this.revokeKey(keyId);
    }
  }
}
