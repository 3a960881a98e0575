import { table, type Cell } from '../cli/table.ts';
import type { BenchReport } from './runner.ts';
import type { LatencySummary, TcaSummary } from './stats.ts';

/** Reading a saved report: the fields the renderers use, checked, so a wrong file fails with its name. */
export function asReport(value: unknown, source: string): BenchReport {
  const r = value as Partial<BenchReport> | null;
  if (r === null || typeof r !== 'object' || r.version !== 1 || r.latency_ms === undefined || r.counts === undefined || r.scenario === undefined) {
    throw new Error(`${source} is not a seq bench report (version 1): run \`seq bench --json > file\` or \`seq bench --out file\``);
  }
  return r as BenchReport;
}

const LATENCIES: readonly [keyof BenchReport['latency_ms'], string][] = [
  ['acknowledged', 'submit -> ack'],
  ['first_fill', 'submit -> first fill'],
  ['ended', 'submit -> terminal (market, limit)'],
  ['cancel_answered', 'cancel -> answer'],
  ['cancel_ended', 'cancel -> CANCELLED'],
];

const ms = (x: number | null) => (x === null ? '-' : x.toFixed(2));
const latencyRow = (name: string, l: LatencySummary): Cell[] => [name, l.count, ms(l.p50), ms(l.p90), ms(l.p99), ms(l.p999), ms(l.max)];
const bps = (x: number | null) => (x === null ? '-' : x.toFixed(2));
const tcaRow = (t: TcaSummary): Cell[] => [t.group, t.orders, t.notional_usd.toFixed(2), bps(t.shortfall_bps), bps(t.total_cost_bps), bps(t.savings_vs_best_single_venue_bps), t.savings_usd.toFixed(2)];

function scenarioLine(r: BenchReport): string {
  const s = r.scenario;
  const mix = Object.entries(s.mix).map(([k, v]) => `${k}=${v}`).join(',');
  return `${s.rate}/s for ${s.duration_s} s, mix ${mix}, ${s.symbols.join(',')}, $${s.notional_usd[0]}-${s.notional_usd[1]}, seed ${s.seed}`;
}

/** Sent late past this (p99, ms), the harness itself is part of what the latencies measure. */
const LATE_P99_MS = 10;

/** Why the harness could not keep the scenario's pace, or undefined when it did. */
export function behindBy(r: BenchReport): string | undefined {
  const c = r.counts;
  if (c.sent < c.scheduled) return `the harness sent ${c.sent} of ${c.scheduled} orders in the window`;
  const p99 = r.harness.send_lateness_ms.p99;
  if (p99 !== null && p99 > LATE_P99_MS) return `the harness sent orders up to ${p99.toFixed(1)} ms late (p99)`;
  if (r.harness.in_flight_cap_waits > 0) return `orders waited ${r.harness.in_flight_cap_waits} times for an in-flight slot (--max-in-flight)`;
  return undefined;
}

/** The report as a reader wants it in a terminal: what was run, how fast, how it ended, what it cost. */
export function renderReport(r: BenchReport): string {
  const c = r.counts;
  const out = [
    `seq bench ${r.run_id} against ${r.base_url} at ${r.started_at}`,
    `scenario: ${scenarioLine(r)}${r.followed ? '' : ' (acknowledgements only)'}`,
    '',
    `sent ${c.sent} of ${c.scheduled} in ${r.elapsed_s.toFixed(1)} s: ${r.throughput.sent_per_s}/s sent, ${r.throughput.acknowledged_per_s}/s acknowledged, ${r.throughput.fills_per_s} fills/s`,
    `ended: ${c.completed} completed, ${c.cancelled} cancelled, ${c.rejected} rejected, ${c.unresolved} unresolved, ${c.unfinished} unfinished; ${c.refused} refused; ${c.orders_with_fills} orders filled (${c.fills} fills); ${c.cancels_too_late} cancels too late`,
    '',
    'round trip, ms from the scheduled send',
    table(['', 'n', 'p50', 'p90', 'p99', 'p99.9', 'max'], LATENCIES.map(([k, name]) => latencyRow(name, r.latency_ms[k]))),
  ];
  if (r.rejects.length > 0) {
    out.push('rejects and refusals', table(['reason', 'count'], r.rejects.map((x) => [x.reason, x.count])));
    if (r.rejects.some((x) => /no_credentials|insufficient_balance/.test(x.reason))) {
      out.push('(a sandbox key trades once its account is reset, and sells need the base asset: `seq bench --sandbox-setup` does both; a live key needs venue credentials)\n');
    }
  }
  if (r.followed) {
    out.push(
      'TCA of the completed orders (notional-weighted bps; savings vs the best single venue)',
      table(['routing', 'orders', 'notional $', 'shortfall', 'total cost', 'savings', 'savings $'], r.tca.map(tcaRow)),
    );
  }
  const h = r.harness;
  const behind = behindBy(r);
  if (behind !== undefined) out.push(`warning: ${behind}; the figures include the harness's own queueing (lower --rate, or run it on another machine)`);
  out.push(`harness: sent late by p50 ${ms(h.send_lateness_ms.p50)} ms, p99 ${ms(h.send_lateness_ms.p99)} ms, max ${ms(h.send_lateness_ms.max)} ms; waited for an in-flight slot ${h.in_flight_cap_waits} times`);
  return `${out.join('\n')}\n`;
}

/** b against a: the ratio, for figures where lower is better (latency); `-` when either is missing. */
function ratio(a: number | null, b: number | null): string {
  return a === null || b === null || a === 0 ? '-' : `${(b / a).toFixed(2)}x`;
}

/**
 * Two runs side by side: each latency percentile of A and B with B/A, throughput, outcomes and
 * TCA. Two runs compare like for like when their scenarios match (same seed: the same orders at
 * the same offsets); a difference is said first.
 */
export function renderComparison(a: BenchReport, b: BenchReport): string {
  const out: string[] = [`A: ${a.run_id} against ${a.base_url} at ${a.started_at}`, `B: ${b.run_id} against ${b.base_url} at ${b.started_at}`];
  const sa = scenarioLine(a);
  const sb = scenarioLine(b);
  out.push(sa === sb ? `scenario (both): ${sa}` : `scenarios differ, figures compare unlike flows:\n  A: ${sa}\n  B: ${sb}`, '');
  const rows: Cell[][] = [];
  for (const [k, name] of LATENCIES) {
    for (const p of ['p50', 'p90', 'p99', 'p999'] as const) {
      const x = a.latency_ms[k][p];
      const y = b.latency_ms[k][p];
      if (x !== null || y !== null) rows.push([`${name} ${p === 'p999' ? 'p99.9' : p}`, ms(x), ms(y), ratio(x, y)]);
    }
  }
  out.push('round trip, ms', table(['', 'A', 'B', 'B/A'], rows));
  out.push(
    'throughput and outcomes',
    table(
      ['', 'A', 'B'],
      [
        ['acknowledged/s', a.throughput.acknowledged_per_s, b.throughput.acknowledged_per_s],
        ['fills/s', a.throughput.fills_per_s, b.throughput.fills_per_s],
        ['completed', a.counts.completed, b.counts.completed],
        ['cancelled', a.counts.cancelled, b.counts.cancelled],
        ['rejected', a.counts.rejected, b.counts.rejected],
        ['refused', a.counts.refused, b.counts.refused],
        ['unfinished', a.counts.unfinished, b.counts.unfinished],
      ],
    ),
  );
  const groups = [...new Set([...a.tca, ...b.tca].map((t) => t.group))];
  const find = (r: BenchReport, g: string) => r.tca.find((t) => t.group === g);
  out.push(
    'TCA, notional-weighted bps',
    table(
      ['routing', 'shortfall A', 'shortfall B', 'savings A', 'savings B', 'orders A', 'orders B'],
      groups.map((g) => {
        const x = find(a, g);
        const y = find(b, g);
        return [g, bps(x?.shortfall_bps ?? null), bps(y?.shortfall_bps ?? null), bps(x?.savings_vs_best_single_venue_bps ?? null), bps(y?.savings_vs_best_single_venue_bps ?? null), x?.orders, y?.orders];
      }),
    ),
  );
  return `${out.join('\n')}\n`;
}
