/**
 * The one module that imports Chart.js: registers the pieces our line charts use (lines, points,
 * linear and category scales, filled bands, legend, title and subtitle, tooltip) once, and re-exports `Chart` and the
 * types. The learning curve (learning-chart.ts) and the general line chart with confidence bands
 * (line-chart.ts) build their configurations on top of it; `chartPng` draws one as a PNG file.
 */
import { withPngTexts } from './png-text.ts';
import { CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, SubTitle, Title, Tooltip, type ChartConfiguration, type Plugin } from 'chart.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Legend, Title, SubTitle, Tooltip);

export { Chart };
export type { ChartConfiguration, ChartDataset } from 'chart.js';

/** Text and grid colours of exported images: dark on white whatever the page's theme. */
export const EXPORT_COLOURS = { background: '#ffffff', text: '#1e1e1e', grid: '#cfcac0' } as const;

/** Size of an exported image: `width` × `height` CSS px drawn at `scale` (default 960 × 540 at 2, a 1920 × 1080 PNG). */
export interface PngSize {
  width?: number;
  height?: number;
  scale?: number;
}

/**
 * Draw `config` once on a new, detached canvas with an opaque white background (readable on a
 * projector and when the page is dark) and encode it as a PNG. The chart is destroyed afterwards.
 * With `texts` (keyword → text, e.g. Title and Description: the chart's title and who played it)
 * the file carries them as PNG text chunks (png-text.ts).
 * @throws Error when the browser cannot encode the canvas
 */
export async function chartPng(config: ChartConfiguration, { width = 960, height = 540, scale = 2 }: PngSize = {}, texts?: Readonly<Record<string, string>>): Promise<Blob> {
  const drawn = await drawPng(config, { width, height, scale });
  if (!texts || Object.keys(texts).length === 0) return drawn;
  const bytes = withPngTexts(new Uint8Array(await drawn.arrayBuffer()), texts);
  return new Blob([bytes as BlobPart], { type: 'image/png' });
}

async function drawPng(config: ChartConfiguration, { width, height, scale }: Required<PngSize>): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const background: Plugin = {
    id: 'export-background',
    beforeDraw: (chart) => {
      const { ctx } = chart;
      ctx.save();
      ctx.globalCompositeOperation = 'destination-over';
      ctx.fillStyle = EXPORT_COLOURS.background;
      ctx.fillRect(0, 0, chart.width, chart.height);
      ctx.restore();
    },
  };
  const chart = new Chart(canvas, {
    ...config,
    options: { ...config.options, responsive: false, maintainAspectRatio: false, animation: false, devicePixelRatio: scale },
    plugins: [...(config.plugins ?? []), background],
  });
  try {
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The browser could not draw the chart as a PNG.'))), 'image/png'));
  } finally {
    chart.destroy();
  }
}
