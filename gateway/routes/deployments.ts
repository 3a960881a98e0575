import { Type, type Static } from 'typebox';
import type { CreateDeployment } from '../../execution/deployments/manager.ts';
import type { GatewayContext } from '../context.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';
import { CreateDeploymentBody, DeploymentIdParams, DeploymentLogs, DeploymentSchema } from '../schemas/deployments.ts';

const tags = ['deployments'];

/**
 * Strategy deployments (spec, Deployments; docs/deployments.md): WASM algos on the public algo
 * ABI run beside the books on the algo workers, their orders entered through the client's router
 * with the lineage. Per client and mode, like every resource.
 */
export function deploymentRoutes(ctx: GatewayContext): RouteSpec[] {
  const manager = ctx.deployments;
  const one = (summary: string, description?: string): Pick<RouteSpec, 'summary' | 'tags' | 'auth' | 'params'> & { description?: string } => ({
    summary,
    tags,
    auth: 'bearer',
    params: DeploymentIdParams,
    ...(description === undefined ? {} : { description }),
  });
  const id = (req: { params: Record<string, string | undefined> }) => req.params['deployment_id']!;
  return [
    {
      method: 'get',
      path: '/v1/deployments',
      operationId: 'listDeployments',
      summary: "The caller's deployments with live edge data",
      tags,
      auth: 'bearer',
      responses: { 200: { description: 'Deployments', schema: Type.Object({ deployments: Type.Array(DeploymentSchema) }) } },
      handler: async (req) => ({ status: 200, body: { deployments: await manager.list(principalOf(req)) } }),
    },
    {
      method: 'post',
      path: '/v1/deployments',
      operationId: 'createDeployment',
      summary: 'Deploy a WASM algo on symbols and venues',
      description:
        'The artifact is checked before anything is stored (valid WebAssembly, the five ABI callbacks and memory exported, imports only env.host_log_impl and env.host_mesh_send, memory within the cap). One instance runs per (target edge, symbol). With start_immediately it starts before the answer.',
      tags,
      auth: 'bearer',
      body: CreateDeploymentBody,
      maxBodyBytes: 2 * 1024 * 1024 + 64 * 1024,
      responses: {
        201: { description: 'Created (running when start_immediately)', schema: DeploymentSchema },
        404: { description: 'BUNDLE_NOT_FOUND' },
        409: { description: 'DEPLOYMENT_EXISTS (deployment_id taken), DEPLOYMENT_LIMIT' },
      },
      handler: async (req) => ({ status: 201, body: await manager.create(principalOf(req), req.body as Static<typeof CreateDeploymentBody> as CreateDeployment) }),
    },
    {
      method: 'get',
      path: '/v1/deployments/{deployment_id}',
      operationId: 'getDeployment',
      ...one('One deployment with live edge data'),
      responses: { 200: { description: 'Deployment', schema: DeploymentSchema }, 404: { description: 'Unknown deployment' } },
      handler: async (req) => ({ status: 200, body: await manager.get(principalOf(req), id(req)) }),
    },
    {
      method: 'delete',
      path: '/v1/deployments/{deployment_id}',
      operationId: 'deleteDeployment',
      ...one('Delete a deployment that is not running', 'Its orders and fills keep their lineage_deployment_id.'),
      responses: {
        200: { description: 'Deleted', schema: Type.Object({ deleted: Type.Literal(true), deployment_id: Type.String() }) },
        404: { description: 'Unknown deployment' },
        409: { description: 'DEPLOYMENT_RUNNING: stop it first' },
      },
      handler: async (req) => ({ status: 200, body: await manager.remove(principalOf(req), id(req)) }),
    },
    {
      method: 'post',
      path: '/v1/deployments/{deployment_id}/start',
      operationId: 'startDeployment',
      ...one('Start a created, stopped or failed deployment'),
      responses: {
        200: { description: 'Running, or failed with a reason', schema: DeploymentSchema },
        404: { description: 'Unknown deployment' },
        409: { description: 'DEPLOYMENT_RUNNING, DEPLOYMENT_LIMIT' },
      },
      handler: async (req) => ({ status: 200, body: await manager.start(principalOf(req), id(req)) }),
    },
    {
      method: 'post',
      path: '/v1/deployments/{deployment_id}/stop',
      operationId: 'stopDeployment',
      ...one('Stop a deployment: algo_on_shutdown, then every order it has open is cancelled', 'Idempotent: a deployment that is not running is answered as it is.'),
      responses: { 200: { description: 'Stopped', schema: DeploymentSchema }, 404: { description: 'Unknown deployment' } },
      handler: async (req) => ({ status: 200, body: await manager.stop(principalOf(req), id(req)) }),
    },
    {
      method: 'get',
      path: '/v1/deployments/{deployment_id}/logs',
      operationId: 'getDeploymentLogs',
      ...one("A deployment's log lines (host_log_impl and the host's own), oldest first", 'The newest `limit` lines of a ring of 1,000 kept in memory; `deployment_logs:<id>` on /v1/stream follows them live.'),
      query: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, default: 100 })),
        since_ms: Type.Optional(Type.Integer({ minimum: 0, description: 'only lines at or after this time' })),
      }),
      responses: { 200: { description: 'Log lines', schema: DeploymentLogs }, 404: { description: 'Unknown deployment' } },
      handler: (req) => {
        const q = req.query as { limit?: number; since_ms?: number };
        return { status: 200, body: { deployment_id: id(req), ...manager.logsOf(principalOf(req), id(req), q.limit ?? 100, q.since_ms) } };
      },
    },
  ];
}
