import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * The HTTP and WebSocket plumbing every venue fake shares: one loopback server, a WebSocket
 * endpoint at the venue's stream path, the subscribers' streams, and a close that leaves no
 * socket open (a test must end). The venue's protocol is the subclass's.
 */
export abstract class FakeVenueServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  protected readonly subscribers = new Map<WebSocket, Set<string>>();
  private readonly sockets = new Set<Socket>();

  constructor(wsPath: string) {
    this.http = createServer((req, res) => void this.onRequest(req, res));
    this.http.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.wss = new WebSocketServer({ server: this.http, path: wsPath });
    this.wss.on('connection', (ws, req) => {
      if (!this.onWsConnection(ws, req)) return;
      this.subscribers.set(ws, new Set());
      ws.on('message', (data) => this.onWsMessage(ws, data.toString()));
      ws.on('close', () => this.subscribers.delete(ws));
    });
  }

  protected abstract onRequest(req: IncomingMessage, res: ServerResponse): Promise<void>;
  protected abstract onWsMessage(ws: WebSocket, text: string): void;

  /** A socket connected: false closes it unheard (a venue's token check on connect). */
  protected onWsConnection(ws: WebSocket, req: IncomingMessage): boolean {
    void ws;
    void req;
    return true;
  }

  /** Listens on loopback (`port` 0: an ephemeral one). */
  async listen(port = 0): Promise<{ rest: string; ws: string }> {
    await new Promise<void>((resolve) => this.http.listen(port, '127.0.0.1', resolve));
    const bound = (this.http.address() as AddressInfo).port;
    return { rest: `http://127.0.0.1:${bound}`, ws: `ws://127.0.0.1:${bound}` };
  }

  async close(): Promise<void> {
    for (const ws of this.subscribers.keys()) ws.terminate();
    this.wss.close();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  /** Drops every stream connection (the adapter must reconnect and resync). */
  dropStreams(): void {
    for (const ws of this.subscribers.keys()) ws.terminate();
  }

  /** Sends `text` to every socket subscribed to `stream`. */
  protected broadcast(stream: string, text: string): void {
    for (const [ws, streams] of this.subscribers) if (streams.has(stream)) ws.send(text);
  }

  protected static async body(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
}
