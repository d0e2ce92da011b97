/**
 * Reading streamed replies: an error in any framing anywhere in the stream ends the call as a
 * provider error (nothing of the partial reply is used), a stream without a finish_reason is a
 * cut-off whether or not `[DONE]` closes it, and only choice 0 is read — in streams and in JSON.
 */
import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.ts';
import { completionFromJson } from './reply-body.ts';
import { readChatStream } from './sse-reader.ts';

const chunk = (content: string | null, finish: string | null = null, index = 0) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
const stream = (...events: string[]) => new Response(events.join(''), { headers: { 'content-type': 'text/event-stream' } });
const read = (...events: string[]) => readChatStream(stream(...events), { idleMs: 1_000, fallbackModel: 'm' });
const failure = async (...events: string[]) => {
  const error = await read(...events).then((r) => r, (e: unknown) => e);
  if (!(error instanceof LlmError)) throw new Error(`expected an LlmError, got ${JSON.stringify(error)}`);
  return error;
};
const DONE = 'data: [DONE]\n\n';

describe('an error anywhere in a stream is a provider error', () => {
  it.each([
    ['FastChat', { text: '**NETWORK ERROR DUE TO HIGH TRAFFIC. PLEASE REGENERATE OR REFRESH THIS PAGE.**', error_code: 50004 }, 'NETWORK ERROR DUE TO HIGH TRAFFIC'],
    ['OpenAI', { error: { message: 'upstream failed', type: 'server_error' } }, 'upstream failed'],
    ['vLLM', { object: 'error', message: 'engine dead', type: 'InternalServerError', code: 500 }, 'engine dead'],
    ['Ollama', { error: 'model runner crashed' }, 'model runner crashed'],
    ['Gemini', [{ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }], 'overloaded'],
  ])('%s error object after the first word, then [DONE] → server, with its message', async (_name, body, words) => {
    const error = await failure(chunk(''), chunk('ACTION: go'), `data: ${JSON.stringify(body)}\n\n`, DONE);
    expect(error.kind).toBe('server');
    expect(error.message).toContain(words);
  });

  it('FastChat error first, before any content → server', async () => {
    expect((await failure(`data: ${JSON.stringify({ text: 'busy', error_code: 50001 })}\n\n`, DONE)).kind).toBe('server');
  });

  it('an error after a finished choice but before [DONE] still ends the call', async () => {
    expect((await failure(chunk('ACTION: go'), chunk(null, 'stop'), `data: ${JSON.stringify({ error: { message: 'late failure' } })}\n\n`, DONE)).message).toContain('late failure');
  });
});

describe('no finish_reason is a cut-off', () => {
  it.each([
    ['ended by [DONE]', [chunk(''), chunk('ACTION: go'), DONE], /ended with \[DONE\] but no finish_reason/],
    ['ended by the connection', [chunk(''), chunk('ACTION: go')], /ended before the reply was finished/],
    ['finish only for choice 1', [chunk('ACTION: go'), chunk(null, 'stop', 1), DONE], /no finish_reason/],
  ])('%s → bad_response, nothing used', async (_name, events, message) => {
    const error = await failure(...(events as string[]));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(message);
  });

  it('a finished stream is read whole', async () => {
    expect(await read(chunk(''), chunk('ACTION: '), chunk('go'), chunk(null, 'stop'), DONE)).toMatchObject({ content: 'ACTION: go', finishReason: 'stop' });
  });
});

describe('only choice 0 is read', () => {
  it('chunks of choice 1, interleaved and finished first, are not appended', async () => {
    const reply = await read(chunk('', null, 0), chunk('ACTION: eat', null, 1), chunk('ACTION: ', null, 0), chunk(' leaflet', null, 1), chunk(null, 'stop', 1), chunk('go', null, 0), chunk(null, 'length', 1), chunk(null, 'stop', 0), DONE);
    expect(reply).toMatchObject({ content: 'ACTION: go', finishReason: 'stop' });
  });

  it('JSON: choice 1 listed first is ignored; a reply with only choice 1 has no usable content', () => {
    const body = (choices: unknown[]) => JSON.stringify({ model: 'm', choices });
    const c = (index: number, content: string, finish = 'stop') => ({ index, message: { role: 'assistant', content }, finish_reason: finish });
    expect(completionFromJson(body([c(1, 'ACTION: eat leaflet', 'length'), c(0, 'ACTION: go')]), 'm')).toMatchObject({ content: 'ACTION: go', finishReason: 'stop' });
    expect(() => completionFromJson(body([c(1, 'ACTION: eat leaflet')]), 'm')).toThrow(/no usable content/);
    expect(completionFromJson(body([{ message: { role: 'assistant', content: 'ACTION: go' }, finish_reason: 'stop' }]), 'm').content).toBe('ACTION: go');
  });
});
