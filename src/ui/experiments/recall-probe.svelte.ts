/**
 * The page's walkthrough-recall probe (beside the falsifier experiments in the Experiments view):
 * the user uploads a walkthrough file (one command per line, or Jericho's games.json shape, read
 * by src/eval/walkthrough-file.ts; a bad file is refused with what to fix), picks a shelf story
 * (its title goes into the question; a games.json walkthrough is matched by its catalog id or
 * md5) and runs the core probe (src/eval/recall-probe.ts `runRecallProbe`) with the Settings'
 * actor model. The result is the core's report: recall vs the shuffled control and the best
 * constant guess, Wilson intervals, the sign test, and the footnote of what it cannot show;
 * downloads are the CLI's recall.csv / recall.md / recall.json. All I/O through injected services.
 */
import { codeVersion } from '../../common/code-version.ts';
import { stringifyWithoutSecrets } from '../../agents/trajectory-io.ts';
import { RECALL_FOOTNOTE, runRecallProbe, type RecallReport } from '../../eval/recall-probe.ts';
import { recallCsv, recallMarkdown } from '../../eval/recall-report.ts';
import { parseWalkthroughFile, walkthroughFor, type WalkthroughFile } from '../../eval/walkthrough-file.ts';
import type { RunServices } from '../shared/state/run-services.ts';
import type { PlayerServices } from '../shared/state/services.ts';

/** The recall.json format the CLI writes (cli/probe-recall.ts RECALL_FORMAT). */
const RECALL_FORMAT = 'metattl-recall-probe-1';

export interface RecallProbeDeps {
  runs: RunServices;
  files: Pick<PlayerServices, 'download' | 'readFile'>;
}

/** A finished probe: the report, the model asked and the story probed. */
export interface RecallProbeResult {
  report: RecallReport;
  model: string;
  game: string;
  title: string;
  fileName: string;
}

export class RecallProbeState {
  /** The uploaded walkthrough file (null: none yet). */
  file = $state.raw<{ name: string; content: WalkthroughFile } | null>(null);
  /** The shelf story the walkthrough is of ('' = none chosen). */
  storyId = $state('');
  k = $state<number | null>(5);
  probes = $state<number | null>(20);
  seed = $state<number | null>(0);
  running = $state(false);
  progress = $state.raw<{ done: number; total: number } | null>(null);
  error = $state<string | null>(null);
  result = $state.raw<RecallProbeResult | null>(null);
  private controller: AbortController | null = null;

  constructor(private readonly deps: RecallProbeDeps) {}

  /** The shelf's stories (web tasks have no walkthrough), by title. */
  get stories(): { id: string; title: string }[] {
    return this.deps.runs.shelf.entries.map((e) => ({ id: e.id, title: e.catalog?.title ?? e.title }));
  }

  /** Read an uploaded walkthrough file; a bad one is refused with the reason (the previous one is dropped). */
  async loadFile(file: File): Promise<void> {
    this.error = null;
    this.file = null;
    try {
      const text = new TextDecoder('utf-8', { fatal: false }).decode(await this.deps.files.readFile(file));
      this.file = { name: file.name, content: parseWalkthroughFile(text, file.name) };
    } catch (error) {
      this.error = this.deps.runs.messageOf(error);
    }
  }

  /** What the file holds, in words ("34 commands", "3 games: zork1, …"). */
  get fileSummary(): string | null {
    const f = this.file?.content;
    if (!f) return null;
    if (f.kind === 'lines') return `${f.commands.length} command${f.commands.length === 1 ? '' : 's'}`;
    const names = f.games.map((g) => g.name ?? g.md5 ?? '?');
    return `${names.length} game${names.length === 1 ? '' : 's'}: ${names.slice(0, 6).join(', ')}${names.length > 6 ? ', …' : ''}`;
  }

  /** Why Run is refused now, or null. */
  get problem(): string | null {
    if (!this.file) return 'Upload a walkthrough file first.';
    if (!this.storyId) return 'Choose the story the walkthrough is of.';
    if (this.k === null || this.probes === null || this.seed === null) return 'Set k, the positions per game and the seed.';
    return this.deps.runs.settingsProblem(['actor']);
  }

  /** Run the probe on the chosen story with the Settings' actor model (Stop aborts it). */
  async run(): Promise<void> {
    this.error = this.problem;
    const file = this.file;
    if (this.error || !file || this.running) return;
    const runs = this.deps.runs;
    const entry = runs.shelf.find(this.storyId);
    this.running = true;
    this.progress = null;
    this.controller = new AbortController();
    try {
      if (!entry) throw new Error(`The story “${this.storyId}” is not on your story shelf.`);
      const story = await runs.shelf.load(entry);
      const game = entry.catalog?.id ?? story.catalog?.id ?? entry.id;
      const title = story.catalog?.title ?? entry.title;
      const walkthrough = walkthroughFor(file.content, { id: game, md5: story.md5 }, file.name);
      const k = this.k!;
      if (walkthrough.length <= k) throw new Error(`${file.name}: the walkthrough has ${walkthrough.length} command${walkthrough.length === 1 ? '' : 's'}, none after the first k = ${k} (lower k).`);
      const ctx = await runs.prepare({ roles: ['actor'] });
      try {
        const report = await runRecallProbe([{ game, title, walkthrough }], ctx.models.actor, { k, probes: this.probes!, seed: this.seed! }, {
          concurrency: ctx.settings.maxConcurrent, signal: this.controller.signal, onItem: (done, total) => (this.progress = { done, total }),
        });
        this.result = { report, model: ctx.settings.roles.actor.model, game, title, fileName: file.name };
      } finally {
        ctx.dispose();
      }
    } catch (error) {
      this.error = this.controller.signal.aborted ? 'Stopped: nothing was kept (run it again; each question is one call).' : runs.messageOf(error);
    } finally {
      this.running = false;
      this.controller = null;
    }
  }

  stop(): void {
    this.controller?.abort();
  }

  /** Download the result as the CLI's recall.csv, recall.md or recall.json (never a key). */
  download(format: 'csv' | 'md' | 'json'): void {
    const r = this.result;
    if (!r) return;
    const name = `recall-${r.game.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    if (format === 'csv') this.deps.files.download(`${name}.csv`, recallCsv(r.report, r.model), 'text/csv');
    else if (format === 'md') this.deps.files.download(`${name}.md`, recallMarkdown(r.report, r.model, codeVersion()), 'text/markdown');
    else {
      const json = { format: RECALL_FORMAT, codeVersion: codeVersion(), model: r.model, walkthroughFile: r.fileName, options: r.report.options, games: r.report.games, pooled: r.report.pooled, footnote: RECALL_FOOTNOTE, items: r.report.items };
      this.deps.files.download(`${name}.json`, stringifyWithoutSecrets(json), 'application/json');
    }
  }
}
