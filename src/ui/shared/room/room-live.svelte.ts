/**
 * The room's document as reactive state for a view: a read-only connection (`connectRoom`,
 * src/room/room-client.ts) with the view's token, its latest snapshot, who is connected
 * (presence), the connection's status and a refusal in plain words. Reconnects by itself.
 */
import type { RoomPresence } from '../../../room/protocol.ts';
import { connectRoom, type RoomConnection, type RoomConnectionStatus } from '../../../room/room-client.ts';
import type { RoomState } from '../../../room/room-doc.ts';

/** The room server's WebSocket address for a page served by it: its origin with ws: / wss:. */
export const roomSocketUrl = (origin: string): string => origin.replace(/^http/, 'ws');

/** One view's live, read-only connection to the room's document, as reactive state. */
export class RoomLive {
  state = $state<RoomState | null>(null);
  presences = $state<RoomPresence[]>([]);
  status = $state<RoomConnectionStatus>('connecting');
  /** Why the server refused the token (ended room, wrong token), or null. */
  refused = $state<string | null>(null);
  private connection: RoomConnection | null = null;
  private readonly listeners: ((state: RoomState) => void)[] = [];

  /** Connects as `role` with `token` to the room at `origin`. */
  constructor(origin: string, token: string, role: RoomPresence['role']) {
    this.connection = connectRoom({
      url: roomSocketUrl(origin),
      token,
      presence: { role, participantId: null, name: null },
      onState: (state) => {
        this.state = state;
        for (const listener of this.listeners) listener(state);
      },
      onStatus: (status) => (this.status = status),
      onRefused: (reason) => (this.refused = reason || 'The room server did not accept this link.'),
    });
    const connection = this.connection;
    this.presences = connection.presences();
    connection.onPresence((list) => (this.presences = list));
  }

  /** Ids of the students connected now. */
  get onlineIds(): string[] {
    const ids = this.presences.filter((p) => p.role === 'student' && p.participantId !== null).map((p) => p.participantId!);
    return ids.filter((id, i) => ids.indexOf(id) === i);
  }

  /** Call `listener` after each change of the document. */
  onChange(listener: (state: RoomState) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.connection?.close();
    this.connection = null;
  }
}
