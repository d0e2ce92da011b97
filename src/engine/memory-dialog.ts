/**
 * An in-memory Glk `Dialog` (the file layer glkapi calls for save, restore and transcript files),
 * non-streaming. In-game `save` writes to a slot in this map and `restore` reads it back, so file
 * prompts never block a step. Slots are not part of snapshots; the engine clears them on reset()
 * so an episode never restores another episode's save.
 */

/** A file reference as glkapi passes it around. */
export interface FileRef {
  filename: string;
  usage: string;
  gameid?: string;
}

export class MemoryDialog {
  readonly streaming = false;
  private readonly files = new Map<string, number[] | string>();

  /** Forget every file (in-game saves, transcripts). */
  clear(): void {
    this.files.clear();
  }

  private key(ref: FileRef): string {
    return `${ref.usage}:${ref.filename}`;
  }

  /** The reference a file prompt is answered with (one fixed slot per file type). */
  promptAnswer(filetype: string): FileRef {
    return { filename: 'metattl-slot', usage: filetype };
  }

  file_construct_ref(filename: string, usage: string, gameid?: string): FileRef {
    return { filename: filename || 'metattl-slot', usage, gameid };
  }
  file_construct_temp_ref(usage: string): FileRef {
    return { filename: `temp-${this.files.size}`, usage };
  }
  file_clean_fixed_name(filename: string): string {
    return filename.replace(/[^\w.-]/g, '').slice(0, 64) || 'file';
  }
  file_ref_exists(ref: FileRef | null): boolean {
    return !!ref && this.files.has(this.key(ref));
  }
  file_remove_ref(ref: FileRef): void {
    this.files.delete(this.key(ref));
  }
  file_write(ref: FileRef, content: number[] | string): boolean {
    this.files.set(this.key(ref), typeof content === 'string' ? content : Array.from(content));
    return true;
  }
  file_read(ref: FileRef): number[] | null {
    const content = this.files.get(this.key(ref));
    if (content === undefined) return null;
    return typeof content === 'string' ? Array.from(content, (ch) => ch.charCodeAt(0)) : [...content];
  }
  autosave_read(): null {
    return null;
  }
  autosave_write(): void {}
}
