import { rowFigures, staticRowOf, type PageRefs, type RowRef, type StaticRow, type StatsOf } from '../../domain/prediction/listing.ts';

/**
 * A markets page straight to JSON: each row's unchanging fields are serialised once (cached by
 * the row's static object) and only the moving ones (status, best prices, volumes, spread) are
 * written per request. A 500-row page is ~700 KB; this keeps it a string concatenation.
 * The body equals `JSON.stringify` of the built rows (a test holds it to that).
 */
const fragments = new WeakMap<StaticRow, string>();

function fragmentOf(row: StaticRow): string {
  let f = fragments.get(row);
  if (f === undefined) {
    // Escaped to ASCII (valid JSON): the page then stays a one-byte string, which the socket
    // write copies as is instead of encoding to UTF-8.
    f = JSON.stringify(row)
      .slice(0, -1)
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    fragments.set(row, f);
  }
  return f;
}

const num = (x: number | null) => (x === null ? 'null' : String(x));

function rowJson(ref: RowRef, statsOf: StatsOf, now_ms: number): string {
  const f = rowFigures(ref, statsOf, now_ms);
  return (
    `${fragmentOf(staticRowOf(ref))},"status":"${f.status}","volume_24h":${num(f.volume_24h)},"volume_total":${num(f.volume_total)},` +
    `"best_yes_bid":${num(f.best_yes_bid)},"best_yes_ask":${num(f.best_yes_ask)},"best_no_bid":${num(f.best_no_bid)},"best_no_ask":${num(f.best_no_ask)},` +
    `"spread_pct":${num(f.spread_pct)}}`
  );
}

export function marketsPageJson(refs: PageRefs, statsOf: StatsOf, now_ms: number): string {
  const rows = refs.rows.map((ref) => rowJson(ref, statsOf, now_ms));
  return `{"markets":[${rows.join(',')}],"count":${rows.length},"venue":"${refs.venue}","has_more":${refs.has_more},"next_cursor":${refs.next_cursor === null ? 'null' : JSON.stringify(refs.next_cursor)}}`;
}
