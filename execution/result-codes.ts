/**
 * What the execution engine answers when it refuses a request: a numbered result code (one range
 * per subsystem, as exchange-core's), a message, and the request field at fault when there is
 * one. The engine knows nothing of HTTP; the gateway maps each code to the spec's error
 * envelope (gateway/errors.ts `fromResult`).
 */
export const ResultCode = {
  // 1000-1099: admission of a new order
  INVALID_FIELD: 1000,
  UNKNOWN_SYMBOL: 1001,
  IDEMPOTENCY_CONFLICT: 1010,
  DISPATCH_HALTED: 1020,
  // 1100-1199: orders and armed graphs that exist (or not)
  ORDER_NOT_FOUND: 1100,
  GRAPH_NOT_FOUND: 1101,
  GRAPH_NOT_ARMED: 1102,
  // 1200-1299: durability
  JOURNAL_UNAVAILABLE: 1200,
  // 1300-1399: sandbox accounts (the sandbox endpoints)
  /** a sandbox message to a live router: a live key reaches only live infrastructure */
  SANDBOX_ONLY: 1300,
  /** a write would leave the sandbox account with more positions than it may hold */
  SANDBOX_POSITIONS_LIMIT: 1301,
  // 1400-1499: strategy deployments
  DEPLOYMENT_NOT_FOUND: 1400,
  /** the `deployment_id` override names an existing deployment */
  DEPLOYMENT_EXISTS: 1401,
  /** starting a running deployment, deleting one that runs */
  DEPLOYMENT_RUNNING: 1402,
  BUNDLE_NOT_FOUND: 1403,
  /** the client's deployments (or running ones) are at their limit */
  DEPLOYMENT_LIMIT: 1404,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

export class ExecutionRefusal extends Error {
  constructor(
    readonly code: ResultCode,
    message: string,
    /** the request field at fault, for INVALID_FIELD */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'ExecutionRefusal';
  }
}

export function refuse(code: ResultCode, message: string, field: string | null = null): ExecutionRefusal {
  return new ExecutionRefusal(code, message, field);
}
