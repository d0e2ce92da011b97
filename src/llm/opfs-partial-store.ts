/**
 * The page's store of unfinished model downloads (model-download.ts's `PartialStore`) in the
 * Origin Private File System: one folder per URL under `metattl-downloads/`, holding `info.json`
 * (URL, validator, full size) and the chunks as numbered files. A chunk file appears only once
 * it is written whole (a writable commits on close), so after a reload the kept bytes are the
 * chunks 0…n−1 in order. Browser-only (navigator.storage); used by wllama-model-files.ts.
 */
import type { PartialInfo, PartialStore } from './model-download.ts';

const ROOT = 'metattl-downloads';
const INFO = 'info.json';

interface InfoFile {
  url: string;
  validator: string | null;
  totalBytes: number | null;
}

/** True when this browser can keep download chunks in the Origin Private File System. */
export function opfsAvailable(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function' && typeof FileSystemFileHandle !== 'undefined' && 'createWritable' in FileSystemFileHandle.prototype;
}

async function keyOf(url: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(url)));
  return [...digest.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const chunkName = (index: number): string => `${String(index).padStart(6, '0')}.part`;

async function root(): Promise<FileSystemDirectoryHandle> {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT, { create: true });
}

async function folder(url: string, create: boolean): Promise<FileSystemDirectoryHandle | null> {
  try {
    return await (await root()).getDirectoryHandle(await keyOf(url), { create });
  } catch {
    return null;
  }
}

async function writeFile(dir: FileSystemDirectoryHandle, name: string, data: Uint8Array | string): Promise<void> {
  const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
  try {
    await writable.write(data as FileSystemWriteChunkType);
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => undefined);
    throw error;
  }
}

/** The chunk files 0…n−1 that are all there, in order. */
async function chunks(dir: FileSystemDirectoryHandle): Promise<File[]> {
  const files: File[] = [];
  for (let i = 0; ; i++) {
    try {
      files.push(await (await dir.getFileHandle(chunkName(i))).getFile());
    } catch {
      return files;
    }
  }
}

async function infoIn(dir: FileSystemDirectoryHandle): Promise<PartialInfo | null> {
  try {
    const info = JSON.parse(await (await (await dir.getFileHandle(INFO)).getFile()).text()) as InfoFile;
    const kept = (await chunks(dir)).reduce((n, f) => n + f.size, 0);
    return { url: info.url, validator: info.validator, totalBytes: info.totalBytes, keptBytes: kept };
  } catch {
    return null;
  }
}

/** The OPFS-backed store of unfinished downloads (see the module note). */
export function opfsPartialStore(): PartialStore {
  const remove = async (url: string): Promise<void> => {
    await (await root()).removeEntry(await keyOf(url), { recursive: true }).catch(() => undefined);
  };
  return {
    info: async (url) => {
      const dir = await folder(url, false);
      return dir ? infoIn(dir) : null;
    },
    begin: async (url, facts) => {
      await remove(url);
      const dir = (await folder(url, true))!;
      await writeFile(dir, INFO, JSON.stringify({ url, ...facts } satisfies InfoFile));
    },
    append: async (url, bytes) => {
      const dir = await folder(url, false);
      if (!dir) throw new Error(`no download of ${url} was begun`);
      await writeFile(dir, chunkName((await chunks(dir)).length), bytes);
    },
    blob: async (url) => {
      const dir = await folder(url, false);
      return new Blob(dir ? await chunks(dir) : []);
    },
    remove,
    list: async () => {
      const out: PartialInfo[] = [];
      const top = await root();
      for await (const handle of (top as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
        if (handle.kind !== 'directory') continue;
        const info = await infoIn(handle as FileSystemDirectoryHandle);
        if (info) out.push(info);
      }
      return out;
    },
  };
}
