/**
 * Frame type codes carried in the ring's frame header, grouped by range so a glance at a code
 * tells the subsystem. Envelope frames (1-99) carry a msgpack body; later ranges are reserved
 * for fixed binary layouts of the hottest messages, which skip msgpack entirely.
 */
export const FrameType = {
  // 1-99: runtime envelopes (msgpack bodies)
  TELL: 1, // [to, message]
  ASK: 2, // [to, correlationId, message]
  REPLY_OK: 3, // [correlationId, value]
  REPLY_ERR: 4, // [correlationId, {code, message}]
  PUBLISH: 5, // [topic, payload]
  START_ACTOR: 6, // [key]
  // 100-199: orders and execution (fixed layouts, execution issue)
  // 200-299: market data: book deltas, trades (fixed layouts, market-data issue)
  // 300-399: storage and journaling (execution/journal: JOURNAL_WRITE, JOURNAL_ACK)
} as const;

/** Frames of this type and above are binary: their payload is handed over as bytes (Endpoint.onBinary). */
export const FIRST_BINARY_FRAME_TYPE = 100;

export type FrameTypeCode = (typeof FrameType)[keyof typeof FrameType];

/** Error codes a runtime reply can carry; gateway maps them onto HTTP statuses. */
export const RuntimeErrorCode = {
  TIMEOUT: 'ACTOR_TIMEOUT',
  BACKPRESSURE: 'BACKPRESSURE',
  WORKER_DIED: 'WORKER_DIED',
  ACTOR_FAILED: 'ACTOR_FAILED',
  NO_SUCH_ACTOR_KIND: 'NO_SUCH_ACTOR_KIND',
  STOPPING: 'STOPPING',
} as const;

export class RuntimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RuntimeError';
  }
}
