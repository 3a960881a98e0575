/** A deployment's log line as the API shows it. */
export interface LogLine {
  deployment_id: string;
  ts_ms: number;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  /** the instance's edge; empty for the host's own lines (started, stopped, failed) */
  edge_id: string;
  text: string;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
/** Lines a deployment keeps; older ones leave as new ones come. */
export const LOG_RING_LINES = 1_000;

/** A bounded ring of a deployment's log lines (pure). */
export class LogRing {
  private readonly lines: LogLine[] = [];
  private start = 0;
  /** lines lost: over the algo's rate, or pushed out of the ring */
  dropped = 0;

  push(deployment_id: string, ts_ms: number, level: number, edge_id: string, text: string): LogLine {
    const line: LogLine = { deployment_id, ts_ms, level: LOG_LEVELS[Math.min(Math.max(level, 0), 4)]!, edge_id, text };
    if (this.lines.length < LOG_RING_LINES) this.lines.push(line);
    else {
      this.lines[this.start] = line;
      this.start = (this.start + 1) % LOG_RING_LINES;
      this.dropped++;
    }
    return line;
  }

  drop(n: number): void {
    this.dropped += n;
  }

  /** The newest `limit` lines (oldest first), only those at or after `sinceMs` when given. */
  tail(limit: number, sinceMs?: number): LogLine[] {
    const ordered = [...this.lines.slice(this.start), ...this.lines.slice(0, this.start)];
    const kept = sinceMs === undefined ? ordered : ordered.filter((l) => l.ts_ms >= sinceMs);
    return kept.slice(Math.max(0, kept.length - limit));
  }
}
