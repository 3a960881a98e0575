import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface LoopDelay {
  /** The window these figures cover (the last complete one), ms; 0 before the first ends. */
  window_ms: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

const NS_PER_MS = 1e6;

/**
 * The gateway thread's event-loop delay (how late a timer of `resolutionMs` fires: time the
 * loop was busy or blocked) over rolling windows: each window's percentiles are kept when it
 * ends and the histogram starts again, so a read-out says how the last `windowMs` went, not
 * the whole life of the process. Node's histogram samples on its own timer; reading it costs
 * nothing on the request path.
 */
export class LoopDelayMonitor {
  private readonly histogram: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  private last: LoopDelay = { window_ms: 0, p50_ms: 0, p99_ms: 0, max_ms: 0 };

  constructor(windowMs = 10_000, resolutionMs = 10) {
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    this.histogram.enable();
    this.timer = setInterval(() => {
      const h = this.histogram;
      this.last = {
        window_ms: windowMs,
        p50_ms: round2(h.percentile(50) / NS_PER_MS),
        p99_ms: round2(h.percentile(99) / NS_PER_MS),
        max_ms: round2(h.max / NS_PER_MS),
      };
      h.reset();
    }, windowMs).unref();
  }

  lastWindow(): LoopDelay {
    return this.last;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}

function round2(ms: number): number {
  return Number.isFinite(ms) ? Math.round(ms * 100) / 100 : 0;
}
