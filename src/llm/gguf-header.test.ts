/**
 * The GGUF structural check refuses what cannot be a whole model — a file cut short anywhere
 * (header, metadata, tensor table, tensor data), "GGUF" followed by other bytes, another format —
 * and accepts a whole one: a real model (SmolLM2 Q4_1, the project's test model) and small files
 * written here to the GGUF layout. The download path refuses the same files with nothing kept.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ggufBlobProblem, ggufProblem } from './gguf-header.ts';
import { DownloadVerifyError, memoryPartialStore, resumableDownload } from './model-download.ts';

const REAL = readFileSync(join(homedir(), '.cache/metattl-models/SmolLM2-135M-Instruct.Q4_1.gguf'));
const readerOf = (bytes: Uint8Array) => async (offset: number, length: number) => bytes.subarray(offset, Math.min(bytes.length, offset + length));

/** A small GGUF v3 file: metadata (a string, an alignment, an array of strings) and two tensors (F32 [4], Q8_0 [2, 32]). */
function tinyGguf(alignment = 32): Uint8Array<ArrayBuffer> {
  const parts: number[] = [];
  const u32 = (v: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(...b); };
  const u64 = (v: number) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(...b); };
  const str = (s: string) => { u64(Buffer.byteLength(s)); parts.push(...Buffer.from(s)); };
  parts.push(...Buffer.from('GGUF'));
  u32(3); u64(2); u64(3);
  str('general.architecture'); u32(8); str('llama');
  str('general.alignment'); u32(4); u32(alignment);
  str('tokenizer.ggml.tokens'); u32(9); u32(8); u64(3); str('a'); str('bc'); str('def');
  str('w.f32'); u32(1); u64(4); u32(0); u64(0);
  str('w.q8'); u32(2); u64(32); u64(2); u32(8); u64(alignment);
  while (parts.length % alignment) parts.push(0);
  const data = alignment + 2 * 34; // 16 bytes of F32 padded to the alignment, then 2 Q8_0 blocks
  for (let i = 0; i < data; i++) parts.push(i & 255);
  return Uint8Array.from(parts);
}

describe('GGUF structural check', () => {
  it('accepts whole files: the real model and small ones with either alignment', async () => {
    expect(await ggufProblem(readerOf(REAL), REAL.length)).toBeNull();
    expect(await ggufBlobProblem(new Blob([tinyGguf()]))).toBeNull();
    expect(await ggufBlobProblem(new Blob([tinyGguf(64)]))).toBeNull();
  });

  it('refuses the real model cut in its tensor data, its tensor table and its metadata', async () => {
    expect(await ggufProblem(readerOf(REAL), REAL.length - 1000)).toBe(`it is cut short: ${(REAL.length - 1000).toLocaleString('en')} bytes, and its tensors need ${REAL.length.toLocaleString('en')}`);
    expect(await ggufProblem(readerOf(REAL.subarray(0, REAL.length / 2)), REAL.length / 2)).toMatch(/^it is cut short: /);
    for (const cut of [30, 1000, 500_000]) {
      expect(await ggufProblem(readerOf(REAL.subarray(0, cut)), cut)).toBe(`it is cut short or damaged: its header runs past the end of the file (${cut.toLocaleString('en')} bytes)`);
    }
  });

  it('refuses every cut of a small file, "GGUF" + random bytes, and other formats, saying what is wrong', async () => {
    const whole = tinyGguf();
    for (let cut = 0; cut < whole.length; cut++) {
      const problem = await ggufBlobProblem(new Blob([whole.slice(0, cut)]));
      expect(problem, `cut at ${cut}`).toMatch(/^it is (\d+ bytes long, too short for a GGUF header|cut short)/);
    }
    let x = 12345;
    const random = Uint8Array.from({ length: 65536 }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24));
    random.set(Buffer.from('GGUF'));
    expect(await ggufBlobProblem(new Blob([random]))).toMatch(/^its GGUF version is \d+, not 1, 2 or 3$/);
    random.set([3, 0, 0, 0], 4);
    expect(await ggufBlobProblem(new Blob([random]))).toMatch(/(not a possible size|not a model's)$/);
    expect(await ggufBlobProblem(new Blob(['PK\u0003\u0004'.padEnd(100, 'x')]))).toBe('it does not start with "GGUF"');
  });

  it('a download of a truncated or garbage GGUF is refused with nothing kept', async () => {
    const store = memoryPartialStore();
    const cut = new Uint8Array(REAL.subarray(0, 2 << 20));
    const fetchCut = async () => new Response(cut, { status: 200, headers: { 'content-length': String(cut.length) } });
    const refused = resumableDownload('https://x/m.gguf', { store, fetch: fetchCut, check: ggufBlobProblem });
    await expect(refused).rejects.toThrow(DownloadVerifyError);
    await expect(resumableDownload('https://x/m.gguf', { store, fetch: fetchCut, check: ggufBlobProblem })).rejects.toThrow(/m\.gguf is not usable: it is cut short/);
    expect(await store.info('https://x/m.gguf')).toBeNull();
    const tiny = tinyGguf();
    const ok = await resumableDownload('https://x/t.gguf', { store, fetch: async () => new Response(tiny, { status: 200 }), check: ggufBlobProblem });
    expect(ok.sizeBytes).toBe(tiny.length);
  });
});
