/**
 * Line charts with optional confidence bands (Chart.js through charts/chart.ts, its one wrapper), sized for a
 * projector (16 px text, or the page's root type size when larger — workshop mode's 22 px, as the
 * learning curve — and 3 px lines), without animation so live updates do not flicker. Series
 * are plain data (LineSeries); a band is drawn as two hidden-from-legend datasets filled between.
 */
import type { CsvTable } from '../../../eval/csv.ts';
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells } from '../../../llm/model-label.ts';
import { Chart, chartPng, EXPORT_COLOURS, type ChartConfiguration, type ChartDataset } from './chart.ts';

export interface LinePoint {
  x: number;
  y: number;
}

export interface LineSeries {
  label: string;
  /** CSS colour of the line (the band uses it translucent). */
  colour: string;
  points: LinePoint[];
  /** Lower and upper edges of a band, at the same x as `points`. */
  band?: { low: LinePoint[]; high: LinePoint[] };
  /** Draw as steps (a best-so-far curve). */
  stepped?: boolean;
}

export interface LineChartSpec {
  series: LineSeries[];
  xLabel: string;
  yLabel: string;
  /** Axis bounds (default: from the data). */
  xMin?: number;
  xMax?: number;
  yMin?: number;
  yMax?: number;
  /** Whole-number x ticks (episodes, metric calls). */
  integerX?: boolean;
  /** Whole-number y ticks (scores in points). */
  integerY?: boolean;
  /** Horizontal reference lines (e.g. the max score), dashed, across the x range, named in the legend. */
  refLines?: { label: string; y: number }[];
  /** The exported image's title (e.g. "Learning curves — lever-room"); none on screen (the panel has one). */
  title?: string;
  /** Who played, one sentence (llm/model-label.ts `sentence`): shown with the chart, drawn under
   * the exported image's title and written into its file. */
  note?: string;
  /** Who played, as the CSV's last two columns (model, model_caveat: llm/model-label.ts); absent:
   * "unknown model". */
  model?: { name: string; caveat: string | null };
}

export interface LineChartHandle {
  update(spec: LineChartSpec): void;
  /** The y axis as drawn: [min, max] in the data's units. */
  yRange(): [number, number];
  /** The type size drawn, px. */
  fontPx(): number;
  /** Redraws with the page's type size when it changed (a window resize moves a size set in vw). */
  refitFont(): void;
  /** The legend's entries as drawn (series and reference lines; bands are not listed). */
  legend(): string[];
  destroy(): void;
}

/** Marker shapes and dash patterns by series index, so a line drawn over an identical one still
 * shows the one below (its larger, differently shaped markers and the gaps of the dashes). */
export const POINT_STYLES = ['circle', 'rectRot', 'triangle', 'rect', 'star', 'crossRot'] as const;
const DASHES: number[][] = [[], [10, 6], [3, 4], [14, 4, 3, 4]];

/** How series `index` of `count` is drawn: marker shape and radius (px), dash pattern. */
export function seriesStyle(index: number, count: number): { pointStyle: (typeof POINT_STYLES)[number]; pointRadius: number; borderDash: number[] } {
  return { pointStyle: POINT_STYLES[index % POINT_STYLES.length]!, pointRadius: 4 + 2 * (count - 1 - index), borderDash: DASHES[index % DASHES.length]! };
}

/**
 * The y bounds to ask Chart.js for when the spec sets none: scores are never negative, so an axis
 * of non-negative data starts at 0, and all-zero data gets 0…1 (not Chart.js's −1…1).
 */
export function yBounds(spec: LineChartSpec): { min?: number; max?: number; suggestedMax?: number } {
  const ys = spec.series.flatMap((s) => [...s.points, ...(s.band?.low ?? []), ...(s.band?.high ?? [])].map((p) => p.y)).filter(Number.isFinite);
  const nonNegative = ys.every((y) => y >= 0);
  const allZero = ys.every((y) => y === 0);
  return {
    min: spec.yMin ?? (nonNegative ? 0 : undefined),
    max: spec.yMax,
    suggestedMax: spec.yMax === undefined && allZero ? 1 : undefined,
  };
}

/** Smallest type size of ticks, titles, legend and tooltips, px. */
export const LINE_CHART_FONT_PX = 16;
const translucent = (colour: string): string => (/^#[0-9a-f]{6}$/i.test(colour) ? `${colour}26` : colour);

/**
 * The x bounds to ask Chart.js for: the spec's, except that a whole-number axis of one value (K = 1:
 * xMin = xMax = 1) is widened by half a step each side, so its one point sits mid-plot and not on
 * an empty axis (Chart.js draws nothing on a zero-width range).
 */
export function xBounds(spec: LineChartSpec): { min?: number; max?: number } {
  if (spec.integerX && spec.xMin !== undefined && spec.xMin === spec.xMax) return { min: spec.xMin - 0.5, max: spec.xMax + 0.5 };
  return { min: spec.xMin, max: spec.xMax };
}

/** The x range a reference line spans: the axis' bounds (xBounds), else the data's. */
function xSpan(spec: LineChartSpec): [number, number] {
  const xs = spec.series.flatMap((s) => s.points.map((p) => p.x)).filter(Number.isFinite);
  const { min, max } = xBounds(spec);
  return [min ?? Math.min(0, ...xs), max ?? Math.max(1, ...xs)];
}

function refDatasets(spec: LineChartSpec, textColour: string): ChartDataset<'line', LinePoint[]>[] {
  const [from, to] = xSpan(spec);
  return (spec.refLines ?? []).map((r) => ({
    label: r.label, data: [{ x: from, y: r.y }, { x: to, y: r.y }], borderColor: textColour, backgroundColor: textColour,
    borderWidth: 2, borderDash: [10, 6], pointRadius: 0, pointHoverRadius: 0, pointStyle: 'line' as const, fill: false,
  }));
}

function datasets(spec: LineChartSpec, textColour: string): ChartDataset<'line', LinePoint[]>[] {
  return [...seriesDatasets(spec), ...refDatasets(spec, textColour)];
}

function seriesDatasets(spec: LineChartSpec): ChartDataset<'line', LinePoint[]>[] {
  const count = spec.series.length;
  return spec.series.flatMap((s, i): ChartDataset<'line', LinePoint[]>[] => {
    const line: ChartDataset<'line', LinePoint[]> = {
      label: s.label, data: s.points, borderColor: s.colour, backgroundColor: s.colour, borderWidth: 3, stepped: s.stepped ? 'after' : false, fill: false, clip: false,
      // Earlier series get larger markers: a later identical line leaves them showing.
      ...seriesStyle(i, count),
    };
    if (!s.band) return [line];
    const edge = (data: LinePoint[], fill: false | '-1'): ChartDataset<'line', LinePoint[]> => ({
      label: `${s.label} (95% CI)`, data, borderWidth: 0, pointRadius: 0, borderColor: 'transparent', backgroundColor: translucent(s.colour), fill,
    });
    return [edge(s.band.low, false), edge(s.band.high, '-1'), line];
  });
}

function options(spec: LineChartSpec, textColour: string, fontPx = LINE_CHART_FONT_PX) {
  const FONT = { size: fontPx };
  const grid = { color: 'rgba(128,128,128,0.25)' };
  return {
    animation: false as const,
    responsive: true,
    maintainAspectRatio: false,
    color: textColour,
    parsing: false as const,
    scales: {
      // A widened one-value axis labels only its whole numbers (no "0.5" at its bounds).
      x: { type: 'linear' as const, ...xBounds(spec), title: { display: true, text: spec.xLabel, font: FONT, color: textColour }, ticks: { font: FONT, color: textColour, precision: spec.integerX ? 0 : undefined, ...(xBounds(spec).min !== spec.xMin ? { stepSize: 1, includeBounds: false } : {}) }, grid },
      y: { type: 'linear' as const, ...yBounds(spec), title: { display: true, text: spec.yLabel, font: FONT, color: textColour }, ticks: { font: FONT, color: textColour, precision: spec.integerY ? 0 : undefined, ...(spec.integerY ? { stepSize: 1 } : {}) }, grid },
    },
    // Markers at the max score and the last x are drawn whole.
    layout: { padding: { top: 8, right: 16 } },
    plugins: {
      // With a reference line, legend entries show each line's marker (a dash for the reference).
      legend: { labels: { font: FONT, color: textColour, usePointStyle: (spec.refLines ?? []).length > 0, filter: (item: { text: string }) => !item.text.endsWith('(95% CI)') } },
      tooltip: { titleFont: FONT, bodyFont: FONT },
    },
  };
}

/** The chart's data as a table: one row per point (series, x, y), with the 95% CI's low and high
 * at that x when some series has a band (empty where it has none), then who played (model,
 * model_caveat; "unknown model" when the spec does not say). Columns are named after the axes. */
export function lineChartTable(spec: LineChartSpec): CsvTable {
  const bands = spec.series.some((s) => s.band);
  const header = ['series', spec.xLabel, spec.yLabel, ...(bands ? [`${spec.yLabel} 95% CI low`, `${spec.yLabel} 95% CI high`] : []), ...MODEL_CSV_COLUMNS];
  const who = modelCsvCells(spec.model ?? describeModel({}));
  const rows = spec.series.flatMap((s) =>
    s.points.map((p) => {
      const edge = (list: LinePoint[] | undefined) => list?.find((q) => q.x === p.x)?.y ?? null;
      return [s.label, p.x, p.y, ...(bands ? [edge(s.band?.low), edge(s.band?.high)] : []), ...who];
    }));
  return { header, rows };
}

/** The Chart.js configuration of `spec` drawn with text and reference lines in `textColour` and
 * type of `fontPx` px (default LINE_CHART_FONT_PX) (pure). */
export function lineChartConfig(spec: LineChartSpec, textColour: string, fontPx = LINE_CHART_FONT_PX): ChartConfiguration<'line', LinePoint[]> {
  return { type: 'line', data: { datasets: datasets(spec, textColour) }, options: options(spec, textColour, fontPx) } as ChartConfiguration<'line', LinePoint[]>;
}

/** The type size a chart on `canvas` draws with: the page's root type size (workshop mode grows
 * it), never below LINE_CHART_FONT_PX. */
export function chartFontPx(canvas: HTMLCanvasElement): number {
  const root = Number.parseFloat(getComputedStyle(canvas.ownerDocument.documentElement).fontSize);
  return Math.max(LINE_CHART_FONT_PX, Number.isFinite(root) ? root : 0);
}

/** The configuration of the exported chart (pure): dark text, `spec.title` as its title and
 * `spec.note` as its subtitle when given. */
export function lineChartExportConfig(spec: LineChartSpec): ChartConfiguration<'line', LinePoint[]> {
  const config = lineChartConfig(spec, EXPORT_COLOURS.text);
  if (!spec.title && !spec.note) return config;
  const plugins = {
    ...config.options?.plugins,
    ...(spec.title ? { title: { display: true, text: spec.title, color: EXPORT_COLOURS.text, font: { size: Math.round(LINE_CHART_FONT_PX * 1.35), weight: 'bold' as const } } } : {}),
    ...(spec.note ? { subtitle: { display: true, text: spec.note, color: EXPORT_COLOURS.text, font: { size: LINE_CHART_FONT_PX }, padding: { bottom: 10 } } } : {}),
  };
  return { ...config, options: { ...config.options, plugins } };
}

/** The chart as a PNG (dark on white, see chart.ts `chartPng`), with its title and note drawn
 * and written into the file's text chunks (Title, Description). */
export const lineChartPng = (spec: LineChartSpec): Promise<Blob> =>
  chartPng(lineChartExportConfig(spec) as ChartConfiguration, {}, { ...(spec.title ? { Title: spec.title } : {}), ...(spec.note ? { Description: spec.note } : {}) });

/** Draw `spec` on `canvas` (its parent sets the size). */
export function mountLineChart(canvas: HTMLCanvasElement, spec: LineChartSpec): LineChartHandle {
  const textColour = getComputedStyle(canvas).color || '#333';
  let fontPx = chartFontPx(canvas);
  let drawn = spec;
  const chart = new Chart<'line', LinePoint[]>(canvas, lineChartConfig(spec, textColour, fontPx));
  return {
    update(next) {
      drawn = next;
      fontPx = chartFontPx(canvas);
      chart.data.datasets = datasets(next, textColour);
      chart.options = options(next, textColour, fontPx);
      chart.update('none');
    },
    refitFont() {
      const px = chartFontPx(canvas);
      if (px === fontPx) return;
      fontPx = px;
      chart.options = options(drawn, textColour, fontPx);
      chart.update('none');
    },
    yRange: () => [chart.scales.y?.min ?? 0, chart.scales.y?.max ?? 0],
    fontPx: () => fontPx,
    legend: () => (chart.legend?.legendItems ?? []).map((item) => item.text),
    destroy: () => chart.destroy(),
  };
}
