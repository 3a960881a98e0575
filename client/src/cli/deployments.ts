import { readFileSync } from 'node:fs';
import { ok } from '../errors.ts';
import { oneOf, positiveInt, required, UsageError, type Flags } from './args.ts';
import { EXIT, isoMs, output, printJson, type Command, type Context, type Schemas } from './context.ts';
import { fromScaled } from './decimal.ts';
import { timeMs } from './time.ts';
import { table } from './table.ts';

type Deployment = Schemas['Deployment'];
type CreateRequest = Schemas['CreateDeploymentRequest'];
type LogLine = Schemas['DeploymentLogLine'];

/** Every WebAssembly binary starts `\0asm`: checked here so a wrong file is a usage error, not an upload. */
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d] as const;
const INSTRUMENT_TYPES = ['spot', 'perp'] as const satisfies readonly NonNullable<CreateRequest['instrument_type']>[];

function wasmBase64(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new UsageError(`--wasm ${path}: ${(err as Error).message}`);
  }
  if (!WASM_MAGIC.every((b, i) => bytes[i] === b)) throw new UsageError(`--wasm ${path} is not a WebAssembly module (it does not start with \\0asm)`);
  return bytes.toString('base64');
}

const commaList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function createRequest(flags: Flags): CreateRequest {
  if (flags.venue !== undefined && flags.venues !== undefined) throw new UsageError('--venue or --venues, not both');
  let config: unknown;
  if (flags.config !== undefined) {
    try {
      config = JSON.parse(flags.config);
    } catch (err) {
      throw new UsageError(`--config must be JSON: ${(err as Error).message}`);
    }
  }
  const instrumentType = oneOf('instrument-type', flags['instrument-type'], INSTRUMENT_TYPES);
  return {
    symbols: commaList(required('symbols', flags.symbols)),
    artifact_base64: wasmBase64(required('wasm', flags.wasm)),
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.venue === undefined ? {} : { venue: flags.venue }),
    ...(flags.venues === undefined ? {} : { venues: commaList(flags.venues) }),
    ...(instrumentType === undefined ? {} : { instrument_type: instrumentType }),
    ...(flags.start === true ? { start_immediately: true } : {}),
    ...(config === undefined ? {} : { config }),
  };
}

function deploymentDetail(d: Deployment): string {
  const px = (v: number) => fromScaled(v, 9);
  const head = [
    `deployment ${d.deployment_id}${d.name === null ? '' : ` (${d.name})`}  ${d.status}${d.reason === null ? '' : `: ${d.reason}`}  ${d.is_sandbox ? 'sandbox' : 'live'}`,
    `  ${d.instrument_type} ${d.symbols.join(',')} on ${d.venues === null ? 'every capable edge' : d.venues.join(',')}; artifact ${d.artifact.sha256.slice(0, 12)} (${d.artifact.bytes} bytes)` +
      `${d.mesh_group === null ? '' : `; mesh ${d.mesh_group} as ${d.mesh_label ?? '-'}`}`,
    `  created ${isoMs(d.created_at_ms)}, started ${isoMs(d.started_at_ms)}, stopped ${isoMs(d.stopped_at_ms)}; ${d.starts} starts`,
  ];
  const r = d.runtime;
  if (r !== null) {
    const ack = r.latency.book_to_ack_us;
    head.push(`  runtime: ${Math.round(r.memory_bytes / 1024)} KiB, ${r.callbacks} callbacks, slowest ${r.max_callback_us} us; book to ack p50 ${ack.p50} us, p99 ${ack.p99} us (${ack.n})`);
  }
  const edges = table(
    ['edge', 'symbol', 'connected', 'position', 'avg entry', 'realized', 'unrealized', 'orders', 'fills', 'rejects', 'cancels', 'open', 'books'],
    d.edges.map((e) => [e.edge_id, e.symbol, e.connected, fromScaled(e.position_1e8, 8), px(e.avg_entry_1e9), px(e.realized_pnl_1e9), px(e.unrealized_pnl_1e9), e.orders_sent, e.fills, e.rejects, e.cancels, e.open_orders, e.books]),
  );
  return `${head.join('\n')}\n${d.edges.length === 0 ? '' : `\n${edges}`}`;
}

/**
 * A deployment answer: printed, and exit 1 when it ended `failed` (a start the service refused
 * to run: a trap, a budget, the limits), so a script's `deploy start` can branch on it.
 */
function shown(ctx: Context, d: Deployment): number {
  output(ctx, d, deploymentDetail);
  if (d.status !== 'failed') return EXIT.OK;
  ctx.io.stderr(`deployment ${d.deployment_id} failed: ${d.reason ?? 'no reason given'}\n`);
  return EXIT.REFUSED;
}

const create: Command = {
  path: ['deploy', 'create'],
  args: [],
  options: ['wasm', 'symbols', 'name', 'venue', 'venues', 'instrument-type', 'start', 'config'],
  synopsis: '--wasm FILE --symbols A,B [--name N] [--venue V | --venues a,b] [--instrument-type spot|perp] [--start] [--config JSON]',
  summary: 'deploy a WASM algo (sent base64 in the JSON body) on symbols and venues; --start runs it at once',
  async run(ctx, _args, flags) {
    return shown(ctx, ok(await ctx.api.POST('/v1/deployments', { body: createRequest(flags) })));
  },
};

const list: Command = {
  path: ['deploy', 'list'],
  args: [],
  options: [],
  summary: 'your deployments with their live edge figures',
  async run(ctx) {
    return output(ctx, ok(await ctx.api.GET('/v1/deployments')), ({ deployments }) => {
      const sum = (d: Deployment, f: (e: Deployment['edges'][number]) => number) => d.edges.reduce((n, e) => n + f(e), 0);
      return (
        table(
          ['id', 'name', 'status', 'type', 'symbols', 'venues', 'instances', 'orders', 'fills', 'open', 'created'],
          deployments.map((d) => [d.deployment_id, d.name, d.status, d.instrument_type, d.symbols.join(','), d.venues?.join(',') ?? 'all', d.edges.length, sum(d, (e) => e.orders_sent), sum(d, (e) => e.fills), sum(d, (e) => e.open_orders), isoMs(d.created_at_ms)]),
        ) + `${deployments.length} deployments\n`
      );
    });
  },
};

const byId = (id: string) => ({ params: { path: { deployment_id: id } } });

const get: Command = {
  path: ['deploy', 'get'],
  args: ['<deployment_id>'],
  options: [],
  summary: 'one deployment with its per-edge position, PnL and order counts',
  async run(ctx, [id]) {
    return output(ctx, ok(await ctx.api.GET('/v1/deployments/{deployment_id}', byId(id!))), deploymentDetail);
  },
};

const start: Command = {
  path: ['deploy', 'start'],
  args: ['<deployment_id>'],
  options: [],
  summary: 'start a created, stopped or failed deployment (exit 1 if it fails to start)',
  async run(ctx, [id]) {
    return shown(ctx, ok(await ctx.api.POST('/v1/deployments/{deployment_id}/start', byId(id!))));
  },
};

const stop: Command = {
  path: ['deploy', 'stop'],
  args: ['<deployment_id>'],
  options: [],
  summary: 'stop a deployment: its shutdown callback runs, then its open orders are cancelled',
  async run(ctx, [id]) {
    return output(ctx, ok(await ctx.api.POST('/v1/deployments/{deployment_id}/stop', byId(id!))), deploymentDetail);
  },
};

const remove: Command = {
  path: ['deploy', 'delete'],
  args: ['<deployment_id>'],
  options: [],
  summary: 'delete a deployment that is not running (its orders keep their lineage)',
  async run(ctx, [id]) {
    return output(ctx, ok(await ctx.api.DELETE('/v1/deployments/{deployment_id}', byId(id!))), (d) => `deleted ${d.deployment_id}\n`);
  },
};

const logLine = (l: LogLine) => `${isoMs(l.ts_ms)} ${l.level.padEnd(5)} ${l.edge_id === '' ? 'host' : l.edge_id}  ${l.text}\n`;

/** Lines the tail matches a poll's answer on (the last ones printed). */
const ANCHOR_LINES = 16;
const keyOf = (l: LogLine) => `${l.ts_ms}\u0000${l.edge_id}\u0000${l.level}\u0000${l.text}`;

/**
 * Where a poll's answer continues what was printed. Log lines have no sequence number and their
 * times need not rise (an instance's lines carry its worker's clock), but the answer keeps the
 * ring's write order, so the new lines are those after the last printed ones, found by matching
 * the printed tail in the answer.
 */
export class LogTail {
  private readonly last: string[] = [];
  /** the newest time printed, to narrow the next poll */
  newestMs: number | undefined;

  /** The lines of `answer` not printed yet; `gap` when the printed tail was not found (lines were lost between polls). */
  next(answer: readonly LogLine[]): { lines: LogLine[]; gap: boolean } {
    const keys = answer.map(keyOf);
    let from = 0;
    let gap = false;
    if (this.last.length > 0) {
      from = -1;
      for (let j = keys.length - 1; j >= 0 && from < 0; j--) if (this.endsAt(keys, j)) from = j + 1;
      gap = from < 0;
      if (gap) from = 0;
    }
    const lines = answer.slice(from);
    for (const l of lines) {
      this.last.push(keyOf(l));
      this.newestMs = Math.max(this.newestMs ?? l.ts_ms, l.ts_ms);
    }
    this.last.splice(0, Math.max(0, this.last.length - ANCHOR_LINES));
    return { lines, gap: gap && lines.length > 0 };
  }

  /** whether the printed tail ends at `keys[j]`, compared as far back as both reach */
  private endsAt(keys: readonly string[], j: number): boolean {
    for (let k = 0; k < this.last.length && j - k >= 0; k++) if (keys[j - k] !== this.last[this.last.length - 1 - k]) return false;
    return true;
  }
}

/** A log tail is read by a person: half a second behind is live enough, and costs one small GET. */
const FOLLOW_POLL_MS = 500;
/** How far before the newest line printed a poll reaches back, for lines written late with an older time. */
const FOLLOW_SLACK_MS = 5_000;
const RING_LINES = 1_000;

async function readLogs(ctx: Context, id: string, limit: number, sinceMs: number | undefined) {
  const query = { limit, ...(sinceMs === undefined ? {} : { since_ms: sinceMs }) };
  return ok(await ctx.api.GET('/v1/deployments/{deployment_id}/logs', { params: { path: { deployment_id: id }, query } }));
}

/**
 * `deploy logs --follow`: the newest lines, then new ones as they are written, until Ctrl-C
 * (exit 0). Polling the REST tail rather than `deployment_logs:<id>` on the stream: the stream
 * does not replay what was written while it reconnected, and a poll reads the ring itself, so a
 * restart of the service or the connection loses nothing the ring still holds.
 */
async function follow(ctx: Context, id: string, limit: number, sinceMs: number | undefined): Promise<number> {
  const tail = new LogTail();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake = () => {};
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    wake();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    let answer = await readLogs(ctx, id, limit, sinceMs);
    while (!stopped) {
      const { lines, gap } = tail.next(answer.lines);
      if (gap) ctx.io.stderr('(log lines were lost here: more were written between two reads than the ring keeps)\n');
      for (const l of lines) {
        if (ctx.json) printJson(ctx, l);
        else ctx.io.stdout(logLine(l));
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, FOLLOW_POLL_MS);
      });
      if (stopped) break;
      const since = tail.newestMs === undefined ? sinceMs : Math.max(sinceMs ?? 0, tail.newestMs - FOLLOW_SLACK_MS);
      answer = await readLogs(ctx, id, RING_LINES, since);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return EXIT.OK;
}

const logs: Command = {
  path: ['deploy', 'logs'],
  args: ['<deployment_id>'],
  options: ['follow', 'limit', 'since'],
  synopsis: '[-f|--follow] [--limit N] [--since 10m|ISO]',
  summary: "a deployment's log lines, oldest first (the newest --limit, default 100); --follow prints new ones as they come until Ctrl-C",
  async run(ctx, [id], flags) {
    const limit = positiveInt('limit', flags.limit) ?? 100;
    const sinceMs = timeMs('since', flags.since);
    if (flags.follow === true) return follow(ctx, id!, limit, sinceMs);
    return output(ctx, await readLogs(ctx, id!, limit, sinceMs), (d) => d.lines.map(logLine).join('') + (d.dropped > 0 ? `(${d.dropped} older lines dropped by the ring or the rate cap)\n` : ''));
  },
};

export const deploymentCommands: readonly Command[] = [create, list, get, start, stop, remove, logs];
