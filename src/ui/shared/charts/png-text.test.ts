/**
 * PNG text chunks: written after IHDR with valid CRCs, read back in order, UTF-8 kept (the
 * simulated model's caveat has an em dash), the image data untouched.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, pngTexts, withPngTexts } from './png-text.ts';

/** A 1×1 white RGB PNG, built here (signature, IHDR, IDAT, IEND). */
function tinyPng(): Uint8Array {
  const chunk = (type: string, data: Uint8Array): number[] => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const len = data.length;
    const crc = crc32(body);
    return [len >>> 24, (len >>> 16) & 255, (len >>> 8) & 255, len & 255, ...body, crc >>> 24, (crc >>> 16) & 255, (crc >>> 8) & 255, crc & 255];
  };
  const ihdr = new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const idat = new Uint8Array(deflateSync(Buffer.from([0, 255, 255, 255])));
  return new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, ...chunk('IHDR', ihdr), ...chunk('IDAT', idat), ...chunk('IEND', new Uint8Array())]);
}

/** Every chunk of a PNG: type and whether its CRC is right. */
function chunks(png: Uint8Array): { type: string; crcOk: boolean; data: Uint8Array }[] {
  const out = [];
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at < png.length;) {
    const len = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    out.push({ type, crcOk: crc32(png.subarray(at + 4, at + 8 + len)) === view.getUint32(at + 8 + len), data: png.subarray(at + 8, at + 8 + len) });
    at += 12 + len;
  }
  return out;
}

describe('PNG text chunks', () => {
  it('CRC-32 is the PNG one (the IEND chunk\'s well-known CRC)', () => {
    expect(crc32(new TextEncoder().encode('IEND')).toString(16)).toBe('ae426082');
  });

  it('writes iTXt chunks after IHDR and reads them back, UTF-8 and all', () => {
    const caveat = 'simulated model — not a language model; it shows how the loop works, not how real models behave';
    const png = withPngTexts(tinyPng(), { Title: 'Learning curve — The Lever Room (simulated model)', Description: caveat });
    expect(chunks(png).map((c) => c.type)).toEqual(['IHDR', 'iTXt', 'iTXt', 'IDAT', 'IEND']);
    expect(chunks(png).every((c) => c.crcOk)).toBe(true);
    expect(pngTexts(png)).toEqual({ Title: 'Learning curve — The Lever Room (simulated model)', Description: caveat });
    expect([...inflateSync(chunks(png).find((c) => c.type === 'IDAT')!.data)]).toEqual([0, 255, 255, 255]);
    expect(pngTexts(tinyPng())).toEqual({});
  });

  it('refuses what is not a PNG and keywords PNG does not allow', () => {
    expect(() => withPngTexts(new Uint8Array([1, 2, 3]), { Title: 'x' })).toThrow('Not a PNG file.');
    expect(() => withPngTexts(tinyPng(), { '': 'x' })).toThrow('1 to 79');
    expect(pngTexts(new Uint8Array([1, 2, 3]))).toEqual({});
  });
});
