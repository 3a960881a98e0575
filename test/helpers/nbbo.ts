import assert from 'node:assert/strict';

/**
 * A consolidated NBBO as the spec has it: both sides priced. Across venues the best bid can sit
 * above the best ask for a moment (each venue's book moves on its own); the quote then says
 * `crossed` and zeroes `mid`, so a test holds those to the sides instead of asking ask >= bid.
 */
export function assertNbbo(nbbo: { bid: number; ask: number; mid?: number; crossed?: boolean }, where = ''): void {
  const what = `${where} ${JSON.stringify(nbbo)}`;
  assert.ok(nbbo.bid > 0 && nbbo.ask > 0, what);
  const crossed = nbbo.bid > nbbo.ask;
  if (nbbo.crossed !== undefined) assert.equal(nbbo.crossed, crossed, `crossed flag: ${what}`);
  if (nbbo.mid !== undefined) assert.ok(crossed ? nbbo.mid === 0 : Math.abs(nbbo.mid - (nbbo.bid + nbbo.ask) / 2) < 1e-6, `mid: ${what}`);
}
