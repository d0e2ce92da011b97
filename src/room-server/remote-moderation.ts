/**
 * The teacher's moderation made on another server of the room, applied here: when another
 * server's change removes a participant or ends the room (a record that arrives through the
 * backend's `follow`), this server closes the live connections it holds for them, as the server
 * that received the teacher's request closes its own; and when it ends the room, this server wipes
 * its own part (its `--data` file, its scorer's runs; RoomActions.endedElsewhere). (Their HTTP and
 * model calls are refused everywhere at once already: every server reads the same records.)
 */
import type { ParticipantPublic } from '../room/protocol.ts';
import type { RoomStateBackend, StateRecord } from './seams.ts';

/** Closes this server's connections of one participant, or of every student (`null`). */
export type DisconnectHere = (participantId: string | null) => void;

/** The record that says the room ended. */
const isEndRecord = (r: StateRecord): boolean => r.kind === 'meta' && r.id === 'ended' && r.value === true;

/** Who a batch of another server's records asks to disconnect: participant ids, or `null` for every student. */
export function disconnectionsOf(records: StateRecord[], wipe: boolean): (string | null)[] {
  const out: (string | null)[] = [];
  for (const r of records) {
    if (r.kind === 'participant' && (r.value as ParticipantPublic | null)?.removed === true) out.push(r.id);
    if (isEndRecord(r)) out.push(null);
  }
  return wipe && records.length === 0 ? [null] : out;
}

/** Whether a batch of another server's records ends the room. */
export const endsRoom = (records: StateRecord[]): boolean => records.some(isEndRecord);

/**
 * `backend` whose `follow` also hands every later batch of another server's records to
 * `disconnect` (the first batch, the state as loaded, closes nothing), and calls `endedElsewhere`
 * when such a batch ends the room (the teacher's end reached another server). `disconnect` is read
 * when a batch arrives, so it may be set once the engine runs.
 */
export function withRemoteModeration(backend: RoomStateBackend, disconnect: () => DisconnectHere | null, endedElsewhere: () => void = () => {}): RoomStateBackend {
  return {
    follow: async (apply) => {
      let loaded = false;
      const stop = await backend.follow((records, wipe) => {
        apply(records, wipe);
        if (!loaded) return;
        const here = disconnect();
        for (const who of disconnectionsOf(records, wipe)) here?.(who);
        if (endsRoom(records)) endedElsewhere();
      });
      loaded = true;
      return stop;
    },
    put: (...records) => backend.put(...records),
    claim: (kind, id, value) => backend.claim(kind, id, value),
    wipe: () => backend.wipe(),
    close: () => backend.close(),
    ...(backend.takeSlot ? { takeSlot: backend.takeSlot.bind(backend) } : {}),
  };
}
