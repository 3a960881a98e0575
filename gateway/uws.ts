import { createRequire } from 'node:module';
import type * as UwsModule from 'uWebSockets.js';

/**
 * Loads the native uWebSockets.js binary directly. The package's own entry point silently falls
 * back to a slow JavaScript shim when the binary does not load; a trading gateway must never
 * run on that, so a missing or incompatible binary stops start-up with a clear error.
 */
function loadNative(): typeof UwsModule {
  if (['1', 'true'].includes(String(process.env['UWS_USE_FALLBACK']).toLowerCase())) {
    throw new Error('UWS_USE_FALLBACK is set: the JavaScript fallback of uWebSockets.js is not allowed');
  }
  const require = createRequire(import.meta.url);
  const binary = `uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  try {
    return require(binary) as typeof UwsModule;
  } catch (err) {
    throw new Error(
      `uWebSockets.js native binary ${binary} failed to load (Node ${process.version} needs ABI ` +
        `${process.versions.modules}); refusing the JavaScript fallback: ${(err as Error).message}`,
    );
  }
}

export const uws = loadNative();
export type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_listen_socket } from 'uWebSockets.js';
