import { Type, type Static } from 'typebox';
import type { Mode } from '../../domain/orders.ts';
import { FAIR_ACTOR, type FairMessage } from '../../actors/fair-price/messages.ts';
import { EDGES } from '../../domain/venues.ts';
import { checkAlertRequest } from '../../execution/alerts/conditions.ts';
import { alertIdentity, MAX_ALERTS_PER_OWNER, MAX_EVENTS_PER_OWNER, type AlertEvent, type AlertRecord } from '../../execution/alerts/types.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { exactNumbers, numberTextAt } from '../http/exact-json.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { AlertEventListSchema, AlertEventsQuery, AlertListSchema, AlertSchema, AlertStreamQuery, CreateAlertReqSchema } from '../schemas/alerts.ts';
import { AlertStreamEventSchema } from '../schemas/streams.ts';

const tags = ['alerts'];
const AlertIdParam = Type.Object({ alert_id: Type.String({ minLength: 1, maxLength: 64 }) });
const iso = (ms: number) => new Date(ms).toISOString();

/** An alert as a client reads it. */
export function alertRecordView(a: AlertRecord) {
  return {
    ...alertIdentity(a),
    once: a.once,
    label: a.label,
    status: a.status,
    armed: a.armed,
    fired_count: a.fired_count,
    created_at: iso(a.created_at_ms),
    last_fired_at: a.last_fired_at_ms === null ? null : iso(a.last_fired_at_ms),
    is_sandbox: a.mode === 'sandbox',
  };
}

/** A firing as a client reads it (list, stream). */
export function alertView(e: AlertEvent, mode: Mode) {
  const { seq, fired_at_ms, ...rest } = e;
  return { event_id: String(seq), ...rest, fired_at: iso(fired_at_ms), is_sandbox: mode === 'sandbox' };
}

export function alertRoutes(ctx: GatewayContext): RouteSpec[] {
  const book = ctx.alerts;
  return [
    {
      method: 'post',
      path: '/v1/alerts',
      operationId: 'createAlert',
      summary: 'Create an alert: a price, spread, basis or PnL level, a fill, a rejected order, or a stale edge',
      description: `An extension of the spec, which streams alerts (\`/v1/alerts/stream\`) without showing how they are made. At most ${MAX_ALERTS_PER_OWNER} alerts per client and mode. A level condition already true when the alert is made fires at once.`,
      tags,
      auth: 'bearer',
      body: CreateAlertReqSchema,
      responses: {
        201: { description: 'The alert, durable', schema: AlertSchema },
        409: { description: `ALERT_LIMIT: already ${MAX_ALERTS_PER_OWNER} alerts in this mode` },
      },
      handler: async (req) => {
        const p = principalOf(req);
        const body = req.body as Static<typeof CreateAlertReqSchema>;
        const underlyings = body.underlying === undefined ? [] : await ctx.topology.endpoint.ask<string[]>(FAIR_ACTOR, { t: 'List' } satisfies FairMessage, 2_000);
        const text = req.bodyText === undefined ? undefined : numberTextAt(exactNumbers(req.bodyText), ['threshold']);
        const spec = checkAlertRequest(
          body,
          {
            isSymbol: (s) => ctx.market.quotes.resolve(s) !== undefined,
            isUnderlying: (u) => underlyings.includes(u),
            isEdge: (e) => EDGES.some((x) => x.edge_id === e),
          },
          text,
        );
        if (Array.isArray(spec)) throw Errors.validation(spec);
        const record = await book.create(p.client_id, p.mode, spec);
        if (record === undefined) throw Errors.conflict('ALERT_LIMIT', `at most ${MAX_ALERTS_PER_OWNER} alerts per client and mode: delete one first`);
        return { status: 201, body: alertRecordView(record) };
      },
    },
    {
      method: 'get',
      path: '/v1/alerts',
      operationId: 'listAlerts',
      summary: 'Your alerts in this mode, oldest first',
      tags,
      auth: 'bearer',
      responses: { 200: { description: 'Alerts', schema: AlertListSchema } },
      handler: (req) => {
        const p = principalOf(req);
        return { status: 200, body: { alerts: book.list(p.client_id, p.mode).map(alertRecordView) } };
      },
    },
    {
      method: 'get',
      path: '/v1/alerts/events',
      operationId: 'listAlertEvents',
      summary: `Your alerts' firings in this mode, oldest first (the last ${MAX_EVENTS_PER_OWNER} are kept)`,
      tags,
      auth: 'bearer',
      query: AlertEventsQuery,
      responses: { 200: { description: 'Firings', schema: AlertEventListSchema } },
      handler: (req) => {
        const p = principalOf(req);
        const q = req.query as Static<typeof AlertEventsQuery>;
        const limit = q.limit ?? 100;
        let after = q.after === undefined ? 0 : Number(q.after);
        const events: ReturnType<typeof alertView>[] = [];
        // Filtered by alert: read on in pages until the page is full or the log ends.
        for (;;) {
          const page = book.events(p.client_id, p.mode, after, limit);
          for (const e of page) {
            after = e.seq;
            if (q.alert_id === undefined || e.alert_id === q.alert_id) events.push(alertView(e, p.mode));
            if (events.length === limit) break;
          }
          if (events.length === limit || page.length < limit) break;
        }
        const more = events.length === limit && book.events(p.client_id, p.mode, after, 1).length > 0;
        return { status: 200, body: { events, next_after: more ? String(after) : null } };
      },
    },
    {
      method: 'get',
      path: '/v1/alerts/stream',
      operationId: 'streamAlerts',
      summary: 'Server-sent events: `alert` on each firing, resumable with Last-Event-ID; filter with edge_id, node_order_id, alert_id',
      tags,
      auth: 'bearer',
      resumable: true,
      query: AlertStreamQuery,
      responses: { 200: { description: 'A stream of `alert` events', schema: AlertStreamEventSchema } },
      handler: (req) => {
        const p = principalOf(req);
        const q = req.query as Static<typeof AlertStreamQuery>;
        const resume = req.lastEventId ?? q.last_event_id;
        if (resume !== undefined && !/^[0-9]{1,15}$/.test(resume)) throw Errors.validation([{ field: 'Last-Event-ID', message: 'an event_id: digits' }]);
        const wanted = (e: AlertEvent) =>
          (q.edge_id === undefined || e.edge_id === q.edge_id) && (q.node_order_id === undefined || e.node_order_id === q.node_order_id) && (q.alert_id === undefined || e.alert_id === q.alert_id);
        return {
          status: 200,
          body: undefined,
          sse: (sink) => {
            // The highest event id sent: an event replayed from LMDB is not sent again when its
            // publication (after its commit was on disk) reaches this stream too.
            let sent = 0;
            const send = (e: AlertEvent) => {
              sent = e.seq;
              sink.send('alert', alertView(e, p.mode), String(e.seq));
            };
            if (resume !== undefined) {
              sent = Number(resume);
              for (let page = book.events(p.client_id, p.mode, sent, 500); page.length > 0; page = book.events(p.client_id, p.mode, sent, 500)) {
                for (const e of page) {
                  if (wanted(e)) send(e);
                  else sent = e.seq;
                }
              }
            }
            return ctx.streams.alerts.subscribe(`${p.client_id}|${p.mode}`, { send: (_event, data) => send(data as AlertEvent) }, (e) => e.seq > sent && wanted(e));
          },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/alerts/{alert_id}',
      operationId: 'getAlert',
      summary: 'One of your alerts',
      tags,
      auth: 'bearer',
      params: AlertIdParam,
      responses: { 200: { description: 'The alert', schema: AlertSchema }, 404: { description: 'No such alert in this mode' } },
      handler: (req) => {
        const p = principalOf(req);
        const a = book.get(p.client_id, p.mode, req.params['alert_id']!);
        if (a === undefined) throw Errors.notFound('no such alert');
        return { status: 200, body: alertRecordView(a) };
      },
    },
    {
      method: 'delete',
      path: '/v1/alerts/{alert_id}',
      operationId: 'deleteAlert',
      summary: 'Delete an alert (its past firings stay listed)',
      tags,
      auth: 'bearer',
      params: AlertIdParam,
      responses: { 200: { description: 'The alert as it was', schema: AlertSchema }, 404: { description: 'No such alert in this mode' } },
      handler: async (req) => {
        const p = principalOf(req);
        const a = await book.remove(p.client_id, p.mode, req.params['alert_id']!);
        if (a === undefined) throw Errors.notFound('no such alert');
        return { status: 200, body: alertRecordView(a) };
      },
    },
  ];
}
