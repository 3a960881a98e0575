/**
 * The NATS names the regions share (docs/regions.md): subjects, streams and key-value buckets.
 * Pure, so every node derives the same names and tests can check them without a server.
 *
 * A subject token may not hold `.`, `*`, `>` or whitespace, and symbols do (`KXCPI-26DEC-T3.0:YES`),
 * so a symbol or venue goes into a subject percent-encoded over exactly those bytes and `%`
 * itself: injective, and readable for the symbols that need nothing (`BTC-USDT`).
 */

const PREFIX = 'seq';

/** A string as one subject token; `subjectToken(decodeToken(t)) === t` and distinct strings stay distinct. */
export function subjectToken(text: string): string {
  if (text === '') throw new Error('a subject token cannot be empty');
  // NATS splits and matches on `.`, `*`, `>` and ASCII whitespace only; each is one byte below 0x80.
  return text.replace(/[%.*> \t\r\n\f\v]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function decodeToken(token: string): string {
  return token.replace(/%([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** An edge's status (connected, symbols, data age), published by the node that runs it. */
export const edgeStatusSubject = (region: string, edgeId: string): string => `${PREFIX}.edge.${subjectToken(region)}.${subjectToken(edgeId)}.status`;

/** One edge's statuses from whichever region runs it. */
export const anyRegionEdgeStatusSubject = (edgeId: string): string => `${PREFIX}.edge.*.${subjectToken(edgeId)}.status`;

/**
 * An edge's book updates for one symbol, from the node that runs the edge. By edge, not venue:
 * a venue's spot and perpetual books share the canonical symbol (`BTC-USDT`).
 */
export const bookSubject = (edgeId: string, symbol: string): string => `${PREFIX}.book.${subjectToken(edgeId)}.${subjectToken(symbol)}`;

/** Every book update of an edge: what a consolidating node subscribes to. */
export const edgeBooksSubject = (edgeId: string): string => `${PREFIX}.book.${subjectToken(edgeId)}.>`;

/** Request/reply: the book of one of the edge's symbols now, at its delta number (the payload names the symbol). */
export const bookSnapshotSubject = (edgeId: string): string => `${PREFIX}.booksnap.${subjectToken(edgeId)}`;

/** Request/reply: a node answers at once, so another measures the round trip to its region. */
export const pingSubject = (region: string): string => `${PREFIX}.ping.${subjectToken(region)}`;

/** A child order for a venue's edge, by request/reply to the node that runs it. */
export const childOrderSubject = (region: string, edgeId: string): string => `${PREFIX}.child.${subjectToken(region)}.${subjectToken(edgeId)}`;

/** A node says every second that it is alive: a global listing names the regions it could not reach. */
export const nodeSubject = (region: string): string => `${PREFIX}.node.${subjectToken(region)}`;
export const anyNodeSubject = (): string => `${PREFIX}.node.*`;

/** Order and fill events of orders homed in `region`, replicated for the global reads. */
export const orderEventSubject = (region: string, kind: 'order' | 'fill'): string => `${PREFIX}.orders.${subjectToken(region)}.${kind}`;

/** Prediction lifecycle events, one stream for every region: the venue event id is the message id. */
export const lifecycleSubject = (kind: 'new_markets' | 'market_resolved'): string => `${PREFIX}.lifecycle.${kind}`;

export interface StreamDefinition {
  name: string;
  subjects: string[];
  /** how long a message id is remembered to drop a second copy (ns, as JetStream counts) */
  duplicate_window_ns: number;
  /** the most messages kept; the oldest go first */
  max_msgs: number;
}

const MINUTE_NS = 60_000_000_000;

/**
 * `new_markets` and `market_resolved` from every region: a market several regions observe is
 * stored once because each copy carries the venue's event id as its message id, and a region
 * observes an event within minutes of another (its catalog poll); the last-128 replay reads it.
 */
export const LIFECYCLE_STREAM: StreamDefinition = { name: 'SEQ_LIFECYCLE', subjects: [`${PREFIX}.lifecycle.>`], duplicate_window_ns: 10 * MINUTE_NS, max_msgs: 100_000 };

/** Order and fill events of every region, for the global order reads; the message id is the event's own. */
export const ORDERS_STREAM: StreamDefinition = { name: 'SEQ_ORDERS', subjects: [`${PREFIX}.orders.>`], duplicate_window_ns: 2 * MINUTE_NS, max_msgs: 10_000_000 };

/** Records every region needs (client records, API key hashes, sealed venue credentials), replicated. */
export const KV_BUCKETS = { clients: 'seq_clients', apiKeys: 'seq_api_keys', credentials: 'seq_credentials' } as const;

/** Request/reply: a cancel or an activation of an order homed in `region`, asked by the node the client called. */
export const orderCommandSubject = (region: string): string => `${PREFIX}.command.${subjectToken(region)}`;
