/**
 * Text metadata in a PNG file: iTXt chunks (PNG 1.2 / ISO 15948, §11.3.4.5: keyword, NUL,
 * compression flag 0, method 0, empty language tag and translated keyword, then UTF-8 text),
 * inserted after the IHDR chunk, so an exported chart carries its title and model caveat in the
 * file as well as in the picture. `pngTexts` reads them back (tests, readers of an export). Pure;
 * CRC-32 as in the PNG specification's Annex D.
 */

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

let crcTable: Uint32Array | null = null;

/** CRC-32 (polynomial 0xEDB88320) of `bytes`, as PNG chunks use. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = crcTable[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const isPng = (png: Uint8Array): boolean => png.length >= 33 && SIGNATURE.every((b, i) => png[i] === b);

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typed = new TextEncoder().encode(type);
  out.set(typed, 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * `png` with one iTXt chunk per entry of `texts` (keyword → text; keywords 1–79 Latin-1
 * characters, e.g. "Title", "Description") after its IHDR chunk.
 * @throws Error when `png` is not a PNG file or a keyword is empty or too long
 */
export function withPngTexts(png: Uint8Array, texts: Readonly<Record<string, string>>): Uint8Array {
  if (!isPng(png)) throw new Error('Not a PNG file.');
  const encoder = new TextEncoder();
  const chunks = Object.entries(texts).map(([keyword, text]) => {
    if (keyword.length < 1 || keyword.length > 79) throw new Error(`A PNG text keyword has 1 to 79 characters: "${keyword}".`);
    const key = encoder.encode(keyword);
    const value = encoder.encode(text);
    // keyword NUL, compression flag 0, method 0, language tag "" NUL, translated keyword "" NUL, text
    const data = new Uint8Array(key.length + 5 + value.length);
    data.set(key, 0);
    data.set(value, key.length + 5);
    return chunk('iTXt', data);
  });
  const ihdrEnd = 8 + 12 + new DataView(png.buffer, png.byteOffset).getUint32(8);
  const size = chunks.reduce((n, c) => n + c.length, png.length);
  const out = new Uint8Array(size);
  out.set(png.subarray(0, ihdrEnd), 0);
  let at = ihdrEnd;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  out.set(png.subarray(ihdrEnd), at);
  return out;
}

/** The iTXt entries of `png` (keyword → text), in file order; {} for none or a file that is not a PNG. */
export function pngTexts(png: Uint8Array): Record<string, string> {
  const found: Record<string, string> = {};
  if (!isPng(png)) return found;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const decoder = new TextDecoder();
  for (let at = 8; at + 12 <= png.length;) {
    const length = view.getUint32(at);
    const type = decoder.decode(png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'iTXt') {
      const keyEnd = data.indexOf(0);
      // after the keyword: flag, method, language tag NUL, translated keyword NUL
      const langEnd = data.indexOf(0, keyEnd + 3);
      const transEnd = data.indexOf(0, langEnd + 1);
      if (keyEnd > 0 && langEnd > 0 && transEnd > 0 && data[keyEnd + 1] === 0) found[decoder.decode(data.subarray(0, keyEnd))] = decoder.decode(data.subarray(transEnd + 1));
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return found;
}
