import { createRequire } from 'node:module';
const u = createRequire(import.meta.url)('uWebSockets.js/binaries/uws_linux_x64_115.node');
u.App().any('/*', (res) => { res.onAborted(() => {}); Promise.resolve().then(() => res.cork(() => { res.writeHeader('content-type','application/json'); res.end('{"hello":"world"}') })) }).listen('127.0.0.1', 18184, () => {});
u.App().any('/*', (res) => { res.onAborted(() => {}); setImmediate(() => res.cork(() => { res.writeHeader('content-type','application/json'); res.end('{"hello":"world"}') })) }).listen('127.0.0.1', 18185, () => {});
