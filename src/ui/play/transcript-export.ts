/**
 * The Play view's transcript saved as a file, as Parchment and Lectrote users expect: plain text
 * (exactly what the transcript shows: the game's output, the `> commands`, the player's notes and
 * reprinted status lines, a blank line between entries) and a standalone HTML page (every text
 * escaped, no script, no external resource, readable offline) with the story's name and the date.
 * Pure: no DOM, no I/O.
 */
import type { TranscriptEntry } from './game-session.svelte.ts';

/** What a saved transcript is about. */
export interface TranscriptMeta {
  storyTitle: string;
  /** When it is saved, ms since the Unix epoch. */
  savedAtMs: number;
  seed: number | null;
}

/** `text` with &, <, >, " and ' escaped for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The date as YYYY-MM-DD HH:MM UTC. */
function utcStamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The transcript as plain text: a heading line, then each entry as shown, a blank line between. */
export function transcriptText(entries: readonly TranscriptEntry[], meta: TranscriptMeta): string {
  const heading = `${meta.storyTitle} — transcript saved ${utcStamp(meta.savedAtMs)}${meta.seed === null ? '' : `, seed ${meta.seed}`}`;
  return `${[heading, ...entries.map((e) => e.text)].join('\n\n')}\n`;
}

/** The transcript as a standalone, escaped HTML page. */
export function transcriptHtml(entries: readonly TranscriptEntry[], meta: TranscriptMeta): string {
  const title = escapeHtml(meta.storyTitle);
  const body = entries.map((e) => `<p class="${e.kind}">${escapeHtml(e.text)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${title} — transcript</title>
<style>
body { max-width: 48rem; margin: 2rem auto; padding: 0 1rem; font: 1rem/1.5 Georgia, serif; color: #1e1e1e; background: #fbfaf7; }
h1 { font-size: 1.5rem; margin-bottom: 0.25rem; }
.meta { color: #5f5b54; margin-top: 0; }
main p { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0 0 1rem; font-family: ui-monospace, monospace; font-size: 0.95rem; }
.input { font-weight: bold; color: #1d4f91; }
.notice { color: #5f5b54; font-style: italic; }
.status { font-weight: bold; }
</style>
</head>
<body>
<h1>${title}</h1>
<p class="meta">Transcript saved ${escapeHtml(utcStamp(meta.savedAtMs))}${meta.seed === null ? '' : `, seed ${meta.seed}`} — Meta-TTL Playground</p>
<main>
${body}
</main>
</body>
</html>
`;
}

/** A file name for the story's transcript: `transcript-<story>-<YYYY-MM-DD>.<ext>`. */
export function transcriptFileName(meta: TranscriptMeta, ext: 'txt' | 'html'): string {
  const slug = meta.storyTitle.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'story';
  return `transcript-${slug}-${new Date(meta.savedAtMs).toISOString().slice(0, 10)}.${ext}`;
}
