/**
 * Helpers for the mock LLM's own tests: raw fetch calls to a mock, SSE parsing, and sample
 * episode logs in method.md's format ("Episode log"). Test-only; imported by *.test.ts here.
 */
import type { MockLlm } from './interface.ts';

/** A raw HTTP reply: status, headers and the exact body text. */
export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
}

/** POST a JSON body (or a raw string) to /v1/chat/completions. */
export async function postChat(mock: MockLlm, body: unknown, init: RequestInit = {}): Promise<RawReply> {
  const response = await fetch(`${mock.baseUrl}/chat/completions`, {
    method: 'POST',
    ...init,
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key', ...(init.headers as Record<string, string> | undefined) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The assistant content of a non-streaming completion body. */
export function contentOf(reply: RawReply): string {
  const parsed = JSON.parse(reply.text) as { choices: { message: { content: string } }[] };
  return parsed.choices[0]!.message.content;
}

/** The `data:` payloads of an SSE body, in order, with the event name each came with. */
export function sseEvents(text: string): { event: string | null; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length) ?? null;
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice('data: '.length)).join('\n');
      return { event, data };
    });
}

/** A body with one system and one user message. */
export function chatBody(system: string, user: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'mock-model', messages: [{ role: 'system', content: system }, { role: 'user', content: user }], ...extra };
}

/** One step of a sample log: [observation, action, reward]. */
export type SampleStep = [string, string, number];

/**
 * An episode log in method.md's format: a header, one `[STEP i] [OBS] … [ACTION] … [REWARD] r
 * [CUM_REWARD] score` line per step (or the tokens on separate lines when `multiLine`), then the
 * final observation and termination.
 */
export function sampleLog(episode: number, steps: SampleStep[], multiLine = false): string {
  let cum = 0;
  let previous = '';
  const lines = [`EPISODE ${episode}`, 'Guiding prompt used:', 'Explore systematically.', ''];
  steps.forEach(([obs, action, reward], i) => {
    cum += reward;
    const shown = obs === previous ? '(same as previous step)' : obs;
    previous = obs;
    const parts = [`[STEP ${i + 1}]`, `[OBS] ${shown}`, `[ACTION] ${action}`, `[REWARD] ${reward}`, `[CUM_REWARD] ${cum}`];
    lines.push(multiLine ? parts.join('\n') : parts.join(' '));
  });
  lines.push('', 'FINAL OBSERVATION: You are in a dark place.', `TERMINATION: step_limit. Final score: ${cum}.`);
  return lines.join('\n');
}

/** A meta-prompt-like system message (header, empty strategy, `<think>/<learn>` contract). */
export const META_PROMPT =
  'You improve the guide of a text-adventure player. You read its episode logs.\n\n' +
  'Reply with <think>your analysis</think> then <learn>the new guide</learn>.';

/** A proposer-like system message with the parent strategy between markers. */
export function proposerPrompt(parentStrategy: string): string {
  return (
    'You improve the strategy section of a meta-prompt.\n' +
    `<current_strategy>${parentStrategy}</current_strategy>\n` +
    'Return the new strategy section inside <strategy>…</strategy>.'
  );
}
