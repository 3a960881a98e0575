export type Cell = string | number | bigint | boolean | null | undefined;

const NUMERIC = /^[-+]?(\d[\d,]*)?(\.\d+)?%?$/;

function text(cell: Cell): string {
  if (cell === null || cell === undefined || cell === '') return '-';
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  return String(cell);
}

/**
 * Rows under a header, columns padded to their widest cell; a column whose cells are all numbers
 * (or `-`) is right-aligned so digits line up. No colours or box drawing: the output is meant to
 * be read in a terminal and grepped alike.
 */
export function table(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cells = rows.map((row) => headers.map((_, i) => text(row[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const right = headers.map((_, i) => cells.length > 0 && cells.every((r) => r[i] === '-' || NUMERIC.test(r[i]!)));
  const line = (row: readonly string[]) =>
    row
      .map((c, i) => (right[i] === true ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...cells.map(line)].join('\n')}\n`;
}
