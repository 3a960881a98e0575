/**
 * Internal topics: what actors publish to the gateway thread that is not a WebSocket channel
 * (trade batches for the tape, order events, router announcements). A topic is defined once,
 * beside its publisher, with the payload it carries, so the publisher and the one subscriber
 * agree on the type; the name starts with `$`, which no client channel does.
 */
export interface Topic<P> {
  readonly name: `$${string}`;
  /** Type only: the payload this topic carries. */
  readonly _payload?: P;
}

export function topic<P>(name: `$${string}`): Topic<P> {
  return { name };
}

/** Publishes on an internal topic (ActorContext.publish with the payload's type checked). */
export function publishOn<P>(publisher: { publish(topic: string, payload: unknown): boolean }, t: Topic<P>, payload: P): boolean {
  return publisher.publish(t.name, payload);
}

/**
 * The gateway thread's side: each internal topic to its handler, every other name (a client
 * channel such as `prices:BTC-USDT`) to the fan-out.
 */
export class TopicDispatch {
  private readonly handlers = new Map<string, (payload: unknown) => void>();
  private channels: (channel: string, payload: unknown) => void = () => {};

  on<P>(t: Topic<P>, handler: (payload: P) => void): this {
    if (this.handlers.has(t.name)) throw new Error(`topic ${t.name} has a handler already`);
    this.handlers.set(t.name, handler as (payload: unknown) => void);
    return this;
  }

  /** Everything that is not an internal topic: a client channel's data. */
  otherwise(handler: (channel: string, payload: unknown) => void): this {
    this.channels = handler;
    return this;
  }

  readonly handle = (name: string, payload: unknown): void => {
    const handler = this.handlers.get(name);
    if (handler !== undefined) handler(payload);
    else this.channels(name, payload);
  };
}
