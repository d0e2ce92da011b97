/**
 * Command-line history for ↑/↓, shell-style: ↑ walks back through sent commands, ↓ forward, and
 * past the newest returns the draft being typed. Consecutive duplicates and blank lines are not
 * recorded. Plain data; no DOM.
 */

/** Most commands remembered. */
export const MAX_HISTORY = 200;

export class CommandHistory {
  private readonly items: string[] = [];
  /** Index into `items`; `items.length` = the draft. */
  private cursor = 0;
  private draft = '';

  /** Record a sent command and go back to an empty draft. */
  push(command: string): void {
    if (command.trim() !== '' && this.items.at(-1) !== command) {
      this.items.push(command);
      if (this.items.length > MAX_HISTORY) this.items.shift();
    }
    this.cursor = this.items.length;
    this.draft = '';
  }

  /** The command before the one shown (↑); `current` is kept as the draft when leaving it. */
  previous(current: string): string {
    if (this.cursor === this.items.length) this.draft = current;
    if (this.cursor > 0) this.cursor--;
    return this.items[this.cursor] ?? current;
  }

  /** The command after the one shown (↓), or the draft past the newest. */
  next(current: string): string {
    if (this.cursor >= this.items.length) return current;
    this.cursor++;
    return this.cursor === this.items.length ? this.draft : (this.items[this.cursor] ?? this.draft);
  }
}
