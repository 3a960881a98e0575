import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on now: bound to an ephemeral port, then released. For a
 * service that must come back on the same port (a restart the client reconnects to) or a URL
 * that must refuse connections.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
