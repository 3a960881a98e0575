import { Bench } from 'tinybench';

/** One task's figures, one entry per round. */
export interface Timing {
  /** tinybench's mean latency, ms */
  wallMs: number[];
  /** the process's CPU time (user + system) per call over the run phase, µs */
  cpuUs: number[];
}

export interface RoundsOptions {
  rounds: number;
  /** each task's run time per round, ms */
  timeMs: number;
  warmupMs: number;
}

/**
 * Every task once per round, the rounds one after the other, so load from elsewhere on the
 * machine falls on every task alike rather than on whichever ran while it lasted (tinybench
 * runs a bench's tasks in turn). Per round and task: tinybench's wall mean, and the process's
 * CPU time per call over the run phase (`process.cpuUsage`: what this process spent, whoever
 * else held the cores; the helper threads' share, GC and the like, included). A task that
 * returns a promise is awaited (and timed) by tinybench as it would be on its own.
 */
export async function measureRounds(tasks: readonly (readonly [name: string, fn: () => unknown])[], options: RoundsOptions): Promise<Map<string, Timing>> {
  const out = new Map<string, Timing>(tasks.map(([name]) => [name, { wallMs: [], cpuUs: [] }]));
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({ time: options.timeMs, warmupTime: options.warmupMs });
    for (const [name, fn] of tasks) {
      let calls = 0;
      let cpu = process.cpuUsage();
      const counted = () => {
        calls++;
        return fn();
      };
      bench.add(name, counted, {
        async: fn.constructor.name === 'AsyncFunction',
        beforeAll: (mode) => {
          if (mode !== 'run') return;
          calls = 0;
          cpu = process.cpuUsage();
        },
        afterAll: (mode) => {
          if (mode !== 'run') return;
          const used = process.cpuUsage(cpu);
          out.get(name)!.cpuUs.push((used.user + used.system) / Math.max(1, calls));
        },
      });
    }
    await bench.run();
    for (const [name] of tasks) out.get(name)!.wallMs.push((bench.getTask(name)!.result as { latency: { mean: number } }).latency.mean);
  }
  return out;
}

/** The middle value (the upper one of an even count). */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
}

/** Per round, `f` of the two tasks' figures; the median round. */
export function medianOfRounds(a: readonly number[], b: readonly number[], f: (a: number, b: number) => number): number {
  return median(a.map((x, i) => f(x, b[i]!)));
}
