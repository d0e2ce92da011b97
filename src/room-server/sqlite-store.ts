/**
 * The room kept under `--data DIR`: one node:sqlite file, `DIR/room.sqlite` (built into Node, no
 * native module), with two tables — `documents` (a Yjs document's whole state, by name: what the
 * Hocuspocus database extension fetches and stores) and `records` (the private state's records,
 * `RoomStateBackend`). Also the memory backend used without `--data`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { RoomStateBackend, StateRecord } from './seams.ts';

/** The file name inside `--data DIR`. */
export const ROOM_DB_FILE = 'room.sqlite';

/** One room's sqlite file: documents and private records. Synchronous (node:sqlite); one writer process. */
export class RoomSqlite {
  private sealed = false;

  private constructor(private readonly db: DatabaseSync) {}

  /** Opens (creating the folder and tables) `dir/room.sqlite`. @throws Error when the folder cannot be written */
  static open(dir: string): RoomSqlite {
    mkdirSync(dir, { recursive: true });
    const db = new DatabaseSync(join(dir, ROOM_DB_FILE));
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('CREATE TABLE IF NOT EXISTS documents (name TEXT PRIMARY KEY, data BLOB NOT NULL)');
    db.exec('CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, id TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, id))');
    return new RoomSqlite(db);
  }

  /** The stored state of document `name` (a Yjs update), or null. */
  fetchDocument(name: string): Uint8Array | null {
    const row = this.db.prepare('SELECT data FROM documents WHERE name = ?').get(name) as { data: Uint8Array } | undefined;
    return row ? new Uint8Array(row.data) : null;
  }

  storeDocument(name: string, data: Uint8Array): void {
    if (this.sealed) return;
    this.db.prepare('INSERT INTO documents (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data').run(name, data);
  }

  /** The private state's records in this file. */
  backend(): RoomStateBackend {
    const db = this.db;
    const put = (r: StateRecord): void => {
      if (r.value === null || r.value === undefined) db.prepare('DELETE FROM records WHERE kind = ? AND id = ?').run(r.kind, r.id);
      else db.prepare('INSERT INTO records (kind, id, value) VALUES (?, ?, ?) ON CONFLICT(kind, id) DO UPDATE SET value = excluded.value').run(r.kind, r.id, JSON.stringify(r.value));
    };
    return {
      async follow(apply) {
        const rows = db.prepare('SELECT kind, id, value FROM records').all() as { kind: string; id: string; value: string }[];
        apply(rows.map((r) => ({ kind: r.kind, id: r.id, value: JSON.parse(r.value) as unknown })), true);
        return () => {};
      },
      async put(...records) {
        db.exec('BEGIN');
        try {
          records.forEach(put);
          db.exec('COMMIT');
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      },
      async claim(kind, id, value) {
        return Number(db.prepare('INSERT OR IGNORE INTO records (kind, id, value) VALUES (?, ?, ?)').run(kind, id, JSON.stringify(value)).changes) === 1;
      },
      async wipe() {
        db.exec('DELETE FROM records');
      },
      async close() {},
    };
  }

  /** Removes every document and record (an ended room's identity too), then compacts the file: the folder holds a new room from here. */
  clear(): void {
    this.db.exec('DELETE FROM documents');
    this.db.exec('DELETE FROM records');
    this.compact();
  }

  /** Rewrites the file without free pages, so no deleted text (a wiped room's names and prompts) stays in it. */
  /**
   * After the room's end: later document stores are dropped, so what the server writes into the
   * ended room's document (its final results) lives only in memory.
   */
  sealDocuments(): void {
    this.sealed = true;
  }

  compact(): void {
    this.db.exec('VACUUM');
    // The write-ahead log still holds the old pages (names, texts) until checkpointed: empty it now.
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/** A backend that keeps nothing (a room without `--data`): claims are checked against what it was given. */
export function memoryBackend(): RoomStateBackend {
  const claimed = new Set<string>();
  return {
    async follow(apply) {
      apply([], true);
      return () => {};
    },
    async put(...records) {
      for (const r of records) if (r.value === null || r.value === undefined) claimed.delete(`${r.kind}\u0000${r.id}`);
    },
    async claim(kind, id) {
      const key = `${kind}\u0000${id}`;
      if (claimed.has(key)) return false;
      claimed.add(key);
      return true;
    },
    async wipe() {
      claimed.clear();
    },
    async close() {},
  };
}
