/**
 * Report exports (the summary CSV is in report-csv.ts): a Markdown report with the
 * results table (mean ± 95% CI; "best" marked only when its CI excludes the baseline), the
 * per-game table, the warnings and the number of sessions behind every figure.
 */
import type { Interval } from '../ttl/metrics.ts';
import type { EvaluationReport } from './interface.ts';

const f = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const ci = (i: Interval, digits = 3): string => `${f(i.estimate, digits)} [${f(i.low, digits)}, ${f(i.high, digits)}]`;

/** "$0.0123"; "—" for a cost not known (a model called with no price at its provider). */
const usd = (costUsd: number | null | undefined): string => (costUsd === null || costUsd === undefined ? '—' : `$${costUsd.toFixed(4)}`);

/** The summary table as plain text lines (what the CLI prints). */
export function summaryTable(report: EvaluationReport): string {
  const lines = [`policy           set    n   W-AUC (95% CI)          avg score (95% CI)         Δ W-AUC vs ${report.baselinePolicyId}`];
  for (const p of report.policies) {
    const diff = p.diffVsBaseline ? ci(p.diffVsBaseline) + (p.beatsBaseline ? ' *' : '') : '—';
    lines.push(`${p.policyId.padEnd(16)} ${p.taskSet.padEnd(5)} ${String(p.sessions).padStart(3)}  ${ci(p.wAuc).padEnd(24)} ${ci(p.averageScore, 1).padEnd(26)} ${diff}`);
  }
  return lines.join('\n');
}

/** How the intervals are computed (the reports' footnote). */
export const BOOTSTRAP_FOOTNOTE = 'Intervals: percentile bootstrap over the levels at which results vary — games with replacement, then the seeds (tasks) of each drawn game, then the repeats of each drawn seed; a game with one seed resamples its repeats directly. Paired differences resample the same (game, seed, repeat) units for both arms. Resampling every level is conservative when seeds differ (a drawn game already carries its seeds\' spread).';

/** One line on whether the report is complete, and the faulted episodes (empty when complete and clean). */
export function completenessLine(report: EvaluationReport): string {
  const parts: string[] = [];
  if (report.status !== 'complete') {
    const why = report.stopReason ? ` (${report.stopReason}${report.stopMessage ? `: ${report.stopMessage}` : ''})` : '';
    parts.push(`Not complete: the evaluation ${report.status === 'running' ? 'is running' : `stopped${why}`} after ${report.totalSessions} of ${report.plannedSessions} sessions; these figures are partial.`);
  }
  if (report.faultedEpisodes > 0) parts.push(`${report.faultedEpisodes} episode${report.faultedEpisodes === 1 ? ' was' : 's were'} cut short by provider faults; they are not scored, and their sessions are played again on resume.`);
  return parts.join(' ');
}

export function reportToMarkdown(report: EvaluationReport, title = 'Evaluation report'): string {
  const status = completenessLine(report);
  const out = [
    `# ${title}`, '',
    ...(status ? [`> **${status}**`, ''] : []),
    `${report.totalSessions} sessions, ${report.faultedEpisodes} faulted episode${report.faultedEpisodes === 1 ? '' : 's'}. Intervals: 95% percentile bootstrap, hierarchical (games, then seeds within a game, then repeats within a seed), B = ${report.bootstrap.resamples}, seed ${report.bootstrap.seed}. `
      + `Δ is the paired W-AUC difference against **${report.baselinePolicyId}** on the same (game, seed, repeat); **best** marks a policy whose Δ interval excludes 0.`,
    '', '## Results', '',
    '| policy | task set | sessions | games | W-AUC | average score | best score | Δ W-AUC vs baseline | cost |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const p of report.policies) {
    const name = p.beatsBaseline ? `**${p.policyId}** (best)` : p.policyId;
    out.push(`| ${name} | ${p.taskSet} | ${p.sessions} | ${p.games} | ${ci(p.wAuc)} | ${ci(p.averageScore, 1)} | ${ci(p.bestScore, 1)} | ${p.diffVsBaseline ? ci(p.diffVsBaseline) : '—'} | ${usd(p.costUsd)} |`);
  }
  const warnings = report.policies.filter((p) => p.leakWarning);
  if (warnings.length) {
    out.push('', '## Warnings', '');
    for (const p of warnings) out.push(`- **${p.policyId}** on ${p.taskSet}: ${p.leakWarning}`);
  }
  out.push('', '## Per game', '', '| policy | task set | game | sessions | W-AUC | average score | best score |', '|---|---|---|---|---|---|---|');
  for (const g of report.games) out.push(`| ${g.policyId} | ${g.taskSet} | ${g.storyId} | ${g.sessions} | ${ci(g.wAuc)} | ${ci(g.averageScore, 1)} | ${ci(g.bestScore, 1)} |`);
  out.push('', '## Learning curves (mean final score per episode, 95% CI)', '');
  for (const p of report.policies) out.push(`- ${p.policyId} (${p.taskSet}): ${p.curve.map((c, i) => `${i + 1}: ${f(c.estimate, 1)} [${f(c.low, 1)}, ${f(c.high, 1)}]`).join('; ')}`);
  out.push('', '---', '', `${BOOTSTRAP_FOOTNOTE}`);
  return out.join('\n') + '\n';
}
