/**
 * Files dropped anywhere on a view (the Play view's story files, the Replay view's exports): the
 * window's drag events, whether a file is being dragged over the page (to show a DropHint), and
 * the files handed over on drop. Drags that carry no files (text, links) are left alone.
 */
export class FileDrop {
  /** A file is being dragged over the page. */
  dragging = $state(false);

  /** @param onFiles called with the dropped files (at least one). */
  constructor(private readonly onFiles: (files: File[]) => void) {}

  /** For `<svelte:window ondragover>`: accept a drag that carries files. */
  readonly ondragover = (event: DragEvent): void => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    this.dragging = true;
  };

  /** For `<svelte:window ondrop>`. */
  readonly ondrop = (event: DragEvent): void => {
    this.dragging = false;
    if (!hasFiles(event)) return;
    event.preventDefault();
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length > 0) this.onFiles(files);
  };

  /** For `<svelte:window ondragleave>`: the drag left the window. */
  readonly ondragleave = (event: DragEvent): void => {
    if (event.relatedTarget === null) this.dragging = false;
  };
}

function hasFiles(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes('Files');
}
