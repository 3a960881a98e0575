import { Type, type TSchema } from 'typebox';

/**
 * How a response's schema is carried, for the OpenAPI document (gateway/openapi.ts). A plain
 * schema is an `application/json` body. Two responses are not a JSON body:
 *
 *   event stream   a 200 `text/event-stream`: the schema is one event, `{event, data}` with the
 *                  `data:` line parsed as JSON (what OpenAPI 3.2 calls the item schema)
 *   websocket      a 101 upgrade: no body; the schemas are the messages each side sends after it
 *
 * The mark is kept beside the schema (not in it), so the JSON Schema stays plain.
 */
export type ResponseMedia =
  | { kind: 'json' }
  | { kind: 'event-stream' }
  | { kind: 'websocket'; client: TSchema; server: TSchema; query?: TSchema };

const marks = new WeakMap<object, ResponseMedia>();

/** Marks `events` (one server-sent event) as the schema of a `text/event-stream` response. */
export function eventStream<T extends TSchema>(events: T): T {
  marks.set(events as object, { kind: 'event-stream' });
  return events;
}

/**
 * The schema of a 101 WebSocket upgrade: the messages the client sends, the frames the server
 * sends, and the upgrade request's query parameters (the upgrade is answered by the WebSocket
 * server, not the HTTP pipeline, so they are documentation only).
 */
export function webSocketUpgrade(messages: { client: TSchema; server: TSchema; query?: TSchema }): TSchema {
  const schema = Type.Object({ client: messages.client, server: messages.server }, { description: 'the messages after the upgrade' });
  marks.set(schema, { kind: 'websocket', ...messages });
  return schema;
}

export function mediaOf(schema: TSchema): ResponseMedia {
  return marks.get(schema as object) ?? { kind: 'json' };
}
