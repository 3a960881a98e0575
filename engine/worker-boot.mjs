// Worker threads do not inherit the parent's module hooks on Node 20, so each worker registers
// the TypeScript loader (tsx) itself before loading its real entry point.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
