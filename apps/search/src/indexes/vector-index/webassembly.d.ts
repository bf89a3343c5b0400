// The part of the WebAssembly JavaScript API that sparse-query-scan.ts uses: Node has had it since
// its first releases, but @types/node 20 does not declare it and the project's `lib` leaves out
// the DOM's (remove this file once @types/node declares the namespace).
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
}
