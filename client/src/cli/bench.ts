import { readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createClient } from '../index.ts';
import { asReport, renderComparison, renderReport } from '../bench/report.ts';
import { runBench, type Progress } from '../bench/runner.ts';
import { prepareSandbox } from '../bench/sandbox-setup.ts';
import { DEFAULT_SCENARIO, parseMix, type Scenario } from '../bench/scenario.ts';
import { positiveInt, UsageError, type Flags } from './args.ts';
import { EXIT, printJson, type Command, type Context } from './context.ts';

/** `60`, `60s`, `2m`: a duration in seconds. */
function seconds(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)(s|m)?$/.exec(text);
  if (m === null || Number(m[1]) <= 0) throw new UsageError(`--${flag} must be a duration such as 60, 60s or 2m (got ${JSON.stringify(text)})`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}

function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0)) throw new UsageError(`--${flag} must be a positive number (got ${JSON.stringify(text)})`);
  return n;
}

function range(flag: string, text: string | undefined, fallback: readonly [number, number]): readonly [number, number] {
  if (text === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/.exec(text);
  const lo = Number(m?.[1]);
  const hi = Number(m?.[2] ?? m?.[1]);
  if (m === null || !(lo > 0) || hi < lo) throw new UsageError(`--${flag} must be USD as MIN-MAX or one amount, e.g. 20-200 (got ${JSON.stringify(text)})`);
  return [lo, hi];
}

export function scenarioFrom(flags: Flags): Scenario {
  let mix = DEFAULT_SCENARIO.mix;
  if (flags.mix !== undefined) {
    try {
      mix = parseMix(flags.mix);
    } catch (err) {
      throw new UsageError(`--${(err as Error).message}`);
    }
  }
  const symbols = flags.symbols === undefined ? DEFAULT_SCENARIO.symbols : flags.symbols.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (symbols.length === 0) throw new UsageError('--symbols needs at least one symbol');
  return {
    ...DEFAULT_SCENARIO,
    seed: positiveInt('seed', flags.seed) ?? DEFAULT_SCENARIO.seed,
    rate: positive('rate', flags.rate, DEFAULT_SCENARIO.rate),
    duration_s: seconds('duration', flags.duration, DEFAULT_SCENARIO.duration_s),
    symbols,
    mix,
    notional_usd: range('notional', flags.notional, DEFAULT_SCENARIO.notional_usd),
  };
}

function progressLine(p: Progress): string {
  return `${p.elapsed_s.toFixed(0)} s: sent ${p.sent}, acknowledged ${p.acknowledged}, ended ${p.ended}, in flight ${p.in_flight}`;
}

async function bench(ctx: Context, _args: readonly string[], flags: Flags): Promise<number> {
  const scenario = scenarioFrom(flags);
  // No retries: a 429 the client retried would count as one slow success and hide the limit.
  const api = createClient({ baseUrl: ctx.baseUrl, retry: false, ...(ctx.apiKey === undefined ? {} : { apiKey: ctx.apiKey }), ...(ctx.timeoutMs === undefined ? {} : { timeoutMs: ctx.timeoutMs }) });
  const runId = `bench-${randomBytes(4).toString('hex')}`;
  if (flags['sandbox-setup'] === true) {
    const setup = await prepareSandbox(api, scenario);
    ctx.io.stderr(`sandbox reset: ${setup.venues_seeded} venues funded, ${setup.positions_written} base-asset positions seeded\n`);
  }
  ctx.io.stderr(`${runId}: ${scenario.rate}/s for ${scenario.duration_s} s against ${ctx.baseUrl}\n`);
  const report = await runBench({
    client: api,
    baseUrl: ctx.baseUrl,
    scenario,
    follow: flags['acks-only'] !== true,
    maxInFlight: positiveInt('max-in-flight', flags['max-in-flight']) ?? 256,
    drainMs: seconds('drain', flags.drain, 10) * 1_000,
    runId,
    onProgress: (p) => ctx.io.stderr(ctx.io.stderrTty ? `\r\x1b[2K${progressLine(p)}` : `${progressLine(p)}\n`),
  });
  if (ctx.io.stderrTty) ctx.io.stderr('\r\x1b[2K');
  if (flags.out !== undefined) await writeFile(flags.out, `${JSON.stringify(report, null, 2)}\n`);
  if (ctx.json) printJson(ctx, report);
  else ctx.io.stdout(renderReport(report));
  return report.counts.acknowledged > 0 ? EXIT.OK : EXIT.REFUSED;
}

async function readReport(path: string) {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    return asReport(JSON.parse(text), path);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export const benchCommands: readonly Command[] = [
  {
    path: ['bench'],
    args: [],
    options: ['duration', 'rate', 'mix', 'symbols', 'notional', 'seed', 'max-in-flight', 'drain', 'out', 'acks-only', 'sandbox-setup'],
    synopsis: '[--duration 60s] [--rate 20] [--mix market=6,limit=3,cancel=1] [--symbols BTC-USDT,ETH-USDT] [--notional 20-200] [--seed 42] [--max-in-flight 256] [--drain 10s] [--out FILE] [--acks-only] [--sandbox-setup]',
    summary: 'replays a seeded order flow and reports round trips (p50-p99.9), throughput, rejects and TCA per routing version',
    run: bench,
  },
  {
    path: ['bench', 'compare'],
    args: ['<a.json>', '<b.json>'],
    options: [],
    summary: 'two saved bench reports side by side (B/A per percentile)',
    async run(ctx, args) {
      const [a, b] = await Promise.all([readReport(args[0]!), readReport(args[1]!)]);
      if (ctx.json) printJson(ctx, { a, b });
      else ctx.io.stdout(renderComparison(a, b));
      return EXIT.OK;
    },
  },
];
