/**
 * The fan-out benchmark's silent subscribers: N raw TCP connections that perform the WebSocket
 * handshake by hand, subscribe, and then read and discard every byte. Without a WebSocket
 * library's per-frame work, one process can hold hundreds of subscribers without becoming the
 * bottleneck it would otherwise be on a two-core machine.
 *
 *   argv: <port> <api key> <channel> <connections> <seconds>; prints READY when all are subscribed
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

const [port, key, channel, connectionsArg, secondsArg] = process.argv.slice(2);

/** A client-to-server text frame (clients must mask). */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length > 125) throw new RangeError('subscribe message too long for a short frame');
  const mask = randomBytes(4);
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x81;
  frame[1] = 0x80 | payload.length;
  mask.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) frame[6 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.setNoDelay(true);
    let upgraded = false;
    socket.once('error', reject);
    socket.on('data', (chunk) => {
      if (upgraded) return; // discard frames
      if (!chunk.toString('latin1').startsWith('HTTP/1.1 101')) {
        reject(new Error(`upgrade refused: ${chunk.toString('latin1').split('\r\n')[0]}`));
        return;
      }
      upgraded = true;
      socket.write(maskedTextFrame(JSON.stringify({ subscribe: [channel] })));
      resolve(socket);
    });
    socket.write(
      `GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n` +
        `Authorization: Bearer ${key}\r\n\r\n`,
    );
  });
}

const sockets: Socket[] = [];
for (let i = 0; i < Number(connectionsArg); i++) sockets.push(await open());
process.stdout.write('READY\n');
await new Promise((r) => setTimeout(r, (Number(secondsArg) + 5) * 1000));
for (const s of sockets) s.destroy();
process.exit(0);
