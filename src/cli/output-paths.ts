/**
 * Output paths are checked before any work starts (and any money is spent): a file to write must
 * not be a directory and its folder must exist and be writable; an output directory is created.
 */
import { constants } from 'node:fs';
import { access, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from './usage-error.ts';

/** @throws UsageError when `path` cannot be written as a file */
export async function checkOutputFile(path: string, flag: string): Promise<void> {
  const full = resolve(path);
  const info = await stat(full).catch(() => null);
  if (info?.isDirectory()) throw new UsageError(`${flag} ${path} is a directory; give a file name`);
  const folder = dirname(full);
  const folderInfo = await stat(folder).catch(() => null);
  if (!folderInfo?.isDirectory()) throw new UsageError(`${flag} ${path}: the folder ${folder} does not exist`);
  await access(folder, constants.W_OK).catch(() => {
    throw new UsageError(`${flag} ${path}: the folder ${folder} is not writable`);
  });
}

/** Create `dir` (and parents). @throws UsageError when it exists as a file or cannot be created */
export async function prepareOutputDir(dir: string, flag: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (info && !info.isDirectory()) throw new UsageError(`${flag} ${dir} is a file, not a directory`);
  await mkdir(dir, { recursive: true }).catch((error: Error) => {
    throw new UsageError(`${flag} ${dir} cannot be created: ${error.message}`);
  });
  await access(dir, constants.W_OK).catch(() => {
    throw new UsageError(`${flag} ${dir} is not writable`);
  });
}

/** Read a text input file, naming it in the error. @throws Error "cannot read FILE: reason" */
export async function readInputText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === 'EISDIR' ? 'it is a directory' : code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new Error(`cannot read the ${what} ${path}: ${reason}`);
  }
}
