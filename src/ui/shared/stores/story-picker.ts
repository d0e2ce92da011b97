/**
 * The story-choosing part of the Agent and Learn views' states: add story files or a URL to the
 * shared story library and choose what was added (its checksum warning shown), remove a story
 * (unchosen when it was chosen). A file that fails does not stop the next one; every thrown error
 * is shown through the view. Must not import a view.
 */
import type { AddedStory, StoryLibrary } from './story-library.svelte.ts';
import { showingErrors } from './error-text.ts';

/** What the picker needs of its view's state. */
export interface StoryPickerHost {
  /** Choose library story `id`. */
  choose(id: string): void;
  /** Story `id` was removed: unchoose it if it was chosen. */
  removed(id: string): void;
  /** Show a message (a warning about an added file, or an error). */
  show(message: string): void;
  /** The message of a thrown error (key scrubbed). */
  messageOf(error: unknown): string;
}

export class StoryPicker {
  constructor(
    private readonly library: () => StoryLibrary,
    private readonly host: StoryPickerHost,
  ) {}

  /** Add each file to the library in turn and choose it. */
  async addFiles(files: readonly File[]): Promise<void> {
    for (const file of files) await this.guard(async () => this.adopt(await this.library().addFile(file)));
  }

  /** Fetch a story file from `address`, add it and choose it. */
  async addUrl(address: string): Promise<void> {
    await this.guard(async () => this.adopt(await this.library().addUrl(address)));
  }

  /** Remove a user story from the library. */
  async removeStory(id: string): Promise<void> {
    await this.guard(() => this.library().remove(id));
    this.host.removed(id);
  }

  private adopt({ story, problem }: AddedStory): void {
    if (problem !== null) this.host.show(problem);
    this.host.choose(story.entry.id);
  }

  private async guard(task: () => Promise<void>): Promise<void> {
    await showingErrors(task, (message) => this.host.show(message), (error) => this.host.messageOf(error));
  }
}
