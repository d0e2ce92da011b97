/**
 * A GGUF model file's structural check, before it is kept in browser storage: the header
 * (magic "GGUF", version 1–3, tensor and metadata counts), every metadata entry and tensor
 * description readable inside the file, and the file long enough for every tensor's data. A file
 * cut short by a download or a copy, or "GGUF" followed by other bytes, is refused with what is
 * wrong, instead of being kept and loading as a model with a context of 0 tokens.
 *
 * Layout (ggml's docs/gguf.md, little-endian): magic u32, version u32, tensor_count u64,
 * metadata_kv_count u64; each metadata entry: key (u64 length + UTF-8), value type u32, value;
 * each tensor: name, n_dims u32, dims u64 × n_dims, ggml type u32, offset u64 (from the data
 * section); the data section starts at the header's end rounded up to `general.alignment`
 * (default 32). Tensor byte sizes use ggml's block sizes and block byte sizes (ggml.c
 * `type_traits`); a tensor of a type not in that table is checked only for its start. Pure.
 */

import { MetattlError } from '../common/errors.ts';

/** What reads bytes of the file: `[offset, offset + length)`, fewer at its end. */
export type ByteReader = (offset: number, length: number) => Promise<Uint8Array>;

/** ggml type → [elements per block, bytes per block] (ggml.c `type_traits`). */
const GGML_TYPES: Record<number, [number, number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 36],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110], 22: [256, 82],
  23: [256, 136], 24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8], 29: [256, 56], 30: [1, 2],
  34: [256, 54], 35: [256, 66],
};

/** Metadata value types: fixed byte sizes (8 string, 9 array are variable). */
const VALUE_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** Most entries (metadata or tensors) a real model has by far; more means the counts are garbage. */
const MAX_ENTRIES = 1_000_000;

/** The prefix read so far ends inside the header (internal: more bytes are fetched). */
class OutOfBytes extends MetattlError {
  constructor(message = 'The header goes on past the bytes read.') {
    super('gguf_out_of_bytes', message);
  }
}
/** The header is not a GGUF header we can read (internal: reported as not a model file). */
class Bad extends MetattlError {
  constructor(message: string) {
    super('gguf_bad_header', message);
  }
}

/** Reads the header from a prefix of the file; throws OutOfBytes when the prefix is too short. */
class Cursor {
  pos = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number): void {
    if (this.pos + n > this.bytes.byteLength) throw new OutOfBytes();
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u64(what: string): number {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Bad(`${what} is ${v}, not a possible size`);
    return Number(v);
  }
  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }
  string(what: string): string {
    const n = this.u64(`the length of ${what}`);
    this.need(n);
    const s = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
}

/** Skip one metadata value of `type`; the value itself when it is an integer (for general.alignment). */
function skipValue(c: Cursor, type: number, key: string): number | null {
  if (type === 8) {
    c.string(`metadata "${key}"`);
    return null;
  }
  if (type === 9) {
    const itemType = c.u32();
    const n = c.u64(`the length of metadata "${key}"`);
    const fixed = VALUE_BYTES[itemType];
    if (fixed !== undefined) c.skip(n * fixed);
    else if (itemType === 8 || itemType === 9) for (let i = 0; i < n; i++) skipValue(c, itemType, key);
    else throw new Bad(`metadata "${key}" is an array of unknown type ${itemType}`);
    return null;
  }
  const size = VALUE_BYTES[type];
  if (size === undefined) throw new Bad(`metadata "${key}" has unknown value type ${type}`);
  if (type === 4 || type === 5) return c.u32();
  c.skip(size);
  return null;
}

/** Parse the header in `bytes` (a prefix of the file); the bytes the tensors' data needs. */
function parseHeader(bytes: Uint8Array): { headerBytes: number; neededBytes: number; tensors: number } {
  const c = new Cursor(bytes);
  if (bytes.byteLength >= 4 && new TextDecoder().decode(bytes.subarray(0, 4)) !== 'GGUF') throw new Bad('it does not start with "GGUF"');
  c.skip(4);
  const version = c.u32();
  if (version < 1 || version > 3) throw new Bad(`its GGUF version is ${version}, not 1, 2 or 3`);
  const tensorCount = c.u64('the tensor count');
  const kvCount = c.u64('the metadata count');
  if (tensorCount > MAX_ENTRIES || kvCount > MAX_ENTRIES) throw new Bad(`its header names ${tensorCount} tensors and ${kvCount} metadata entries, not a model's`);
  if (tensorCount === 0) throw new Bad('it has no tensors');
  let alignment = 32;
  for (let i = 0; i < kvCount; i++) {
    const key = c.string(`metadata key ${i + 1}`);
    const type = c.u32();
    const value = skipValue(c, type, key);
    if (key === 'general.alignment' && value !== null) alignment = value;
  }
  if (!(alignment > 0) || (alignment & (alignment - 1)) !== 0) throw new Bad(`its general.alignment ${alignment} is not a power of two`);
  let needed = 0;
  for (let i = 0; i < tensorCount; i++) {
    const name = c.string(`tensor ${i + 1}'s name`);
    const dims = c.u32();
    if (dims > 8) throw new Bad(`tensor "${name}" has ${dims} dimensions`);
    let elements = 1;
    for (let d = 0; d < dims; d++) elements *= c.u64(`a dimension of tensor "${name}"`);
    const type = c.u32();
    const offset = c.u64(`tensor "${name}"'s offset`);
    const traits = GGML_TYPES[type];
    const size = traits ? Math.ceil(elements / traits[0]) * traits[1] : 0;
    needed = Math.max(needed, offset + size);
  }
  const dataStart = Math.ceil(c.pos / alignment) * alignment;
  return { headerBytes: c.pos, neededBytes: dataStart + needed, tensors: tensorCount };
}

/**
 * What is wrong with a GGUF model file, or null when its header and size are whole.
 * `read` gives bytes of the file; `sizeBytes` is its length. The header is read in growing
 * prefixes (1 MiB, doubled up to the whole file), so a model's large vocabulary costs a few reads.
 * @returns a sentence fragment, e.g. `it is cut short: 1,000 of 98,362,432 bytes (the tensors need …)`
 */
export async function ggufProblem(read: ByteReader, sizeBytes: number): Promise<string | null> {
  if (sizeBytes < 24) return `it is ${sizeBytes} bytes long, too short for a GGUF header`;
  for (let length = Math.min(sizeBytes, 1 << 20); ; length = Math.min(sizeBytes, length * 2)) {
    try {
      const { neededBytes } = parseHeader(await read(0, length));
      if (sizeBytes < neededBytes) return `it is cut short: ${sizeBytes.toLocaleString('en')} bytes, and its tensors need ${neededBytes.toLocaleString('en')}`;
      return null;
    } catch (error) {
      if (error instanceof Bad) return error.message;
      if (!(error instanceof OutOfBytes)) throw error;
      if (length >= sizeBytes) return `it is cut short or damaged: its header runs past the end of the file (${sizeBytes.toLocaleString('en')} bytes)`;
    }
  }
}

/** `ggufProblem` of a Blob (a picked file, a finished download, a stored model). */
export function ggufBlobProblem(blob: Blob): Promise<string | null> {
  return ggufProblem(async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()), blob.size);
}
