import { Type, type Static } from 'typebox';
import type { GatewayContext } from '../context.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { KillSwitchSchema } from '../schemas/risk.ts';
import { FreeText } from '../schemas/common.ts';

const SetKillSwitchReq = Type.Object(
  {
    active: Type.Boolean({ description: 'true halts all new dispatch and cancels working orders' }),
    reason: Type.Optional(FreeText(500)),
  },
  { $id: 'SetKillSwitchReq', additionalProperties: false },
);

export function killSwitchRoutes(ctx: GatewayContext): RouteSpec[] {
  return [
    {
      method: 'put',
      path: '/v1/kill_switch',
      operationId: 'setKillSwitch',
      summary: 'Activate or release the global kill switch (admin only)',
      tags: ['risk'],
      auth: 'admin',
      body: SetKillSwitchReq,
      responses: {
        200: {
          description: 'The new state',
          schema: Type.Object({ status: Type.String({ enum: ['active', 'inactive'] }), kill_switch: KillSwitchSchema }),
        },
      },
      handler: async (req) => {
        const body = req.body as Static<typeof SetKillSwitchReq>;
        const who = principalOf(req).client_id;
        const state = await ctx.killSwitch.set(body.active, body.reason ?? null, who);
        ctx.log.warn({ active: state.active, reason: state.reason, by: who }, 'kill switch changed');
        return { status: 200, body: { status: state.active ? 'active' : 'inactive', kill_switch: state } };
      },
    },
  ];
}
