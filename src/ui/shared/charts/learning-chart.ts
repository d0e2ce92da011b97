/**
 * The learning curve (final score per episode, method.md "Metrics") drawn with Chart.js (through
 * charts/chart.ts, its one wrapper). Built for a projector: large type, thick lines and points, a
 * colour-blind-safe high-contrast palette (Okabe & Ito), a dashed max-score line per distinct max
 * score, no animation (live updates do not flicker). `curveConfig` is pure; `LearningChart`
 * owns one canvas.
 */
import type { CsvTable } from '../../../eval/csv.ts';
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells } from '../../../llm/model-label.ts';
import { Chart, chartPng, EXPORT_COLOURS, type ChartConfiguration, type ChartDataset } from './chart.ts';

/** One session's curve: final score of episodes 1…K (null = not ended yet). */
export interface CurveSeries {
  label: string;
  scores: readonly (number | null)[];
  /** Who played this series, as the CSV's model and model_caveat columns (llm/model-label.ts);
   * absent: "unknown model". */
  model?: { name: string; caveat: string | null };
}

export interface CurveData {
  /** K: the x axis runs over episodes 1…K. */
  episodes: number;
  series: readonly CurveSeries[];
  /** The stories' max scores (one dashed line each; none when unknown). */
  maxScores: readonly number[];
  /** Who played, in one sentence, shown with the chart (llm/model-label.ts `sentence`, e.g.
   * "Played by the simulated model — not a language model; …"); none when unknown. */
  note?: string;
  /** Episodes in which a person edited the guide (a flag at the top of the plot; none when absent). */
  marks?: readonly CurveMark[];
}

/** A person's edit of the guide during episode `episode`, at the steps `steps` (1-based). */
export interface CurveMark {
  episode: number;
  steps: readonly number[];
}

/** The legend's name of the edits' flags. */
export const HUMAN_EDIT_SERIES = 'Human edit of the guide';

/** How a mark reads in a table cell and tooltip: "edited at step 4" / "edited at steps 4, 9". */
export const markText = (mark: CurveMark): string => `edited at step${mark.steps.length === 1 ? '' : 's'} ${mark.steps.join(', ')}`;

/** Text drawn above an exported curve (the image stands alone on a slide). */
export interface CurveCaption {
  /** First line, large and bold ("Learning curve — The Lever Room"). */
  title: string;
  /** Second line: story, policy, seed, K, S, W-AUC. */
  subtitle: string;
  /** Third line, when the model needs a caveat (llm/model-label.ts: "simulated model — not a
   * language model; …", "scripted test model — not a real model"). */
  note?: string;
}

export interface CurveTheme {
  /** Text and axis colour (e.g. the page's --fg). */
  text: string;
  /** Grid line colour. */
  grid: string;
  /** Type size of ticks, titles and legend, px (default 18; larger in workshop mode). */
  fontSize?: number;
}

/** Okabe–Ito palette (colour-blind safe), most contrasting first. */
export const CURVE_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'] as const;

const FONT_SIZE = 18;

/** The legend's name of a session's one series (and its row in the curve's table). */
export const SCORE_SERIES = 'Score per episode';

/** The legend's name of a max-score line: "Max score (5)". */
export const maxScoreLabel = (max: number): string => `Max score (${max})`;

/** Room around the plot, px: the markers (radius 7 + border) at the first and last episode and
 * at the max score are drawn whole, not cut by the canvas edge. */
export const CURVE_PADDING = { top: 8, right: 24, bottom: 4, left: 8 } as const;

/**
 * The top of the score axis: the highest max score, or a score above it (null: no max score
 * known; Chart.js then fits the data).
 */
export function scoreAxisTop(data: CurveData): number | null {
  if (data.maxScores.length === 0) return null;
  const scores = data.series.flatMap((s) => s.scores).filter((v): v is number => v !== null && Number.isFinite(v));
  return Math.max(...data.maxScores, ...scores);
}

/**
 * The score axis' ticks, bottom up: whole numbers from 0 in the smallest step of 1, 2, 5, 10, 20,
 * 25, 50, 100, … that fits `maxCount` labels, and always `top` itself (the max score line is
 * labelled); a multiple closer to `top` than a whole step gives way to it (their labels would crowd).
 * @param top the axis' top (scoreAxisTop), score points, ≥ 0
 * @param maxCount how many labels fit (≥ 2)
 */
export function scoreTicks(top: number, maxCount: number): number[] {
  const end = Math.max(0, Math.ceil(top));
  const fit = Math.max(2, Math.floor(maxCount));
  let step = 1;
  for (let scale = 1; ; scale *= 10) {
    const found = [1, 2, 2.5, 5].map((m) => m * scale).find((s) => Number.isInteger(s) && Math.floor(end / s) + (end % s === 0 ? 1 : 2) <= fit);
    if (found !== undefined) { step = found; break; }
  }
  const ticks: number[] = [];
  for (let v = 0; v <= end; v += step) ticks.push(v);
  if (ticks.at(-1) !== end) {
    if (ticks.length > 1 && end - ticks.at(-1)! < step) ticks.pop();
    ticks.push(end);
  }
  return ticks;
}

/** How many score labels of `fontPx` fit on an axis `heightPx` tall: a label and its gap take
 * 0.95 em (a digit's ink is about 0.72 em tall, so neighbours keep a gap of about a fifth of an em),
 * so that a teaching game's 0…5 gets every whole number also at workshop mode's type size on a
 * 1280 × 800 screen, with the model's line above the chart. */
export const scoreLabelRoom = (heightPx: number, fontPx: number): number => Math.floor(heightPx / (fontPx * 0.95));

/** The Chart.js configuration of a curve (pure). */
export function curveConfig(data: CurveData, theme: CurveTheme): ChartConfiguration<'line', (number | null)[], string> {
  const labels = Array.from({ length: Math.max(1, data.episodes) }, (_, i) => String(i + 1));
  const datasets: ChartDataset<'line', (number | null)[]>[] = data.series.map((s, i) => ({
    label: s.label, data: labels.map((_, e) => s.scores[e] ?? null), borderColor: CURVE_COLOURS[i % CURVE_COLOURS.length],
    backgroundColor: CURVE_COLOURS[i % CURVE_COLOURS.length], borderWidth: 5, pointRadius: 7, pointHoverRadius: 9, pointStyle: 'circle', spanGaps: false, tension: 0, clip: false,
  }));
  for (const max of data.maxScores) {
    datasets.push({
      label: maxScoreLabel(max), data: labels.map(() => max), borderColor: theme.text, backgroundColor: theme.text,
      borderWidth: 3, borderDash: [12, 8], pointRadius: 0, pointHoverRadius: 0, pointStyle: 'line',
    });
  }
  const font = { size: theme.fontSize ?? FONT_SIZE, weight: 'bold' as const };
  const top = scoreAxisTop(data);
  const marks = data.marks ?? [];
  if (marks.length > 0) datasets.push(markDataset(data, labels, top, theme));
  return {
    type: 'line',
    data: { labels, datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      layout: { padding: CURVE_PADDING },
      scales: {
        x: { title: { display: true, text: 'Episode', color: theme.text, font }, ticks: { color: theme.text, font }, grid: { color: theme.grid } },
        y: {
          title: { display: true, text: 'Final score', color: theme.text, font }, ticks: { color: theme.text, font, precision: 0, ...(top === null ? {} : { autoSkip: false }) },
          grid: { color: theme.grid }, suggestedMin: 0,
          // A known max score tops the axis and is labelled (scoreTicks), whatever the chart's height.
          ...(top === null ? {} : { min: 0, max: top, afterBuildTicks: (scale: { height: number; ticks: { value: number }[] }) => { scale.ticks = scoreTicks(top, scoreLabelRoom(scale.height, font.size)).map((value) => ({ value })); } }),
        },
      },
      plugins: {
        legend: { labels: { color: theme.text, font, usePointStyle: true, boxWidth: 24, boxHeight: 12, padding: 8 } },
        tooltip: {
          titleFont: font, bodyFont: font,
          // A flag's height is a place, not a score: its tooltip says where the edit was.
          callbacks: { label: (item: { dataset: { label?: string }; dataIndex: number; formattedValue: string }) => {
            const mark = item.dataset.label === HUMAN_EDIT_SERIES ? marks.find((m) => m.episode === item.dataIndex + 1) : undefined;
            return mark ? `${HUMAN_EDIT_SERIES}: ${markText(mark)}` : `${item.dataset.label ?? ''}: ${item.formattedValue}`;
          } },
        },
      },
    },
  };
}

/** The flags of the edited episodes: down-pointing triangles at the top of the score axis (or of
 * the scores, with no max score known), no line. */
function markDataset(data: CurveData, labels: readonly string[], top: number | null, theme: CurveTheme): ChartDataset<'line', (number | null)[]> {
  const height = top ?? Math.max(0, ...data.series.flatMap((s) => s.scores).filter((v): v is number => v !== null && Number.isFinite(v)));
  const edited = new Set((data.marks ?? []).map((m) => m.episode));
  return {
    label: HUMAN_EDIT_SERIES, data: labels.map((_, e) => (edited.has(e + 1) ? height : null)), borderColor: theme.text, backgroundColor: theme.text,
    showLine: false, pointStyle: 'triangle', pointRotation: 180, pointRadius: 11, pointHoverRadius: 13, borderWidth: 2, clip: false,
  };
}

/** The curve's numbers as a table, with the headings of the chart's screen-reader table: one row
 * per series, one column per episode, final scores (empty: the episode has not ended), then who
 * played the series (model, model_caveat; "unknown model" when the series does not say). */
export function curveTable(data: CurveData): CsvTable {
  const episodes = Array.from({ length: data.episodes }, (_, i) => i);
  return {
    header: ['Series', ...episodes.map((e) => `Episode ${e + 1}`), ...MODEL_CSV_COLUMNS],
    rows: data.series.map((s) => [s.label, ...episodes.map((e) => s.scores[e] ?? null), ...modelCsvCells(s.model ?? describeModel({}))]),
  };
}

/** The configuration of an exported curve (pure): the chart in export colours (dark on white) with
 * `caption` as its title and subtitle above the legend. */
export function curveExportConfig(data: CurveData, caption?: CurveCaption, fontSize?: number): ChartConfiguration<'line', (number | null)[], string> {
  const config = curveConfig(data, { text: EXPORT_COLOURS.text, grid: EXPORT_COLOURS.grid, fontSize });
  if (!caption) return config;
  const size = fontSize ?? FONT_SIZE;
  const plugins = {
    ...config.options?.plugins,
    title: { display: true, text: caption.title, color: EXPORT_COLOURS.text, font: { size: Math.round(size * 1.35), weight: 'bold' as const }, padding: { top: 4, bottom: 4 } },
    subtitle: { display: true, text: caption.note ? [caption.subtitle, caption.note] : caption.subtitle, color: EXPORT_COLOURS.text, font: { size: Math.round(size * 0.9) }, padding: { bottom: 12 } },
  };
  return { ...config, options: { ...config.options, plugins } };
}

/** The PNG text chunks of an exported curve: Title (the caption's title) and Description (its
 * subtitle and note, else the data's note). */
export function curvePngTexts(data: CurveData, caption?: CurveCaption): Record<string, string> {
  const description = [caption?.subtitle, caption?.note ?? data.note].filter((t): t is string => Boolean(t)).join('\n');
  return { ...(caption ? { Title: caption.title } : {}), ...(description ? { Description: description } : {}) };
}

/** The curve as a PNG (dark on white, see chart.ts `chartPng`), titled with `caption` when given;
 * the file's text chunks say the same (curvePngTexts). */
export const curvePng = (data: CurveData, fontSize?: number, caption?: CurveCaption): Promise<Blob> =>
  chartPng(curveExportConfig(data, caption, fontSize) as ChartConfiguration, {}, curvePngTexts(data, caption));

/** A learning-curve chart on a canvas; `update` redraws with new data. */
export class LearningChart {
  private readonly chart: Chart<'line', (number | null)[], string>;
  /** The data and theme drawn last (JSON), so an update with the same ones draws nothing. */
  private drawn: string;

  /** @param onTicks called after each draw with the y ticks drawn (score points, bottom up) */
  constructor(canvas: HTMLCanvasElement, data: CurveData, private theme: CurveTheme, onTicks?: (ticks: number[]) => void) {
    const report = { id: 'reportTicks', afterUpdate: (chart: Chart) => onTicks?.((chart.scales.y?.ticks ?? []).map((t) => t.value)) };
    this.chart = new Chart(canvas, { ...curveConfig(data, theme), plugins: [report] } as ChartConfiguration<'line', (number | null)[], string>);
    this.drawn = JSON.stringify([data, theme]);
  }

  /** Redraws with `data` and `theme`, unless they are the ones drawn last (a session's record
   * changes at every exchange, its curve only when an episode ends). */
  update(data: CurveData, theme: CurveTheme = this.theme): void {
    const drawn = JSON.stringify([data, theme]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    this.theme = theme;
    const next = curveConfig(data, theme);
    this.chart.data = next.data;
    this.chart.options = next.options ?? {};
    this.chart.update();
  }

  destroy(): void {
    this.chart.destroy();
  }
}
