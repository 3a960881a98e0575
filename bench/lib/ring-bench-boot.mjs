// Worker threads do not inherit the parent's module hooks on Node 20: register tsx here, then
// load the TypeScript entry (same pattern as engine/worker-boot.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./ring-bench-worker.ts');
