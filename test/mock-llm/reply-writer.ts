/**
 * Writing a normal chat reply of the mock LLM (JSON or an SSE stream), with or without usage.
 * Shared by the chat handler and the fault replies that send a normal answer late or without usage.
 */
import type { ChatReplyContext } from './chat-handler.ts';
import { completionJson, sseStream, usageOf, type ReplyIds } from './wire.ts';

/** A reply ready to be written. */
export interface Prepared {
  ids: ReplyIds;
  text: string;
  finishReason: string;
  stream: boolean;
  includeUsage: boolean;
  promptChars: number;
  /** Cached prompt tokens to report (MockOptions.promptCache); absent = no prompt_tokens_details. */
  cachedTokens?: number;
}

/** Write the reply as JSON or as an SSE stream, and log the text and finish_reason. `withUsage:
 * false` leaves `usage` out (JSON) and sends no usage chunk (streams). */
export function writeReply(ctx: ChatReplyContext, p: Prepared, withUsage = true): void {
  const { entry, res } = ctx;
  entry.outcome.replyText = p.text;
  entry.outcome.finishReason = p.finishReason;
  const plain = withUsage ? usageOf(p.promptChars, p.text) : null;
  const usage = plain && p.cachedTokens !== undefined ? { ...plain, prompt_tokens_details: { cached_tokens: p.cachedTokens } } : plain;
  if (!p.stream) {
    ctx.send(200, completionJson(p.ids, p.text, p.finishReason, usage));
    return;
  }
  entry.outcome.status = 200;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const event of sseStream(p.ids, p.text, p.finishReason, p.includeUsage ? usage : null)) res.write(event);
  res.end();
}
