/**
 * Keeps a session record's `adaptations` (the request parameters the provider rejected and that
 * were adapted, src/llm/adaptations.ts) up to date: a sink wrapper that copies the current list
 * into the record before every record, episode and exchange is passed on (and so persisted).
 */
import type { ParameterAdaptation } from '../llm/interface.ts';
import type { SessionRecord } from './session-record.ts';
import type { SessionSink } from './session-runner.ts';

/** `inner`, with `current()` merged into `record.adaptations` first (those recorded before a
 * resume are kept; the field stays absent while there is none). */
export function recordingAdaptations(inner: SessionSink, current: () => ParameterAdaptation[]): SessionSink {
  const note = (record: SessionRecord): void => {
    const merged = [...(record.adaptations ?? [])];
    const key = (a: ParameterAdaptation) => `${a.baseUrl}\u0000${a.model}\u0000${a.parameter}`;
    const seen = new Set(merged.map(key));
    for (const a of current()) if (!seen.has(key(a))) merged.push(a);
    if (merged.length > 0) record.adaptations = merged;
  };
  return {
    onStep: inner.onStep?.bind(inner),
    onEpisode: async (episode, record) => {
      note(record);
      await inner.onEpisode?.(episode, record);
    },
    onExchange: async (exchange, record) => {
      note(record);
      await inner.onExchange?.(exchange, record);
    },
    onRecord: async (record) => {
      note(record);
      await inner.onRecord?.(record);
    },
  };
}
