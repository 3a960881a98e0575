/**
 * A line chart as a standalone SVG (no library: a few polylines and labels), for figures that go
 * into docs/ beside the numbers they show.
 */
export interface Series {
  name: string;
  color: string;
  points: readonly [x: number, y: number][];
}

const W = 720;
const H = 300;
const PAD = { left: 64, right: 16, top: 32, bottom: 40 };

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function lineChart(options: { title: string; xLabel: string; yLabel: string; series: readonly Series[]; markX?: { x: number; label: string } }): string {
  const xs = options.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = options.series.flatMap((s) => s.points.map((p) => p[1]));
  const xMax = Math.max(1, ...xs);
  const yMax = niceMax(Math.max(0, ...ys) * 1.1);
  const px = (x: number) => PAD.left + (x / xMax) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - (y / yMax) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="13">${escape(options.title)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const y = (yMax * i) / 4;
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y)}" y2="${py(y)}" stroke="#ddd"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${py(y) + 4}" text-anchor="end">${Number(y.toPrecision(3))}</text>`);
  }
  for (let i = 0; i <= 6; i++) {
    const x = (xMax * i) / 6;
    parts.push(`<text x="${px(x)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${Number(x.toPrecision(3))}</text>`);
  }
  parts.push(`<text x="${W / 2}" y="${H - 6}" text-anchor="middle">${escape(options.xLabel)}</text>`);
  parts.push(`<text x="14" y="${H / 2}" text-anchor="middle" transform="rotate(-90 14 ${H / 2})">${escape(options.yLabel)}</text>`);
  if (options.markX !== undefined) {
    const x = px(options.markX.x);
    parts.push(`<line x1="${x}" x2="${x}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#999" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${x + 4}" y="${PAD.top + 10}">${escape(options.markX.label)}</text>`);
  }
  options.series.forEach((s, i) => {
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`);
    parts.push(`<rect x="${PAD.left + 8 + i * 170}" y="${PAD.top - 2}" width="10" height="3" fill="${s.color}"/>`);
    parts.push(`<text x="${PAD.left + 22 + i * 170}" y="${PAD.top + 2}">${escape(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
