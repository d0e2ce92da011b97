/**
 * The fetch and error part every room view's HTTP calls share (the student's `src/ui/room/room-api.ts`,
 * the teacher's and projector's `room-api.ts` here): one request that tells "no answer" (offline,
 * server down) from an answer, and the server's own words of a refusal. Each view words the
 * refusal for its reader.
 */

/** `fetch` as the room APIs take it (injected; tests pass a fake). */
export type RoomFetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * One request. @returns the response (any status), or null when no answer arrived (the network
 * failed, the server is down) — never throws
 */
export async function roomRequest(fetch: RoomFetch, url: string, init?: RequestInit): Promise<Response | null> {
  try {
    return await fetch(url, init);
  } catch {
    return null;
  }
}

/**
 * The server's words in a refused answer: `{ error: "…" }` (the room's routes) or
 * `{ error: { message: "…" } }` (the forwarder's OpenAI shape), at most 300 characters; null when
 * the body is not JSON or says nothing.
 */
export async function serverWords(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { error?: unknown };
    const error = body.error;
    if (typeof error === 'string') return error.slice(0, 300);
    if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message.slice(0, 300);
  } catch {
    // Not JSON: the status says it.
  }
  return null;
}
