import type { Actor } from '../../engine/actor.ts';
import type { RouterAnswer, SubmitJsonAnswer } from './messages.ts';

/** The gateway-hosted actor a router tells an answer the journal did not carry (a replay, a refusal). */
export const REPLY_ACTOR = 'reply:0';

/** What a router tells REPLY_ACTOR. */
export interface ReplyMessage {
  token: number;
  answer: RouterAnswer<SubmitJsonAnswer>;
}

interface Waiting {
  resolve(answer: RouterAnswer<SubmitJsonAnswer>): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * HTTP answers awaited on the gateway thread by token. A new order's 201 is given by the
 * journal stage from the write set that made the order durable (the router put it there), so
 * the answer leaves the moment the commit does, without a message back through the router;
 * anything else (a replay's 200, a refusal, a failure) the router tells REPLY_ACTOR. The first
 * answer for a token wins; later ones (a failed commit seen by both) are dropped.
 */
export class PendingReplies {
  private readonly waiting = new Map<number, Waiting>();
  private next = 1;

  open(timeoutMs: number): { token: number; answer: Promise<RouterAnswer<SubmitJsonAnswer>> } {
    const token = this.next++;
    if (this.next > Number.MAX_SAFE_INTEGER) this.next = 1;
    const answer = new Promise<RouterAnswer<SubmitJsonAnswer>>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.waiting.delete(token)) reject(new Error(`no answer for order request ${token} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(token, { resolve, reject, timer });
    });
    return { token, answer };
  }

  settle(token: number, answer: RouterAnswer<SubmitJsonAnswer> | Error): void {
    const waiting = this.waiting.get(token);
    if (waiting === undefined) return;
    this.waiting.delete(token);
    clearTimeout(waiting.timer);
    if (answer instanceof Error) waiting.reject(answer);
    else waiting.resolve(answer);
  }

  /** REPLY_ACTOR's factory (TopologyOptions.gatewayActors). */
  actor(): () => Actor<ReplyMessage> {
    return () => ({
      onMessage: (m: ReplyMessage) => {
        this.settle(m.token, m.answer);
      },
    });
  }
}
