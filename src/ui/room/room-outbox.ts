/**
 * The student's outbox: a submission is kept (localStorage, by its `clientId`) before it is sent,
 * and removed once the room has it, so one made while the Wi-Fi is down is sent on reconnect. The
 * server is idempotent on `clientId`: a resend after a lost answer returns the first submission.
 * A submission the room refuses (a closed round, too long) leaves the outbox with its reason.
 * Storage and sending are injected. Pure otherwise.
 */
import type { SubmissionPublic, SubmitRequest } from '../../room/protocol.ts';
import type { KeyValueStorage } from './room-identity.ts';
import { RoomCallError } from './room-api.ts';
import { errorText } from '../shared/state/error-text.ts';

/** localStorage key of the outbox. */
export const OUTBOX_KEY = 'metattl.room.outbox';

/** A kept submission, and when it was made (ISO). */
export interface OutboxItem {
  request: SubmitRequest;
  madeAt: string;
  /** The participant it belongs to (a page that joins as someone else does not send it). */
  participantId: string;
}

/** What one `flush` did: sent, refused (with the room's reason) and still waiting. */
export interface FlushResult {
  sent: SubmissionPublic[];
  refused: { item: OutboxItem; message: string }[];
  waiting: number;
}

const isItem = (v: unknown): v is OutboxItem => {
  const r = (v as { request?: Partial<SubmitRequest> } | null)?.request;
  return typeof r?.clientId === 'string' && typeof r.roundId === 'string' && typeof r.text === 'string' && typeof (v as OutboxItem).participantId === 'string';
};

function readItems(storage: KeyValueStorage): OutboxItem[] {
  try {
    const value = JSON.parse(storage.getItem(OUTBOX_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter(isItem) : [];
  } catch {
    return [];
  }
}

export class Outbox {
  private sending: Promise<FlushResult> | null = null;
  /** The kept submissions (the storage's copy, read once; written through). */
  private kept: OutboxItem[];

  constructor(private readonly storage: KeyValueStorage) {
    this.kept = readItems(storage);
  }

  /** The kept submissions, oldest first. */
  items(): OutboxItem[] {
    return [...this.kept];
  }

  /** Keep `item` (a second one with the same clientId replaces nothing: it is ignored). */
  add(item: OutboxItem): void {
    const items = this.items();
    if (items.some((i) => i.request.clientId === item.request.clientId)) return;
    this.write([...items, item]);
  }

  /** Forget the submission `clientId`. */
  remove(clientId: string): void {
    this.write(this.items().filter((i) => i.request.clientId !== clientId));
  }

  /**
   * Send every kept submission of `participantId` in order with `send`. One that the network did
   * not carry (RoomCallError with status null) stops the flush and stays; one refused by the
   * room leaves the outbox (its message returned); one sent leaves it. Concurrent calls share one flush.
   */
  flush(participantId: string, send: (request: SubmitRequest) => Promise<SubmissionPublic>): Promise<FlushResult> {
    this.sending ??= this.drain(participantId, send).finally(() => (this.sending = null));
    return this.sending;
  }

  private async drain(participantId: string, send: (request: SubmitRequest) => Promise<SubmissionPublic>): Promise<FlushResult> {
    const result: FlushResult = { sent: [], refused: [], waiting: 0 };
    for (const item of this.items().filter((i) => i.participantId === participantId)) {
      try {
        result.sent.push(await send(item.request));
        this.remove(item.request.clientId);
      } catch (error) {
        if (error instanceof RoomCallError && error.status === null) break;
        result.refused.push({ item, message: errorText(error) });
        this.remove(item.request.clientId);
      }
    }
    result.waiting = this.items().filter((i) => i.participantId === participantId).length;
    return result;
  }

  private write(items: OutboxItem[]): void {
    this.kept = items;
    try {
      this.storage.setItem(OUTBOX_KEY, JSON.stringify(items));
    } catch {
      // storage refused: the submission waits in memory, as long as the page lives
    }
  }
}
