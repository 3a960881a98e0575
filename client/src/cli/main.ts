#!/usr/bin/env -S node --import tsx
import { ApiError } from '../errors.ts';
import { createClient } from '../index.ts';
import { accountCommands } from './account.ts';
import { benchCommands } from './bench.ts';
import { analyticsCommands } from './analytics.ts';
import { GLOBAL_OPTIONS, parse, UsageError } from './args.ts';
import { EXIT, type Command, type Io } from './context.ts';
import { credentialCommands } from './credentials.ts';
import { deploymentCommands } from './deployments.ts';
import { keyCommands } from './keys.ts';
import { marketCommands } from './market.ts';
import { orderCommands } from './orders.ts';
import { predictionCommands } from './prediction.ts';
import { sandboxCommands } from './sandbox.ts';

const COMMANDS: readonly Command[] = [...marketCommands, ...predictionCommands, ...orderCommands, ...accountCommands, ...keyCommands, ...credentialCommands, ...sandboxCommands, ...deploymentCommands, ...analyticsCommands, ...benchCommands];
const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
/**
 * Per attempt: a host that drops packets would otherwise hang the command until the kernel gives
 * up (minutes); a shell script wants exit 3 and a retry of its own instead.
 */
const REQUEST_TIMEOUT_MS = 30_000;

function usageOf(c: Command): string {
  return ['seq', ...c.path, ...c.args, ...(c.synopsis === undefined ? [] : [c.synopsis])].join(' ');
}

function help(): string {
  return `seq: the execution service from a shell (@sequence/client)

usage: seq <command> [flags]

commands:
${COMMANDS.map((c) => `  ${usageOf(c).slice('seq '.length)}\n      ${c.summary}`).join('\n')}

global flags:
  --base-url URL  the service (default $SEQ_BASE_URL, else ${DEFAULT_BASE_URL})
  --json          machine output: the API's JSON as is, one document per line
  -h, --help      this help, or a command's

environment:
  SEQ_API_KEY     the API key (a live or sandbox key, or a JWT); read from here only, never a
                  flag, so it stays out of shell history; never printed
  SEQ_BASE_URL    the default --base-url

quantities and prices are decimals (--qty 0.01 --limit-price 65000.5), converted exactly

exit codes:
  0  ok
  1  the service refused the request (4xx): its error code on stderr
  2  usage error
  3  the service is unreachable, timed out, or failed (5xx)
  4  an order ended REJECTED (or, with --expect-fill, anything but COMPLETED)
`;
}

function commandHelp(c: Command): string {
  const flags = c.options.map((o) => `--${o}`).join(' ');
  return `usage: ${usageOf(c)}\n\n${c.summary}\n${flags === '' ? '' : `\nflags: ${flags}\n`}global flags: --base-url URL, --json, --help (seq --help for the environment and exit codes)\n`;
}

/** Other spellings of a command's first word: the endpoint is `/v1/quotes`, so `quotes` is typed as often. */
const ALIASES: Readonly<Record<string, string>> = { quotes: 'quote' };

/** The longest command whose words begin the positionals. */
function resolve(typed: readonly string[]): Command | undefined {
  const positionals = typed.length > 0 && ALIASES[typed[0]!] !== undefined ? [ALIASES[typed[0]!]!, ...typed.slice(1)] : typed;
  let best: Command | undefined;
  for (const c of COMMANDS) {
    if (c.path.every((w, i) => positionals[i] === w) && (best === undefined || c.path.length > best.path.length)) best = c;
  }
  return best;
}

/** Errors thrown when no HTTP answer came: refused or reset connections, DNS, timeouts. */
function unreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, message, code } = e as { name?: unknown; message?: unknown; code?: unknown };
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    if (typeof code === 'string' && /^(E(CONN|HOST|NET|ADDR|AI_|PIPE|NOTFOUND|TIMEDOUT)|UND_ERR)/.test(code)) return true;
    if (name === 'TypeError' && message === 'fetch failed') return true;
  }
  return false;
}

function describe(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { message, code } = e as { message?: unknown; code?: unknown };
    parts.push(typeof code === 'string' ? `${String(message)} (${code})` : String(message));
  }
  return parts.join(': ');
}

function validBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http:// or https:// (got ${url.protocol})`);
  return text.replace(/\/+$/, '');
}

export async function run(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  let command: Command | undefined;
  let baseUrl = DEFAULT_BASE_URL;
  const apiKey = env['SEQ_API_KEY'] === undefined || env['SEQ_API_KEY'] === '' ? undefined : env['SEQ_API_KEY'];
  try {
    const { positionals, flags, given } = parse(argv);
    const asksHelp = flags.help === true || positionals[0] === 'help';
    const words = positionals[0] === 'help' ? positionals.slice(1) : positionals;
    command = resolve(words);
    if (asksHelp) {
      io.stdout(command === undefined ? help() : commandHelp(command));
      return EXIT.OK;
    }
    if (words.length === 0) {
      io.stderr(help());
      return EXIT.USAGE;
    }
    if (command === undefined) {
      const family = COMMANDS.filter((c) => c.path[0] === words[0] && c.path.length > 1);
      if (family.length > 0) throw new UsageError(`${words[0]} needs one of: ${family.map((c) => c.path[1]).join(', ')}`);
      throw new UsageError(`unknown command ${JSON.stringify(words[0])}`);
    }
    const args = words.slice(command.path.length);
    if (args.length !== command.args.length) {
      throw new UsageError(command.args.length === 0 ? `unexpected argument ${JSON.stringify(args[0])}` : `expected ${command.args.join(' ')}`);
    }
    const stray = given.filter((o) => !GLOBAL_OPTIONS.includes(o) && !command!.options.includes(o));
    if (stray.length > 0) throw new UsageError(`${stray.map((o) => `--${o}`).join(', ')} does not apply to ${command.path.join(' ')}`);
    baseUrl = validBaseUrl(flags['base-url'] ?? env['SEQ_BASE_URL'] ?? DEFAULT_BASE_URL);

    const api = createClient({ baseUrl, timeoutMs: REQUEST_TIMEOUT_MS, ...(apiKey === undefined ? {} : { apiKey }) });
    return await command.run({ api, baseUrl, json: flags.json === true, io, timeoutMs: REQUEST_TIMEOUT_MS, ...(apiKey === undefined ? {} : { apiKey }) }, args, flags);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`usage error: ${err.message}\n${command === undefined ? 'seq --help lists the commands' : `usage: ${usageOf(command)}`}\n`);
      return EXIT.USAGE;
    }
    if (err instanceof ApiError) {
      io.stderr(`error: ${err.message}${err.requestId === undefined ? '' : ` [request_id ${err.requestId}]`}\n`);
      if (Array.isArray(err.details)) {
        for (const d of err.details as { field?: unknown; message?: unknown }[]) io.stderr(`  ${String(d.field)}: ${String(d.message)}\n`);
      }
      if (err.status === 401 && apiKey === undefined) io.stderr('  (SEQ_API_KEY is not set)\n');
      return err.status >= 500 ? EXIT.UNAVAILABLE : EXIT.REFUSED;
    }
    if (unreachable(err)) {
      io.stderr(`error: cannot reach ${baseUrl}: ${describe(err)}\n`);
      return EXIT.UNAVAILABLE;
    }
    io.stderr(`error: ${describe(err)}\n`);
    return EXIT.REFUSED;
  }
}

// `seq symbols | head -1` closes the pipe early: that is the reader being done, not a failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await run(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutTty: process.stdout.isTTY === true,
  stderrTty: process.stderr.isTTY === true,
});
