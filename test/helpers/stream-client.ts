import assert from 'node:assert/strict';
import { WebSocket } from 'ws';

export interface Frame {
  type: string;
  channel?: string;
  channels?: string[];
  ts_ns?: number;
  data?: Record<string, unknown>;
  error?: { code: string; message: string; request_id: string; details: { field: string; message: string }[] };
}

/** Resolves when `wake` is called or `timeoutMs` passes; the shared bounded wait of the helpers. */
export function waitForWake(timeoutMs: number, setWake: (wake: (() => void) | undefined) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    setWake(() => {
      clearTimeout(timer);
      resolve();
    });
  }).finally(() => setWake(undefined));
}

/** A real WebSocket client of /v1/stream that queues JSON frames and reads them with a bounded wait. */
export class StreamClient {
  private readonly frames: Frame[] = [];
  private wake: (() => void) | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as Frame);
      this.wake?.();
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, handshakeTimeout: 5_000 });
      const client = new StreamClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        reject(new Error(`upgrade refused: ${res.statusCode}`));
        ws.terminate();
      });
      ws.once('error', reject);
    });
  }

  /** The next frame satisfying `match` (by default the next one), skipping others; fails after `timeoutMs`. */
  async next(match: (f: Frame) => boolean = () => true, timeoutMs = 5_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.frames.findIndex(match);
      if (i >= 0) return this.frames.splice(i, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`no matching frame within ${timeoutMs} ms; queued: ${JSON.stringify(this.frames)}`);
      await waitForWake(left, (wake) => (this.wake = wake));
    }
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(): void {
    this.ws.terminate();
  }
}
