/**
 * "You are the meta-agent" in the Learn view (src/ttl/policies/human-policy.ts): between episodes
 * the running session asks the person through `ask` — the page shows the episode log (the text
 * the meta-agent would read) and a textarea prefilled with the current guide; "Continue" answers
 * with the text ('' keeps the guide, as an empty <learn> does). Stop aborts the wait: `ask`
 * rejects, and the policy turns that into a stopped session.
 */
import type { AskHuman } from '../../ttl/policies/human-policy.ts';

/** What the session asks: after which episode, its log, and the guide in force. */
export interface HumanRequest {
  episodeIndex: number;
  log: string;
  currentGuide: string;
}

export class HumanTurn {
  /** The open question (null: the session is not waiting for the person). */
  request = $state.raw<HumanRequest | null>(null);
  /** The guide being typed (starts as the current guide). */
  draft = $state('');
  private answer: ((text: string) => void) | null = null;

  /** The policy's way to ask (pass to `buildSession`). Rejects when `signal` aborts. */
  readonly ask: AskHuman = (request, signal) =>
    new Promise<string>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('stopped'));
      this.clear();
      const onAbort = (): void => {
        this.clear();
        reject(new Error('stopped'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.request = request;
      this.draft = request.currentGuide;
      this.answer = (text) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(text);
      };
    });

  setDraft(text: string): void {
    this.draft = text;
  }

  /** "Continue": answer with the draft ('' keeps the guide). */
  submit(): void {
    const answer = this.answer;
    if (!answer) return;
    const text = this.draft;
    this.clear();
    answer(text);
  }

  /** Forget the question (the session ended or was stopped). */
  clear(): void {
    this.request = null;
    this.draft = '';
    this.answer = null;
  }
}
