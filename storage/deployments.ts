import type { Databases } from './database.ts';

/**
 * Strategy deployments, per (client, mode): sandbox and live never mix, and another client's id
 * is not found.
 *
 *   deployments:          [client_id, mode, deployment_id] -> DeploymentRecord
 *   deployment_artifacts: [client_id, mode, deployment_id] -> the module's bytes (memory-capped)
 *
 * Written by the gateway thread (the deployments manager); read by the algo actors (their
 * instances and checkpoints) and the routers (the lineage gate) through their worker's reader.
 */
export type DeploymentMode = 'live' | 'sandbox';
export type DeploymentStatus = 'created' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

/** One algo instance: the deployment's algo on one edge for one symbol. */
export interface DeploymentInstance {
  edge_id: string;
  venue: string;
  symbol: string;
  instrument_type: 'spot' | 'perp';
  /** `symbol_id` in the L2Book the algo reads: the symbol's index in `symbols` */
  symbol_id: number;
}

/** What an instance had when last checkpointed (each fill, and at stop). */
export interface InstanceCheckpoint {
  position_1e8: number;
  avg_entry_1e9: number;
  realized_pnl_1e9: number;
  unrealized_pnl_1e9: number;
  orders_sent: number;
  fills: number;
  filled_qty_1e8: number;
  rejects: number;
  cancels: number;
  books: number;
  last_book_ms: number | null;
  open_orders: number;
}

export interface DeploymentRecord {
  deployment_id: string;
  client_id: string;
  mode: DeploymentMode;
  name: string | null;
  symbols: string[];
  /** as asked (`venues`, else `[venue]`), null for every capable edge */
  venues: string[] | null;
  instrument_type: 'spot' | 'perp';
  instances: DeploymentInstance[];
  status: DeploymentStatus;
  reason: string | null;
  mesh_group: string | null;
  mesh_label: string | null;
  config: unknown;
  bundle_id: string | null;
  artifact_sha256: string;
  artifact_bytes: number;
  has_mesh: boolean;
  created_at_ms: number;
  started_at_ms: number | null;
  stopped_at_ms: number | null;
  updated_at_ms: number;
  /** Starts so far: the epoch in its orders' client_order_ids, so a restart never reuses one. */
  starts: number;
  checkpoints: InstanceCheckpoint[];
}

export class DeploymentStore {
  constructor(private readonly db: Databases) {}

  get(client: string, mode: DeploymentMode, id: string): DeploymentRecord | undefined {
    return this.db.deployments.get([client, mode, id]) as DeploymentRecord | undefined;
  }

  /** As `get`, from a fresh read transaction (a reader on a worker sees the writer's last commit). */
  getFresh(client: string, mode: DeploymentMode, id: string): DeploymentRecord | undefined {
    this.db.root.resetReadTxn();
    return this.get(client, mode, id);
  }

  list(client: string, mode: DeploymentMode): DeploymentRecord[] {
    const out: DeploymentRecord[] = [];
    for (const { value } of this.db.deployments.getRange({ start: [client, mode, ''], end: [client, mode, '\uffff'] })) out.push(value as DeploymentRecord);
    return out;
  }

  /** Every deployment of every client (the manager at boot). */
  all(): DeploymentRecord[] {
    return [...this.db.deployments.getRange({})].map(({ value }) => value as DeploymentRecord);
  }

  put(record: DeploymentRecord): Promise<boolean> {
    return this.db.deployments.put([record.client_id, record.mode, record.deployment_id], record);
  }

  /** A put nobody awaits (a checkpoint): a failed commit is reported by the write guard, never an unhandled rejection. */
  putWatched(record: DeploymentRecord): void {
    this.db.writes.watch(this.put(record));
  }

  /** The record and its artifact in one transaction. */
  create(record: DeploymentRecord, artifact: Uint8Array): Promise<boolean> {
    const key: [string, DeploymentMode, string] = [record.client_id, record.mode, record.deployment_id];
    return this.db.root.transaction(() => {
      void this.db.deployments.put(key, record);
      void this.db.deploymentArtifacts.put(key, Buffer.from(artifact.buffer, artifact.byteOffset, artifact.byteLength));
      return true;
    });
  }

  artifact(client: string, mode: DeploymentMode, id: string): Uint8Array | undefined {
    return this.db.deploymentArtifacts.get([client, mode, id]) ?? undefined;
  }

  remove(client: string, mode: DeploymentMode, id: string): Promise<boolean> {
    const key: [string, DeploymentMode, string] = [client, mode, id];
    return this.db.root.transaction(() => {
      void this.db.deployments.remove(key);
      void this.db.deploymentArtifacts.remove(key);
      return true;
    });
  }

  async durable(): Promise<void> {
    await this.db.root.flushed;
  }
}
