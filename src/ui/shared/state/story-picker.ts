/**
 * The story-choosing part of the Agent and Learn views' states: add story files or a URL to the
 * shared story shelf and choose what was added (its checksum warning shown), remove a story
 * (unchosen when it was chosen). A file that fails does not stop the next one; every thrown error
 * is shown through the view. Must not import a view.
 */
import type { AddedStory, StoryShelf } from './story-shelf.svelte.ts';
import type { ErrorSlot } from './error-slot.svelte.ts';

/** What the picker needs of its view's state. */
export interface StoryPickerHost {
  /** Choose shelf story `id`. */
  choose(id: string): void;
  /** Story `id` was removed: unchoose it if it was chosen. */
  removed(id: string): void;
  /** The view's error slot: a warning about an added file, or a thrown error (key scrubbed). */
  readonly errors: ErrorSlot;
}

export class StoryPicker {
  constructor(
    private readonly shelf: () => StoryShelf,
    private readonly host: StoryPickerHost,
  ) {}

  /** Add each file to the story shelf in turn and choose it. */
  async addFiles(files: readonly File[]): Promise<void> {
    for (const file of files) await this.host.errors.attempt(async () => this.adopt(await this.shelf().addFile(file)));
  }

  /** Fetch a story file from `address`, add it and choose it. */
  async addUrl(address: string): Promise<void> {
    await this.host.errors.attempt(async () => this.adopt(await this.shelf().addUrl(address)));
  }

  /** Remove a user story from the story shelf. */
  async removeStory(id: string): Promise<void> {
    await this.host.errors.attempt(() => this.shelf().remove(id));
    this.host.removed(id);
  }

  private adopt({ story, problem }: AddedStory): void {
    if (problem !== null) this.host.errors.message = problem;
    this.host.choose(story.entry.id);
  }
}
