/**
 * The one module that imports Chart.js: registers the pieces our line charts use (lines, points,
 * linear and category scales, filled bands, legend, tooltip) once, and re-exports `Chart` and the
 * types. The learning curve (learn/learning-chart.ts) and the general line chart with confidence
 * bands (evolve/line-chart.ts) build their configurations on top of it.
 */
import { CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Legend, Tooltip);

export { Chart };
export type { ChartConfiguration, ChartDataset } from 'chart.js';
