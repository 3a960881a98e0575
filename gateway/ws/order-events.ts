import type { Mode } from '../../domain/orders.ts';
import type { Logger } from '../../engine/actor.ts';
import type { OrderEvent } from '../../execution/router/messages.ts';
import type { SseHub } from '../http/sse.ts';
import type { TemplatedApp } from '../uws.ts';
import { dataFrame, privateTopic } from './channels.ts';

/**
 * The routers' order events (ORDER_EVENTS_TOPIC), fanned out on the gateway thread: the private
 * WebSocket channels, the `tca` SSE stream, and a fresh risk read-out on the `risk` SSE stream
 * when an order finishes. Routers only build an event while someone listens (the private
 * interest counters), so one that arrives here usually has a reader.
 */
export class OrderEvents {
  constructor(
    private readonly app: TemplatedApp,
    private readonly streams: { tca: SseHub<{ node_order_id: string }>; risk: SseHub<Record<string, unknown>> },
    private readonly riskReadout: (client: string, mode: Mode) => Promise<Record<string, unknown>>,
    private readonly log: Logger,
  ) {}

  publish([channel, client, mode, data]: OrderEvent): void {
    const key = `${client}|${mode}`;
    if (channel === 'tca') this.streams.tca.publish(key, 'tca_report', data as { node_order_id: string });
    // A perp position crossing its liquidation price is a risk event (execution/funding-clock.ts).
    if (channel === 'margin') {
      this.streams.risk.publish(key, 'margin', data as Record<string, unknown>);
      return;
    }
    if (channel === 'orders' && this.streams.risk.has(key) && (data as { engine_phase?: string }).engine_phase === 'done') {
      this.riskReadout(client, mode).then(
        (readout) => this.streams.risk.publish(key, 'risk', readout),
        (err: unknown) => this.log.warn({ client_id: client, mode, err }, 'risk read-out not published'),
      );
    }
    const topic = privateTopic(channel, { client_id: client, mode });
    if (this.app.numSubscribers(topic) > 0) this.app.publish(topic, dataFrame(channel, data));
  }
}
