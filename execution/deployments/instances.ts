import { book } from '../../actors/market/directory.ts';
import { EDGES } from '../../domain/venues.ts';
import type { DeploymentInstance } from '../../storage/deployments.ts';

/** A deployment's algo instances are at most this many (edges x symbols). */
export const MAX_INSTANCES = 32;

/**
 * Where a deployment runs (pure): one instance per (algo-capable edge, symbol) the edge lists,
 * over the target venues (`venues`, else `[venue]`; null = every edge with
 * `supports_algo_runtime`). A target is a venue id (its edge of the instrument type) or an edge
 * id. Answers the instances, or the request field at fault and why.
 */
export function deploymentInstances(
  symbols: readonly string[],
  targets: readonly string[] | null,
  instrumentType: 'spot' | 'perp',
): DeploymentInstance[] | { field: string; message: string } {
  const capable = EDGES.filter((e) => e.instrument_type === instrumentType);
  let edges = capable.filter((e) => e.supports_algo_runtime);
  if (targets !== null) {
    edges = [];
    for (const [i, target] of targets.entries()) {
      const edge = capable.find((e) => e.edge_id === target) ?? capable.find((e) => e.venue === target);
      if (edge === undefined) {
        const known = EDGES.some((e) => e.venue === target || e.edge_id === target);
        return { field: `venues[${i}]`, message: known ? `${target} has no ${instrumentType} edge` : `unknown venue ${target}` };
      }
      if (!edge.supports_algo_runtime) return { field: `venues[${i}]`, message: `the ${edge.edge_id} edge does not support the algo runtime (supports_algo_runtime is false)` };
      if (!edges.includes(edge)) edges.push(edge);
    }
  }
  const instances: DeploymentInstance[] = [];
  for (const [symbol_id, symbol] of symbols.entries()) {
    const entry = book(symbol, instrumentType);
    if (entry === undefined) return { field: `symbols[${symbol_id}]`, message: `unknown ${instrumentType} symbol ${symbol}` };
    const on = edges.filter((e) => entry.edges.includes(e.edge_id));
    if (on.length === 0) return { field: `symbols[${symbol_id}]`, message: `no target edge lists ${symbol}` };
    for (const e of on) instances.push({ edge_id: e.edge_id, venue: e.venue, symbol, instrument_type: instrumentType, symbol_id });
  }
  if (instances.length > MAX_INSTANCES) return { field: 'symbols', message: `${instances.length} instances (edges x symbols); at most ${MAX_INSTANCES}` };
  return instances;
}
