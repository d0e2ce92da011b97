/** Ambient types for ifvms' ZVM (CommonJS, untyped): the members our engine touches. */
declare module 'ifvms/src/zvm.js' {
  export default class ZVM {
    m: DataView;
    /** Dynamic memory (header included), writable. */
    ram: DataView;
    version: number;
    pc: number;
    globals: number;
    quit?: number;
    io: unknown;
    read_data: unknown;
    undo: unknown[];
    undo_len: number;
    mainwin: unknown;
    random(range: number): number;
    /** Writes the header fields the interpreter owns; called on start, restart and restore. */
    update_header(): void;
    restart(autorestoring?: number): void;
    restore_file(data: ArrayBuffer, autorestoring?: number): number;
    save_file(pc: number, autosaving?: number): ArrayBuffer;
    prepare(storyBytes: Uint8Array, options: Record<string, unknown>): void;
    /** First byte of static memory; JIT cache by address; dictionaries parsed since restart. */
    staticmem: number;
    jit: unknown[] | Record<number, unknown>;
    dictionaries: Record<number, unknown>;
    /** Compile the routine at `pc` into `jit[pc]`; parse and cache the dictionary at `addr`. */
    compile(): void;
    parse_dict(addr: number): unknown;
  }
}
