import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Operation } from './operations.ts';
import type { Schema } from './schema-arbitrary.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** One request as generated: enough to replay it by hand from a failure report. */
export interface GeneratedRequest {
  op: Operation;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface Answer {
  status: number;
  contentType: string;
  requestId: string | null;
  text: string;
}

/**
 * The contract every answer keeps, whatever was asked: no 5xx but a 503 with a code; every
 * error in the spec's envelope with a request id; every 2xx that the document gives a schema
 * for valid against it.
 */
export class ResponseContract {
  private readonly ajv: Ajv;
  private readonly validators = new Map<Schema, ValidateFunction>();

  constructor(doc: { components: { schemas: Record<string, Schema> } }) {
    this.ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    this.ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  }

  problems(request: GeneratedRequest, answer: Answer): string[] {
    const found: string[] = [];
    if (answer.status >= 500 && answer.status !== 503) found.push(`status ${answer.status}`);
    if (answer.requestId === null || answer.requestId === '') found.push('no x-request-id header');
    if (answer.status >= 400) {
      const error = parse(answer.text) as { error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown } } | undefined;
      const e = error?.error;
      if (e === undefined || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.request_id !== 'string' || !Array.isArray(e.details)) {
        found.push(`error not in the envelope: ${answer.text.slice(0, 200)}`);
      } else if (e.request_id !== answer.requestId) {
        found.push(`envelope request_id ${String(e.request_id)} differs from the header's ${answer.requestId}`);
      } else if (!(e.details as unknown[]).every((d) => typeof d === 'object' && d !== null && typeof (d as { field?: unknown }).field === 'string' && typeof (d as { message?: unknown }).message === 'string')) {
        found.push(`details not {field, message}: ${JSON.stringify(e.details).slice(0, 200)}`);
      }
    } else if (answer.status >= 200 && answer.status < 300 && answer.contentType.startsWith('application/json')) {
      const schema = request.op.responses.get(answer.status);
      if (schema !== undefined) {
        const validate = this.validator(schema);
        if (!validate(parse(answer.text))) found.push(`${answer.status} body does not match its schema: ${this.ajv.errorsText(validate.errors).slice(0, 300)}`);
      }
    }
    return found;
  }

  private validator(schema: Schema): ValidateFunction {
    let validate = this.validators.get(schema);
    if (validate === undefined) {
      // The document's references, resolved against the document registered as `doc`.
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Schema;
      validate = this.ajv.compile(rebased);
      this.validators.set(schema, validate);
    }
    return validate;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends one generated request (loopback, bounded); an SSE stream is read up to its headers, then dropped. */
export async function send(base: string, request: GeneratedRequest, timeoutMs = 10_000): Promise<Answer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetch(base + request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: abort.signal,
    });
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.startsWith('text/event-stream')) {
      abort.abort();
      return { status: res.status, contentType, requestId: res.headers.get('x-request-id'), text: '' };
    }
    return { status: res.status, contentType, requestId: res.headers.get('x-request-id'), text: await res.text() };
  } finally {
    clearTimeout(timer);
  }
}
