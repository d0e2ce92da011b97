/**
 * What a browser context's pages received, for the room's specs' check that the provider's key
 * reaches no student, projector or teacher: every response (URL, headers, body) and every WebSocket
 * frame, searched for the key as is, URL-encoded and base64 / base64url-encoded.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';

/** The key as it could travel: as is, URL-encoded, and base64 / base64url at each of the three byte alignments. */
export function keyForms(key: string): string[] {
  const forms = new Set([key, encodeURIComponent(key)]);
  for (const pad of ['', 'x', 'xx']) {
    const b64 = Buffer.from(pad + key).toString('base64');
    const inner = b64.slice(pad ? 4 : 0, -4);
    forms.add(inner);
    forms.add(inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms];
}

/** Everything a context's pages received: each response's URL, headers and body, each WebSocket frame. */
export class Received {
  readonly items: string[] = [];
  responses = 0;
  frames = 0;
  chatBodies = 0;
  private pending: Promise<void>[] = [];
  private readonly errors: string[] = [];
  private stopped = false;
  constructor(readonly who: string) {}
  /** Runs `read` for an event; its error fails the check, unless recording had stopped (the context closing). */
  private record(read: () => Promise<void>): void {
    if (this.stopped) return;
    this.pending.push(read().catch((error: Error) => void (this.stopped || this.errors.push(error.message))));
  }
  watch(context: BrowserContext): void {
    // A finished request's response has its whole body (a failed or aborted one has none to read).
    context.on('requestfinished', (request) => {
      this.record(async () => {
        const response = await request.response();
        if (response === null) return;
        this.responses += 1;
        const headers = (await response.headersArray()).map((h) => `${h.name}: ${h.value}`).join('\n');
        const body = (await response.body().catch(() => Buffer.alloc(0))).toString('latin1');
        if (response.url().endsWith('/v1/chat/completions') && body.length > 0) this.chatBodies += 1;
        this.items.push(`${response.url()}\n${headers}\n${body}`);
      });
    });
    // A failed one (the page stopped it, the connection dropped) may still have had headers.
    context.on('requestfailed', (request) => {
      this.record(async () => {
        const response = await request.response().catch(() => null);
        if (response !== null) this.items.push(`${response.url()}\n${(await response.headersArray()).map((h) => `${h.name}: ${h.value}`).join('\n')}`);
      });
    });
    const onPage = (page: Page): void => {
      page.on('websocket', (socket) => {
        socket.on('framereceived', ({ payload }) => {
          this.frames += 1;
          this.items.push(typeof payload === 'string' ? payload : Buffer.from(payload).toString('latin1'));
        });
      });
    };
    context.pages().forEach(onPage);
    context.on('page', onPage);
  }
  /** Resolves once every response seen so far is read. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }
  /** Asserts no form of `key` is in anything received (and stops recording). */
  async expectNo(key: string): Promise<void> {
    await this.settled();
    this.stopped = true;
    expect(this.errors, `${this.who}: responses that could not be read`).toEqual([]);
    const forms = keyForms(key);
    for (const item of this.items) for (const form of forms) expect(item.includes(form), `${this.who} received the key (${form}) in ${item.slice(0, 120)}`).toBe(false);
  }
}
