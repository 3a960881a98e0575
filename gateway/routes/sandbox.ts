import type { Static } from 'typebox';
import { decimalToScaled } from '../../domain/units.ts';
import { checkSandboxPositions } from '../../execution/sandbox.ts';
import type { SandboxSettings } from '../../storage/sandbox-settings.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { exactNumbers, numberTextAt } from '../http/exact-json.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import {
  SandboxPositionsReqSchema,
  SandboxPositionsRespSchema,
  SandboxResetReqSchema,
  SandboxResetRespSchema,
  SandboxSettingsReqSchema,
  SandboxSettingsSchema,
} from '../schemas/sandbox.ts';

/**
 * The sandbox endpoints (spec, "Sandbox (sandbox key required)", rules 1-9). Every route is
 * `auth: 'sandbox'`: a live key, the operator or a JWT gets 403 SANDBOX_ONLY before anything
 * else is looked at (the pipeline's permission step). Positions and resets go through the
 * client's sandbox router (`router:sandbox|<client>`), whose ledger is both the unified
 * positions and the balances its orders reserve from, so a write is seen by both at once and
 * answered once durable. Settings are the gateway's (LMDB, durable before the answer); a reset
 * makes the pending ones effective before the router resets.
 */
const tags = ['sandbox'];

/** The body cap of POST /v1/sandbox/positions: 10,000 positions of the longest form (~330 bytes each) fit. */
export const SANDBOX_POSITIONS_BODY_BYTES = 4 << 20;

/** A durable write failed (disk full, I/O): nothing of it was acknowledged. */
function storageFailed(ctx: GatewayContext, err: unknown, what: string): never {
  ctx.log.error({ err }, `${what}: durable write failed`);
  throw Errors.unavailable('STORAGE_UNAVAILABLE', `${what} was not stored`);
}

export function sandboxRoutes(ctx: GatewayContext): RouteSpec[] {
  const settings = ctx.storage.sandboxSettings;
  return [
    {
      method: 'post',
      path: '/v1/sandbox/positions',
      operationId: 'writeSandboxPositions',
      summary: 'Write sandbox positions (upsert by venue, kind and symbol, or replace them all)',
      description:
        'One unit: every position is checked first, and one bad position refuses the call with 400 and writes nothing. ' +
        `The body may be up to ${SANDBOX_POSITIONS_BODY_BYTES >> 20} MiB (413 beyond). ` +
        'The positions are the sandbox account: GET /v1/positions with the sandbox key shows them, and sandbox orders trade from them at once.',
      tags,
      auth: 'sandbox',
      body: SandboxPositionsReqSchema,
      // 10,000 positions with conditional-token-id symbols are about 1.6 MB of JSON.
      maxBodyBytes: SANDBOX_POSITIONS_BODY_BYTES,
      responses: { 200: { description: 'Written; durable before this answer', schema: SandboxPositionsRespSchema } },
      handler: async (req) => {
        const p = principalOf(req);
        const body = req.body as Static<typeof SandboxPositionsReqSchema>;
        // Numbers a double would have rounded are taken from their source text.
        const exact = req.bodyText === undefined ? undefined : exactNumbers(req.bodyText);
        const checked = checkSandboxPositions(body.positions, exact === undefined ? undefined : (i, field) => numberTextAt(exact, ['positions', i, field]));
        if ('errors' in checked) throw Errors.validation(checked.errors);
        const written = await ctx.execution.sandboxPositions(p.client_id, checked.rows, body.replace ?? false);
        ctx.log.info({ client_id: p.client_id, written: written.written, deleted: written.deleted }, 'sandbox positions written');
        return { status: 200, body: written };
      },
    },
    {
      method: 'post',
      path: '/v1/sandbox/reset',
      operationId: 'resetSandbox',
      summary: 'Reset the sandbox account: working orders end, positions go, each venue with markets is seeded with the initial balance per quote asset',
      description:
        'Makes the pending settings (PUT /v1/sandbox/settings) effective first: the balance seeded and the seed and fault knobs of the sandbox orders that follow.',
      tags,
      auth: 'sandbox',
      body: SandboxResetReqSchema,
      bodyRequired: false,
      responses: { 200: { description: 'Reset; durable before this answer', schema: SandboxResetRespSchema } },
      handler: async (req) => {
        const p = principalOf(req);
        let effective: SandboxSettings;
        try {
          effective = await settings.applyPending(p.client_id);
        } catch (err) {
          storageFailed(ctx, err, 'the sandbox reset');
        }
        const reset = await ctx.execution.sandboxReset(p.client_id, effective.initial_balance_usd);
        ctx.log.info({ client_id: p.client_id, initial_balance_usd: effective.initial_balance_usd, orders_ended: reset.orders_ended }, 'sandbox reset');
        return {
          status: 200,
          body: { reset: true, initial_balance_usd: effective.initial_balance_usd, venues_seeded: reset.venues_seeded, orders_ended: reset.orders_ended },
        };
      },
    },
    {
      method: 'get',
      path: '/v1/sandbox/settings',
      operationId: 'getSandboxSettings',
      summary: 'The sandbox settings the next reset makes effective (the defaults until set)',
      tags,
      auth: 'sandbox',
      responses: { 200: { description: 'Every setting', schema: SandboxSettingsSchema } },
      handler: (req) => ({ status: 200, body: settings.pending(principalOf(req).client_id) }),
    },
    {
      method: 'put',
      path: '/v1/sandbox/settings',
      operationId: 'setSandboxSettings',
      summary: 'Change the sandbox settings; they take effect on the next reset',
      description: 'A setting left out keeps its pending value; `seed: null` goes back to the service seed.',
      tags,
      auth: 'sandbox',
      body: SandboxSettingsReqSchema,
      responses: { 200: { description: 'Every setting, as the next reset will make them effective', schema: SandboxSettingsSchema } },
      handler: async (req) => {
        const p = principalOf(req);
        const body = req.body as Static<typeof SandboxSettingsReqSchema>;
        // The balance becomes quote-asset quantities in _1e8: more decimal places cannot be held.
        if (decimalToScaled(body.initial_balance_usd, 8) === undefined) {
          throw Errors.validation([{ field: 'initial_balance_usd', message: 'must have at most 8 decimal places' }]);
        }
        // It is kept as a number: one a double cannot hold exactly is refused, never rounded.
        const text = req.bodyText === undefined ? undefined : numberTextAt(exactNumbers(req.bodyText), ['initial_balance_usd']);
        if (text !== undefined && decimalToScaled(text, 8) !== decimalToScaled(body.initial_balance_usd, 8)) {
          throw Errors.validation([{ field: 'initial_balance_usd', message: `${text} has more significant digits than a balance keeps (15); send at most 15` }]);
        }
        let pending: SandboxSettings;
        try {
          pending = await settings.updatePending(p.client_id, body);
        } catch (err) {
          storageFailed(ctx, err, 'the sandbox settings');
        }
        return { status: 200, body: pending };
      },
    },
  ];
}
