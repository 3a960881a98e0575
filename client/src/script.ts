import { createClient, type ClientOptions, type ServiceClient } from './index.ts';

export interface ScriptClient {
  api: ServiceClient;
  /** the service (`SEQ_BASE_URL`, else `http://127.0.0.1:8080`), for the streams */
  baseUrl: string;
}

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/**
 * For a script, the way the CLI starts: the client from `SEQ_API_KEY` and `SEQ_BASE_URL`; a
 * missing key ends the process with exit 2 and a message (`hint` says which key to export); and
 * from here on an uncaught error ends it with exit 1 and its message (an `ApiError`'s names its
 * status, code and request id) rather than a stack trace. A library must not exit a process:
 * this is for the top of a script only (`examples/` start with it).
 */
export function scriptClient(options: { hint?: string; client?: Omit<ClientOptions, 'baseUrl' | 'apiKey'> } = {}): ScriptClient {
  process.on('uncaughtException', (err: Error) => {
    console.error(`error: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}`);
    process.exit(1);
  });
  const apiKey = process.env['SEQ_API_KEY'];
  if (apiKey === undefined || apiKey === '') {
    console.error(`SEQ_API_KEY is not set: ${options.hint ?? 'export the API key first'}`);
    process.exit(2);
  }
  const baseUrl = process.env['SEQ_BASE_URL'] ?? DEFAULT_BASE_URL;
  return { api: createClient({ ...options.client, baseUrl, apiKey }), baseUrl };
}
