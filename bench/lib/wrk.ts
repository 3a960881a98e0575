import { execFileSync } from 'node:child_process';

export interface WrkFigures {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
}

export const WRK_CONNECTIONS = 50;

export function assertWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (err) {
    // wrk --version exits 1 after printing its banner; only a missing binary is ENOENT.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('wrk is not installed: `apt-get install -y wrk` (Debian package) and run again');
    }
  }
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : n;
}

/** One wrk run: 1 thread, 50 keep-alive connections, loopback only. */
export function runWrk(url: string, headers: string[], seconds: number, script?: string): WrkFigures {
  const args = ['-t1', `-c${WRK_CONNECTIONS}`, `-d${seconds}s`, '--latency', ...(script ? ['-s', script] : []), ...headers.flatMap((h) => ['-H', h]), url];
  const out = execFileSync('wrk', args, { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p50 = /\s50%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  if (!Number.isFinite(rps) || !p50 || !p99) throw new Error(`could not parse wrk output:\n${out}`);
  return { rps, p50_ms: toMs(p50[1]!, p50[2]!), p99_ms: toMs(p99[1]!, p99[2]!), non2xx };
}
