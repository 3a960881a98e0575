/**
 * A raw uWS server (its native binary, never the JS shim) run as its own process with
 * `startScript`: the machine's ceiling for an HTTP JSON round trip. POST echoes the parsed body
 * back as `{echo}` with 201 (JSON parse and stringify, as a real handler does at least); GET
 * answers a fixed two-sided quote, which is what a load harness reads before it prices orders.
 */
export const ECHO_SERVER = `
const { createRequire } = require('node:module');
const uws = createRequire(process.cwd() + '/')(
  'uWebSockets.js/binaries/uws_' + process.platform + '_' + process.arch + '_' + process.versions.modules + '.node');
const QUOTE = JSON.stringify({ symbol: 'BTC-USDT', nbbo: { bid: 65000, ask: 65000.5 }, venues: {}, book: { bids: [], asks: [] } });
uws.App().post('/*', (res) => {
  let body = Buffer.alloc(0);
  res.onAborted(() => {});
  res.onData((chunk, last) => {
    body = Buffer.concat([body, Buffer.from(chunk)]);
    if (last) res.cork(() => { res.writeStatus('201 Created').writeHeader('content-type', 'application/json').end(JSON.stringify({ echo: JSON.parse(body.toString()) })); });
  });
}).get('/*', (res) => {
  res.cork(() => { res.writeHeader('content-type', 'application/json').end(QUOTE); });
}).listen('127.0.0.1', 0, (s) => console.log('PORT=' + uws.us_socket_local_port(s)));
`;
