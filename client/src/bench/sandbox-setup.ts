import { ok } from '../errors.ts';
import type { components, ServiceClient } from '../index.ts';
import { midOf, touchOf } from './runner.ts';
import type { Scenario } from './scenario.ts';

/** Inventory each venue holds of each symbol's base asset after setup, in USD at the mid. */
const BASE_INVENTORY_USD = 1_000_000n;

/**
 * Makes a sandbox account ready for a run: reset (every venue funded with its quote assets, open
 * orders gone), then each spot symbol's base asset seeded on each of its venues, so the flow's
 * sells fill as its buys do instead of ending `insufficient_balance`. Destroys the sandbox
 * account's state, so it runs only when asked (`seq bench --sandbox-setup`).
 */
export async function prepareSandbox(client: ServiceClient, scenario: Scenario): Promise<{ venues_seeded: number; positions_written: number }> {
  const reset = ok(await client.POST('/v1/sandbox/reset'));
  const listed = ok(await client.GET('/v1/symbols')).symbols;
  const positions: components['schemas']['SandboxPositionReq'][] = [];
  for (const symbol of scenario.symbols) {
    const info = listed.find((s) => s.symbol === symbol && s.instrument_type === 'spot');
    if (info === undefined) continue;
    const mid_1e9 = midOf(touchOf(ok(await client.GET('/v1/quotes/{symbol}', { params: { path: { symbol } } })).nbbo));
    if (mid_1e9 <= 0n) continue;
    const qty_1e8 = (BASE_INVENTORY_USD * 1_000_000_000n * 100_000_000n) / mid_1e9;
    // The endpoint takes decimal units; 8 places print exactly from a double of that size.
    const qty = Number(qty_1e8) / 1e8;
    for (const v of info.venues) positions.push({ venue: v.venue as components['schemas']['SandboxPositionReq']['venue'], kind: 'crypto', symbol: info.base, qty });
  }
  const written = positions.length === 0 ? { written: 0 } : ok(await client.POST('/v1/sandbox/positions', { body: { positions, replace: false } }));
  return { venues_seeded: reset.venues_seeded.length, positions_written: written.written };
}
