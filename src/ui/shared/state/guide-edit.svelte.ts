/**
 * "Edit the guide" in a run view (Learn, Agent): while a run is paused between steps, a person
 * edits the guiding prompt the actor follows; Resume (or Step) plays on with it from the next
 * step. In Learn this is the session runner's intervention source (src/ttl/session-runner.ts
 * `InterventionSource`): the runner asks it before every step and records what it returns as a
 * human intervention; Agent asks it the same way and records the edit in the trajectory.
 */
import type { InterventionSource } from '../../../ttl/session-runner.ts';

export class GuideEditor implements InterventionSource {
  /** The editor is open (its text is applied at the next step). */
  open = $state(false);
  /** The text being edited. */
  draft = $state('');
  /** Where the edit applies: the episode (null: a single episode, Agent) and the first step played with it. */
  at = $state.raw<{ episode: number | null; step: number } | null>(null);

  /** Open the editor on the guide in force (`guide`) for step `step` of episode `episode`; an
   * open editor keeps its draft. */
  edit(guide: string, episode: number | null, step: number): void {
    if (!this.open) this.draft = guide;
    this.at = { episode, step };
    this.open = true;
  }

  setDraft(text: string): void {
    this.draft = text;
  }

  /** Close without an edit. */
  cancel(): void {
    this.open = false;
    this.draft = '';
    this.at = null;
  }

  /** The runner's question before a step: the draft of an open editor (which then closes), else null.
   * The runner records it only when it differs from the guide in force. */
  take(): string | null {
    if (!this.open) return null;
    const text = this.draft;
    this.cancel();
    return text;
  }
}
