/**
 * An uploaded algo artifact, checked before anything is stored (pure: no I/O). A WebAssembly
 * module built for the public algo ABI: the five callbacks and `memory` exported, imports only
 * from what the host provides. Its memory gets a hard cap written into the module itself (the
 * memory section's maximum), so `memory.grow` past the cap fails inside the algo instead of
 * taking the process's memory.
 */
export const REQUIRED_EXPORTS = ['algo_alloc', 'algo_on_book', 'algo_on_fill', 'algo_on_reject', 'algo_on_shutdown'] as const;
/** Extension (docs/deployments.md): mesh messages. */
export const OPTIONAL_EXPORTS = ['algo_on_mesh'] as const;
/** What the host provides: the ABI's log, and the mesh extension's send. */
export const HOST_IMPORTS = ['host_log_impl', 'host_mesh_send'] as const;

export const WASM_PAGE = 65_536;

export type ArtifactCheck = { ok: true; module: WebAssembly.Module; bytes: Uint8Array; has_mesh: boolean } | { ok: false; message: string };

/** Checks an artifact and caps its memory at `maxBytes`; the answer's module is the capped one. */
export function checkArtifact(bytes: Uint8Array, maxBytes: number): ArtifactCheck {
  if (!WebAssembly.validate(bytes)) return { ok: false, message: 'artifact is not a valid WebAssembly module' };
  let module = new WebAssembly.Module(bytes);
  const exports = new Map(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
  const missing = REQUIRED_EXPORTS.filter((name) => exports.get(name) !== 'function');
  if (missing.length > 0) return { ok: false, message: `artifact does not export ${missing.join(', ')} (the algo ABI's callbacks)` };
  if (exports.get('memory') !== 'memory') return { ok: false, message: 'artifact does not export its memory as `memory`' };
  for (const imp of WebAssembly.Module.imports(module)) {
    const provided = imp.module === 'env' && imp.kind === 'function' && (HOST_IMPORTS as readonly string[]).includes(imp.name);
    if (!provided) return { ok: false, message: `artifact imports ${imp.module}.${imp.name} (${imp.kind}); the host provides only env.${HOST_IMPORTS.join(', env.')}` };
  }
  const capped = capMemory(bytes, Math.floor(maxBytes / WASM_PAGE));
  if (typeof capped === 'string') return { ok: false, message: capped };
  if (capped !== bytes) module = new WebAssembly.Module(capped);
  return { ok: true, module, bytes: capped, has_mesh: exports.get('algo_on_mesh') === 'function' };
}

/**
 * The module with its memory's maximum set to at most `maxPages` (the same bytes when it already
 * was), or why it cannot run under the cap. Only the memory section (id 5) is rewritten.
 */
export function capMemory(bytes: Uint8Array, maxPages: number): Uint8Array | string {
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at]!;
    const [size, sizeLen] = readLeb(bytes, at + 1);
    const payload = at + 1 + sizeLen;
    if (id === 5) {
      const [count, countLen] = readLeb(bytes, payload);
      if (count !== 1) return `artifact defines ${count} memories; the ABI has one`;
      let p = payload + countLen;
      const flags = bytes[p++]!;
      if (flags > 1) return 'artifact memory is shared or 64-bit; the ABI is wasm32 with one private memory';
      const [min, minLen] = readLeb(bytes, p);
      p += minLen;
      let max: number | undefined;
      if (flags === 1) max = readLeb(bytes, p)[0];
      if (min > maxPages) return `artifact asks for ${min * 64} KiB of initial memory; the cap is ${maxPages * 64} KiB`;
      if (max !== undefined && max <= maxPages) return bytes;
      const section = [...leb(1), 1, ...leb(min), ...leb(maxPages)];
      const out = new Uint8Array(bytes.length - (payload + size - at) + 1 + leb(section.length).length + section.length);
      out.set(bytes.subarray(0, at), 0);
      let o = at;
      out[o++] = 5;
      for (const b of leb(section.length)) out[o++] = b;
      for (const b of section) out[o++] = b;
      out.set(bytes.subarray(payload + size), o);
      return out;
    }
    at = payload + size;
  }
  return 'artifact defines no memory of its own (an imported memory is not part of the ABI)';
}

function readLeb(bytes: Uint8Array, at: number): [value: number, length: number] {
  let value = 0;
  let shift = 0;
  let i = at;
  for (;;) {
    const b = bytes[i++]!;
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) break;
    shift += 7;
  }
  return [value, i - at];
}

/** `value` as unsigned LEB128, WebAssembly's integer encoding. */
export function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let b = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) b |= 0x80;
    out.push(b);
  } while (value !== 0);
  return out;
}
