import type { Principal } from '../auth/principal.ts';
import type { Sessions } from '../auth/sessions.ts';
import type { FieldError } from '../errors.ts';
import { uws, type HttpRequest, type HttpResponse, type TemplatedApp, type WebSocket } from '../uws.ts';
import { authenticatedUpgrade, type UpgradeDeps } from './upgrade.ts';
import { findChannel, MAX_SUBSCRIPTIONS_PER_CONNECTION } from './channels.ts';

export interface StreamUser {
  principal: Principal;
  connectionId: string;
  /** channel name -> its topic and interest counter index (-1: none) */
  subscriptions: Map<string, { topic: string; interest: number; also?: string }>;
  /** Unregisters the connection from the sessions of its credential. */
  forget: () => void;
}

export interface StreamDeps extends UpgradeDeps {
  /** Shared subscriber counters read by publishing actors (see actors/market/interest.ts). */
  interest?: Int32Array;
  /** Open sessions by credential: a connection closes (4401) when its key is revoked or its JWT expires. */
  sessions?: Sessions;
}

/** Slow consumers are cut off here rather than buffered without bound. */
export const MAX_BACKPRESSURE_BYTES = 1 << 20;
const MAX_INBOUND_MESSAGE_BYTES = 64 * 1024;

/**
 * The unified WebSocket `/v1/stream`. Authentication happens at the upgrade, with a single-use
 * ticket (`?ticket=`) or a bearer header; after that the client sends
 * `{"subscribe": [...]}` / `{"unsubscribe": [...]}` and gets an ack per call and an error frame
 * per unknown channel.
 */
export class StreamServer {
  private readonly sockets = new Set<WebSocket<StreamUser>>();
  private nextId = 0;

  constructor(private readonly deps: StreamDeps) {}

  get connectionCount(): number {
    return this.sockets.size;
  }

  closeAll(): void {
    for (const ws of [...this.sockets]) ws.end(1001, 'server shutting down');
  }

  attach(app: TemplatedApp): void {
    app.ws<StreamUser>('/v1/stream', {
      compression: uws.DISABLED,
      maxPayloadLength: MAX_INBOUND_MESSAGE_BYTES,
      maxBackpressure: MAX_BACKPRESSURE_BYTES,
      closeOnBackpressureLimit: 1,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => this.upgrade(res, req, context),
      open: (ws) => {
        this.sockets.add(ws);
        const user = ws.getUserData();
        if (this.deps.sessions !== undefined) user.forget = this.deps.sessions.open(user.principal, (why) => ws.end(why.code, why.reason));
      },
      message: (ws, message) => this.onMessage(ws, message),
      close: (ws) => {
        this.sockets.delete(ws);
        ws.getUserData().forget();
        for (const sub of ws.getUserData().subscriptions.values()) this.release(sub.interest);
      },
    });
  }

  private upgrade(res: HttpResponse, req: HttpRequest, context: unknown): void {
    authenticatedUpgrade(this.deps, res, req, context, () => `ws_${(this.nextId++).toString(36)}`, (principal): StreamUser => ({
      principal,
      connectionId: `conn_${(this.nextId++).toString(36)}`,
      subscriptions: new Map(),
      forget: () => {},
    }));
  }

  private onMessage(ws: WebSocket<StreamUser>, message: ArrayBuffer): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(message).toString('utf8'));
    } catch {
      this.sendError(ws, 'VALIDATION_ERROR', 'malformed JSON message', [{ field: 'message', message: 'not JSON' }]);
      return;
    }
    const body = parsed as { subscribe?: unknown; unsubscribe?: unknown };
    if (typeof parsed !== 'object' || parsed === null || (body.subscribe === undefined && body.unsubscribe === undefined)) {
      this.sendError(ws, 'VALIDATION_ERROR', 'expected {"subscribe": [...]} or {"unsubscribe": [...]}', [
        { field: 'message', message: 'needs a subscribe or unsubscribe array' },
      ]);
      return;
    }
    if (body.subscribe !== undefined) this.subscribe(ws, body.subscribe);
    if (body.unsubscribe !== undefined) this.unsubscribe(ws, body.unsubscribe);
  }

  private subscribe(ws: WebSocket<StreamUser>, channels: unknown): void {
    const list = this.channelList(ws, 'subscribe', channels);
    if (list === undefined) return;
    const user = ws.getUserData();
    const accepted: string[] = [];
    const unknown: FieldError[] = [];
    list.forEach((channel, i) => {
      const spec = findChannel(channel);
      if (spec === undefined) {
        unknown.push({ field: `subscribe[${i}]`, message: `unknown channel ${JSON.stringify(channel)}` });
        return;
      }
      if (!user.subscriptions.has(channel)) {
        if (user.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          unknown.push({ field: `subscribe[${i}]`, message: `at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions` });
          return;
        }
        const topic = spec.topic(channel, user.principal);
        const interest = spec.interest?.(channel, user.principal) ?? -1;
        user.subscriptions.set(channel, spec.alsoTopic === undefined ? { topic, interest } : { topic, interest, also: spec.alsoTopic });
        ws.subscribe(topic);
        if (spec.alsoTopic !== undefined) ws.subscribe(spec.alsoTopic);
        if (interest >= 0 && this.deps.interest !== undefined) Atomics.add(this.deps.interest, interest, 1);
      }
      accepted.push(channel);
    });
    if (accepted.length > 0) ws.send(JSON.stringify({ type: 'subscribed', channels: accepted }));
    if (unknown.length > 0) this.sendError(ws, 'UNKNOWN_CHANNEL', 'unknown channel', unknown);
  }

  private unsubscribe(ws: WebSocket<StreamUser>, channels: unknown): void {
    const list = this.channelList(ws, 'unsubscribe', channels);
    if (list === undefined) return;
    const user = ws.getUserData();
    for (const channel of list) {
      const sub = user.subscriptions.get(channel);
      if (sub === undefined) continue;
      user.subscriptions.delete(channel);
      ws.unsubscribe(sub.topic);
      if (sub.also !== undefined) ws.unsubscribe(sub.also);
      this.release(sub.interest);
    }
    ws.send(JSON.stringify({ type: 'unsubscribed', channels: list }));
  }

  private channelList(ws: WebSocket<StreamUser>, field: string, value: unknown): string[] | undefined {
    if (!Array.isArray(value) || !value.every((c) => typeof c === 'string' && c.length > 0 && c.length <= 256)) {
      this.sendError(ws, 'VALIDATION_ERROR', `${field} must be an array of channel names`, [
        { field, message: 'must be an array of non-empty strings' },
      ]);
      return undefined;
    }
    return value as string[];
  }

  private release(interest: number): void {
    if (interest >= 0 && this.deps.interest !== undefined) Atomics.sub(this.deps.interest, interest, 1);
  }

  private sendError(ws: WebSocket<StreamUser>, code: string, message: string, details: FieldError[]): void {
    ws.send(JSON.stringify({ type: 'error', error: { code, message, request_id: ws.getUserData().connectionId, details } }));
  }
}
