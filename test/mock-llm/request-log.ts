/**
 * Entries of the mock LLM's request log (interface.ts `LoggedRequest`): creating one when a
 * request's body has been read, and flagging one as unexpected so it is reported loudly.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { LoggedRequest } from './interface.ts';

/**
 * A fresh entry: headers flattened to strings (authorization kept), the body parsed as JSON
 * (the raw text when it is not JSON, null when empty), no outcome yet.
 */
export function newEntry(index: number, method: string, path: string, requestHeaders: IncomingHttpHeaders, raw: string): LoggedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(requestHeaders)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  let body: unknown = null;
  if (raw !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
  }
  return {
    index, method, path, headers, body, role: null, behaviour: 'pending', attempt: 0,
    outcome: { status: null, fault: null, replyText: null, finishReason: null },
    unexpected: false, problem: null, closedBeforeAnswer: false,
  };
}

/** Mark an entry as unexpected (the server prints it when the entry is recorded). */
export function flag(entry: LoggedRequest, behaviour: string, problem: string): void {
  entry.behaviour = behaviour;
  entry.unexpected = true;
  entry.problem = problem;
}
