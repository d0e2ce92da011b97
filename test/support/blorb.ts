/** Test support: build a minimal Blorb file (Blorb spec 2.0: FORM/IFRS, RIdx, one Exec chunk). */

const fourCC = (id: string): number[] => [...id].map((c) => c.charCodeAt(0));
const u32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** Wrap a story file as an Exec resource of type `chunkType` ("ZCOD" or "GLUL"). */
export function makeBlorb(story: Uint8Array, chunkType = 'ZCOD'): Uint8Array {
  const ridxData = [...u32(1), ...fourCC('Exec'), ...u32(0), ...u32(12 + 8 + 16)];
  const ridx = [...fourCC('RIdx'), ...u32(ridxData.length), ...ridxData];
  const pad = story.length % 2;
  const total = 4 + ridx.length + 8 + story.length + pad;
  const out = new Uint8Array(8 + total);
  out.set([...fourCC('FORM'), ...u32(total), ...fourCC('IFRS'), ...ridx], 0);
  const at = 12 + ridx.length;
  out.set([...fourCC(chunkType), ...u32(story.length)], at);
  out.set(story, at + 8);
  return out;
}
