import type { WireReader, WireWriter } from './wire.ts';

/**
 * A message that crosses the rings as a fixed little-endian layout (engine/wire.ts) instead of
 * a msgpack envelope. The endpoint picks the layout by the destination's actor kind and the
 * message's tag, so senders and actors keep exchanging plain objects; only the bytes change.
 *
 * Frame of a message (type `type`):   u32 correlation (0: a tell) | str actor key | body
 * Frame of its answer (`type + 1`):   u32 correlation | answer body
 *
 * Without `answer`, the answer to an ask travels as a msgpack REPLY_OK, as do refusals and
 * failures (REPLY_ERR) always. Every thread must hold the same layouts (the registry module
 * exports them), so a frame type means the same layout everywhere.
 */
export interface MessageLayout<M extends { t: string } = { t: string }> {
  /** the actor kind (key prefix before ':') and the message tag this layout carries */
  readonly kind: string;
  readonly t: M['t'];
  /** frame type, in the orders range 100-199 (even: the answer takes `type + 1`) */
  readonly type: number;
  encode(message: M, w: WireWriter): void;
  decode(r: WireReader): M;
  readonly answer?: AnswerLayout;
}

export interface AnswerLayout<A = unknown> {
  encode(answer: A, w: WireWriter): void;
  decode(r: WireReader): A;
}

const MAX_CACHED_KEYS = 65_536;

/** The layouts by frame type and by (kind, tag), checked for clashes once at start. */
export class LayoutTable {
  private readonly byType = new Map<number, MessageLayout>();
  private readonly answerByType = new Map<number, MessageLayout>();
  private readonly byKind = new Map<string, Map<string, MessageLayout>>();
  /** Destination key -> its kind's layouts (keys repeat: an edge, a router). */
  private readonly byKey = new Map<string, Map<string, MessageLayout> | null>();

  constructor(layouts: readonly MessageLayout[]) {
    for (const layout of layouts) {
      if (layout.type % 2 !== 0) throw new RangeError(`layout ${layout.kind}/${layout.t}: frame type ${layout.type} must be even`);
      for (const type of [layout.type, layout.type + 1]) {
        if (this.byType.has(type) || this.answerByType.has(type)) throw new RangeError(`frame type ${type} has two layouts`);
      }
      this.byType.set(layout.type, layout);
      if (layout.answer !== undefined) this.answerByType.set(layout.type + 1, layout);
      let tags = this.byKind.get(layout.kind);
      if (tags === undefined) this.byKind.set(layout.kind, (tags = new Map()));
      if (tags.has(layout.t)) throw new RangeError(`two layouts for ${layout.kind}/${layout.t}`);
      tags.set(layout.t, layout);
    }
  }

  get empty(): boolean {
    return this.byType.size === 0;
  }

  /** The layout a message to `key` travels in, if it has one. */
  forMessage(key: string, message: unknown): MessageLayout | undefined {
    let tags = this.byKey.get(key);
    if (tags === undefined) {
      if (this.byKey.size >= MAX_CACHED_KEYS) this.byKey.clear();
      const colon = key.indexOf(':');
      tags = this.byKind.get(colon < 0 ? key : key.slice(0, colon)) ?? null;
      this.byKey.set(key, tags);
    }
    if (tags === null) return undefined;
    const t = (message as { t?: unknown } | null)?.t;
    return typeof t === 'string' ? tags.get(t) : undefined;
  }

  message(type: number): MessageLayout | undefined {
    return this.byType.get(type);
  }

  answer(type: number): MessageLayout | undefined {
    return this.answerByType.get(type);
  }
}
