import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (ms) of every thread of a process, by thread id, from /proc (Linux). */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime + stime, in clock ticks (100 per second here)
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * CPU per order by thread between two samples: the main thread (tid = pid: the gateway, and
 * the journal), the two busiest other threads (the actor workers: routers and edges), and the
 * rest (V8's GC and compiler helpers, libuv's pool where LMDB syncs), in microseconds.
 */
export function cpuPerOrder(pid: number, before: Map<number, number>, after: Map<number, number>, orders: number): Record<string, number> {
  const spent = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const main = spent.find((t) => t.tid === pid)?.ms ?? 0;
  const others = spent.filter((t) => t.tid !== pid).sort((a, b) => b.ms - a.ms);
  const us = (ms: number) => Math.round((ms * 1000) / Math.max(1, orders));
  const workers = others.slice(0, 2).reduce((s, t) => s + t.ms, 0);
  const rest = others.slice(2).reduce((s, t) => s + t.ms, 0);
  return {
    main_us: us(main),
    workers_us: us(workers),
    // The busier and the less busy worker: how evenly the routers (and edges) spread.
    worker_a_us: us(others[0]?.ms ?? 0),
    worker_b_us: us(others[1]?.ms ?? 0),
    helpers_us: us(rest),
    total_us: us(main + workers + rest),
  };
}
