import { ok } from '../errors.ts';
import { isoMs, output, type Command, type Schemas } from './context.ts';
import { fromScaled } from './decimal.ts';
import { table } from './table.ts';

type Instrument = Schemas['Instrument'];

const usd = (v: number | bigint | null | undefined) => fromScaled(v, 9);

function instrumentName(i: Instrument): string {
  switch (i.kind) {
    case 'fiat':
      return i.code;
    case 'crypto':
      return i.symbol;
    case 'perp':
      return `${i.symbol} perp`;
    case 'event_contract':
      return `${i.market_slug}:${i.outcome}`;
  }
}

const positions: Command = {
  path: ['positions'],
  args: [],
  options: [],
  summary: 'positions with their marks and totals (a sandbox key: the sandbox book)',
  async run(ctx) {
    return output(ctx, ok(await ctx.api.GET('/v1/positions')), (d) => {
      const t = d.totals;
      return (
        table(
          ['venue', 'instrument', 'kind', 'qty', 'available', 'price USD', 'value USD', 'unrealized', 'realized', 'fees'],
          d.positions.map((p) => [
            p.venue,
            instrumentName(p.instrument),
            p.instrument.kind,
            fromScaled(p.qty_1e8, 8),
            fromScaled(p.available_qty_1e8, 8),
            usd(p.current_price_usd_1e9),
            usd(p.current_value_usd_1e9),
            usd(p.unrealized_pnl_usd_1e9),
            usd(p.realized_pnl_usd_1e9),
            usd(p.fees_usd_1e9),
          ]),
        ) +
        `${t.num_positions} positions; NAV $${usd(t.nav_usd_1e9)}, cash $${usd(t.cash_usd_1e9)}, unrealized $${usd(t.unrealized_pnl_usd_1e9)}, realized $${usd(t.realized_pnl_usd_1e9)}, fees $${usd(t.fees_usd_1e9)}\n`
      );
    });
  },
};

const keysList: Command = {
  path: ['keys', 'list'],
  args: [],
  options: [],
  summary: "the account's API keys (prefixes only: a raw key is shown once, at creation)",
  async run(ctx) {
    return output(ctx, ok(await ctx.api.GET('/v1/api_keys')), (keys) =>
      table(
        ['id', 'prefix', 'label', 'mode', 'active', 'last used', 'created'],
        keys.map((k) => [k.id, k.key_prefix, k.label, k.is_sandbox ? 'sandbox' : 'live', k.is_active, k.last_used_at ?? '-', k.created_at]),
      ),
    );
  },
};

const sandboxReset: Command = {
  path: ['sandbox', 'reset'],
  args: [],
  options: [],
  summary: 'reset the sandbox account: working orders end, balances seeded again (sandbox key)',
  async run(ctx) {
    return output(
      ctx,
      ok(await ctx.api.POST('/v1/sandbox/reset')),
      (d) => `sandbox reset at ${isoMs(Date.now())}: ${d.venues_seeded.length} venues seeded with $${d.initial_balance_usd} per quote asset (${d.venues_seeded.join(', ')}); ${d.orders_ended} working orders ended\n`,
    );
  },
};

export const accountCommands: readonly Command[] = [positions, keysList, sandboxReset];
