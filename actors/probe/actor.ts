import type { Actor, ActorContext } from '../../engine/actor.ts';
import type { ProbeMessage, ProbeState } from './messages.ts';

export function probeActor(key: string): Actor<ProbeMessage> {
  const state: ProbeState = { key, total: 0, messages: 0 };
  return {
    onMessage(message: ProbeMessage, ctx: ActorContext): unknown {
      state.messages++;
      switch (message.t) {
        case 'Echo':
          return message.payload;
        case 'Add':
          state.total += message.n;
          return state.total;
        case 'Get':
          return { total: state.total, messages: state.messages, restarts: ctx.restarts, thread: ctx.thread };
        case 'EchoLater':
          return new Promise((resolve) => ctx.schedule(message.delay_ms, () => resolve(message.payload)));
        case 'AskPeer':
          return ctx.ask(message.peer, message.message, message.timeout_ms);
        case 'Publish':
          return ctx.publish(message.topic, message.payload);
        case 'Throw':
          throw new Error(message.message);
        case 'ExitThread':
          if (message.after_ms !== undefined) stall(message.after_ms);
          process.exit(message.code);
        case 'Stall':
          stall(message.ms);
          return message.ms;
      }
    },
  };
}

/** Blocks this thread without spinning: a wait on memory nobody notifies. */
function stall(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
