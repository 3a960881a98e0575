/**
 * Graceful shutdown of the real service process (`main.ts`, bundled: test/helpers/bundle.ts): SIGTERM and
 * SIGINT exit 0, WebSockets are told 1001, and the data survives a restart.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { call, startTestService, TEST_OPERATOR_KEY, type TestService } from '../helpers/service.ts';
import { waitForWake } from '../helpers/stream-client.ts';
import { serviceArgs } from '../helpers/bundle.ts';
import { REPO_ROOT, startProcess } from '../helpers/process.ts';



const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** Resolves with the exit code, or fails after `timeoutMs`. */
function readlinkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

function childrenOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((p) => p !== '');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The pid and port of the `node ... main.ts` child of `shellPid` once it has listened. */
async function serviceChildOf(shellPid: number, timeoutMs: number): Promise<{ pid: number; port: number }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const child of childrenOf(shellPid)) {
      // A child that exited since it was listed (the `true` reader does at once) has no /proc entry.
      const cmd = readOr(`/proc/${child}/cmdline`);
      if (/main\.(ts|js)/.test(cmd)) {
        // The start-up is over once one of its sockets is a listening one (state 0A in /proc/net/tcp).
        const sockets = new Set(readdirSync(`/proc/${child}/fd`).map((fd) => /socket:\[(\d+)\]/.exec(readlinkOr(`/proc/${child}/fd/${fd}`))?.[1]).filter((i) => i !== undefined));
        const listening = readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1).map((l) => l.trim().split(/\s+/)).filter((f) => f[3] === '0A');
        const own = listening.find((f) => sockets.has(f[9] ?? ''));
        if (own !== undefined) return { pid: Number(child), port: parseInt(own[1]!.split(':')[1]!, 16) };
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the service did not start');
}

/** Runs `node main.ts | <reader>` under a shell of its own process group; the group is killed after. */
async function withPipedService(reader: string, run: (service: { pid: number; port: number; shellPid: number }) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seq-epipe-'));
  const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} ${serviceArgs().join(' ')} 2>/dev/null | ${reader}; sleep 30`], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, OPERATOR_KEY: TEST_OPERATOR_KEY, LOG_LEVEL: 'info', WORKERS: '1' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    await run({ ...(await serviceChildOf(shell.pid!, 30_000)), shellPid: shell.pid! });
  } finally {
    try {
      process.kill(-shell.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends SIGTERM and gives the time the process took to go (SIGKILLed past 20 s). */
async function stopTook(pid: number): Promise<number> {
  const started = Date.now();
  process.kill(pid, 'SIGTERM');
  while (alive(pid) && Date.now() - started < 20_000) await sleep(50);
  const tookMs = Date.now() - started;
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  return tookMs;
}

function exitOf(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal === null ? null : -1));
    });
  });
}

async function waitReady(base: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await call(base, 'GET', '/v1/health/ready').then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) assert.fail(`not ready within ${timeoutMs} ms (last ${status})`);
    await sleep(50);
  }
}

describe('graceful shutdown of main.ts', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'seq-shutdown-'));
  });

  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 0 on SIGTERM, closing WebSockets with 1001, and keeps the data for the next start', async () => {
    const first = await startProcess(dataDir, children);
    assert.ok(first.port > 0, 'a real port was bound');
    await waitReady(first.base);
    const created = await call<{ raw_key: string; id: string }>(first.base, 'POST', '/v1/api_keys', {
      token: TEST_OPERATOR_KEY,
      body: { label: 'survives' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const ks = await call(first.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: true, reason: 'x' } });
    assert.equal(ks.status, 200);

    const ws = new WebSocket(`ws://127.0.0.1:${first.port}/v1/stream`, {
      headers: { authorization: `Bearer ${created.body.raw_key}` },
      handshakeTimeout: 5_000,
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

    assert.ok(first.child.kill('SIGTERM'));
    assert.equal(await exitOf(first.child, 15_000), 0, first.output());
    const closeCode = await Promise.race([closed, sleep(5_000).then(() => -1)]);
    assert.equal(closeCode, 1001, 'the stream is closed with 1001 (going away)');
    // Nothing listens any more.
    await assert.rejects(fetch(`${first.base}/v1/health/live`, { signal: AbortSignal.timeout(5_000) }));

    const second = await startProcess(dataDir, children);
    await waitReady(second.base);
    assert.doesNotMatch(second.output(), /Operator key/, 'OPERATOR_KEY is set: nothing generated');
    const listed = await call<{ id: string; label: string | null; is_active: boolean }[]>(second.base, 'GET', '/v1/api_keys', {
      token: created.body.raw_key,
    });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(
      listed.body.map((r) => [r.id, r.label, r.is_active]),
      [[created.body.id, 'survives', true]],
    );
    assert.equal((await call(second.base, 'GET', '/v1/health/safety')).status, 503, 'the kill switch survived');
    assert.equal(
      (await call(second.base, 'PUT', '/v1/kill_switch', { token: TEST_OPERATOR_KEY, body: { active: false } })).status,
      200,
    );

    assert.ok(second.child.kill('SIGINT'));
    assert.equal(await exitOf(second.child, 15_000), 0, second.output());
  });

  it('stops within seconds of SIGTERM when the reader of its stdout is gone (a parent that died), twice', async () => {
    // As run under `node main.ts | reader` when the reader dies while the service is idle: the
    // service's next log write meets EPIPE. The shutdown's synchronous log flush used to
    // retry that write forever (sonic-boom's flushSync sleeps and retries on every error).
    for (let attempt = 0; attempt < 2; attempt++) {
      await withPipedService('cat >/dev/null', async ({ pid, shellPid }) => {
        // The reader goes away once the service is idle: nothing tells the service until it writes.
        await sleep(500);
        for (const reader of childrenOf(shellPid)) if (readFileSync(`/proc/${reader}/cmdline`, 'utf8').startsWith('cat')) process.kill(Number(reader), 'SIGKILL');
        await sleep(1_000);
        const tookMs = await stopTook(pid);
        assert.ok(tookMs < 15_000, `attempt ${attempt}: stopped after ${tookMs} ms`);
      });
    }
  });

  it('goes on serving when the reader of its stdout is gone before its banner, and still stops on SIGTERM', async () => {
    // The banner used to meet EPIPE as an unhandled error: the process then exited through
    // pino's exit-time flush of the lines still buffered, which retries the broken pipe
    // forever, deaf to SIGTERM (seen in CI, where start-up outlasted the reader).
    await withPipedService('true', async ({ pid, port }) => {
      const base = `http://127.0.0.1:${port}`;
      await waitReady(base);
      await sleep(1_000); // the banner follows readiness within a turn
      assert.ok(alive(pid), 'the service survived its reader');
      assert.equal((await call(base, 'GET', '/v1/health/live')).status, 200);
      const tookMs = await stopTook(pid);
      assert.ok(tookMs < 15_000, `stopped after ${tookMs} ms`);
    });
  });

  it('exits 0 on SIGINT right after start-up', async () => {
    const run = await startProcess(dataDir, children);
    await waitReady(run.base);
    assert.ok(run.child.kill('SIGINT'));
    assert.equal(await exitOf(run.child, 15_000), 0, run.output());
  });
});

/** A raw HTTP/1.1 connection, to hold a request half-sent and to reuse one connection. */
class RawConnection {
  private buffer = '';
  private closed = false;
  private wake: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (s: string) => {
      this.buffer += s;
      this.wake?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Reads one response (status, headers, JSON body by content-length); bounded wait. */
  async response(timeoutMs = 10_000): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const i = line.indexOf(':');
          headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.slice(end + 4, end + 4 + length);
          this.buffer = this.buffer.slice(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body: body === '' ? undefined : (JSON.parse(body) as unknown) };
        }
      }
      if (this.closed) assert.fail(`connection closed before a full response: ${JSON.stringify(this.buffer)}`);
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`no response within ${timeoutMs} ms: ${JSON.stringify(this.buffer)}`);
      await waitForWake(left, (wake) => (this.wake = wake));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

describe('graceful drain in process (service.stop)', () => {
  let svc: TestService | undefined;
  const connections: RawConnection[] = [];

  after(async () => {
    for (const c of connections) c.destroy();
    await svc?.stop();
  });

  it('finishes a request under way before closing storage, and answers later ones with 503', async () => {
    svc = await startTestService({ workers: 1 });
    const dataDir = svc.dataDir;
    const port = svc.service.port;
    const idle = await RawConnection.open(port);
    const busy = await RawConnection.open(port);
    connections.push(idle, busy);

    // A keep-alive connection that has already been served once.
    idle.write(`GET /v1/health/live HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal((await idle.response()).status, 200);

    // A request under way: headers and half of its body.
    const body = JSON.stringify({ label: 'in-flight-at-shutdown' });
    busy.write(
      `POST /v1/api_keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_OPERATOR_KEY}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await sleep(250); // let the gateway see the headers

    const stopping = svc.stop(false);
    svc = undefined;

    // A new request on an open connection is refused while draining.
    idle.write(`GET /v1/api_keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_OPERATOR_KEY}\r\n\r\n`);
    const refused = await idle.response();
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal((refused.body as { error: { code: string } }).error.code, 'SHUTTING_DOWN');

    // The request under way completes, against a still-open database.
    busy.write(body.slice(10));
    const done = await busy.response();
    assert.equal(done.status, 201, JSON.stringify(done.body));
    const raw = (done.body as { raw_key: string }).raw_key;
    await stopping;

    // And its effect is durable.
    svc = await startTestService({ workers: 1, dataDir });
    const listed = await call<{ label: string | null }[]>(svc.base, 'GET', '/v1/api_keys', { token: raw });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.some((r) => r.label === 'in-flight-at-shutdown'));
  });
});
