// The WebAssembly JS API as Node 20 provides it, the part the algo host uses. TypeScript
// declares it only in the DOM library, which this project does not load (its other globals are
// not Node's).
declare namespace WebAssembly {
  type ImportValue = (...args: number[]) => number | void;
  type Imports = Record<string, Record<string, ImportValue>>;
  interface ModuleExportDescriptor {
    name: string;
    kind: 'function' | 'table' | 'memory' | 'global';
  }
  interface ModuleImportDescriptor {
    module: string;
    name: string;
    kind: 'function' | 'table' | 'memory' | 'global';
  }
  class Module {
    constructor(bytes: BufferSource);
    static exports(module: Module): ModuleExportDescriptor[];
    static imports(module: Module): ModuleImportDescriptor[];
  }
  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class RuntimeError extends Error {}
  class CompileError extends Error {}
  function validate(bytes: BufferSource): boolean;
}
