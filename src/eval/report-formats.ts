/**
 * Report exports (the summary CSV is in report-csv.ts): a Markdown report with the
 * results table (mean ± 95% CI; "Δ > 0 (Holm)" only for a declared contrast that survives Holm's
 * correction of its game-level sign-flip p), the comparisons (bootstrap Δ, per-game Δ, the
 * game-level t-interval and sign-flip p, Holm p, repeats needed), the per-game table, the
 * warnings (few games, identical repeats, leaks) and the number of sessions behind every figure.
 */
import type { Interval } from '../ttl/metrics.ts';
import type { Comparison, EvaluationReport } from './interface.ts';

const f = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const ci = (i: Interval, digits = 3): string => `${f(i.estimate, digits)} [${f(i.low, digits)}, ${f(i.high, digits)}]`;

/** "$0.0123"; "—" for a cost not known (a model called with no price at its provider). */
const usd = (costUsd: number | null | undefined): string => (costUsd === null || costUsd === undefined ? '—' : `$${costUsd.toFixed(4)}`);

/** The summary table as plain text lines (what the CLI prints). */
export function summaryTable(report: EvaluationReport): string {
  const lines = [`policy           set    n   W-AUC (95% CI)          avg score (95% CI)         Δ W-AUC vs ${report.baselinePolicyId}`];
  for (const p of report.policies) {
    const diff = p.diffVsBaseline ? ci(p.diffVsBaseline) + (p.beatsBaseline ? ' Δ > 0 (Holm)' : '') : '—';
    lines.push(`${p.policyId.padEnd(16)} ${p.taskSet.padEnd(5)} ${String(p.sessions).padStart(3)}  ${ci(p.wAuc).padEnd(24)} ${ci(p.averageScore, 1).padEnd(26)} ${diff}`);
  }
  for (const w of report.warnings ?? []) lines.push(`warning (${w.code}): ${w.message}`);
  return lines.join('\n');
}

/** How the intervals are computed and what they cannot show (the reports' footnote). */
export const BOOTSTRAP_FOOTNOTE = 'Intervals: percentile bootstrap over the levels at which results vary — games with replacement, then the seeds (tasks) of each drawn game, then the repeats of each drawn seed; a game with one seed resamples its repeats directly. Paired differences resample the same (game, seed, repeat) units for both arms. '
  + 'With few games this bootstrap is not conservative: it can only redraw the G games it has, so its interval is roughly [lowest game, highest game] and, when games truly differ, excludes 0 far more often than 5 % under the null (3 games, 15 repeats: 11–21 % in simulation). '
  + 'A claim about games rests on the game-level test, which treats each game\'s mean Δ as one observation: the t-interval with G − 1 degrees of freedom and the exact two-sided sign-flip p over all 2^G sign assignments, whose smallest reachable value is 2 / 2^G (0.25 for 3 games, 0.031 for 6). '
  + '"Δ > 0 (Holm)" marks a declared contrast whose sign-flip p, Holm-adjusted over the report\'s declared contrasts, is ≤ 0.05 with Δ > 0; other pairs are exploratory (uncorrected). With fewer than 6 games a result is a claim about these games, not games in general. '
  + 'Repeats needed: for the named Δ, the repeats per task at which the game-level t-test has 80 % power, from the run\'s own within-game SD σ and game-level SD τ (none when τ alone keeps the power below 80 %: then only more games help). '
  + 'Learning curves are normalised per game (final score ÷ the game\'s max score), so a game with many points does not set their shape.';

/** The flag text of a comparison: "Δ > 0 (Holm)" or "" (nothing when it does not survive). */
export const flagText = (c: Pick<Comparison, 'positive'>): string => (c.positive ? 'Δ > 0 (Holm)' : '');

/** "0.25" / "0.031" / "<0.001". */
export const pText = (p: number | null): string => (p === null || !Number.isFinite(p) ? '—' : p < 0.001 ? '<0.001' : p.toFixed(p < 0.1 ? 3 : 2));

/** The cells of one comparison (shared by Markdown, HTML and the page): label, Δ, t-interval, p, Holm, flag, repeats needed. */
export function comparisonCells(c: Comparison): { label: string; delta: string; tInterval: string; signFlip: string; holm: string; flag: string; power: string; games: string } {
  const g = c.gameLevel;
  return {
    label: `${c.a} − ${c.b}`,
    delta: `${f(c.delta.mean)} [${f(c.delta.low)}, ${f(c.delta.high)}]`,
    tInterval: `[${f(g.tLow)}, ${f(g.tHigh)}]`,
    signFlip: `${pText(g.signFlipP)} (min ${pText(g.minP)})`,
    holm: c.declared ? pText(c.holmP) : 'exploratory',
    flag: flagText(c),
    power: c.power.repeatsNeeded !== null ? `${c.power.repeatsNeeded} (Δ = ${c.power.delta})` : `— (${c.power.reason ?? 'not reachable'})`,
    games: String(g.games),
  };
}

/** One line per game of a comparison: "game: Δ [low, high] (n)". */
export const perGameText = (c: Comparison): string => c.perGame.map((g) => `${g.game} ${f(g.mean)} [${f(g.low)}, ${f(g.high)}]`).join('; ');

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

/** The header line naming the code that ran an evaluation (results.json's codeVersion). */
export const codeVersionLine = (codeVersion: string | null | undefined): string => `Code version: ${codeVersion ?? 'unknown (run before it was recorded)'}.`;

/**
 * The report as Markdown (report.md). `codeVersion` is the code that ran the evaluation (results.json's
 * `codeVersion`); the header says "unknown" when it is not given.
 */
export function reportToMarkdown(report: EvaluationReport, title = 'Evaluation report', codeVersion?: string | null): string {
  const status = completenessLine(report);
  const out = [
    `# ${title}`, '', codeVersionLine(codeVersion), '',
    ...(report.simulated ? [`> **Model: simulated (${report.simulated}).**`, ''] : []),
    ...(report.model ? [`> **${report.model[0]!.toUpperCase()}${report.model.slice(1)}.**`, ''] : []),
    ...(status ? [`> **${status}**`, ''] : []),
    `${report.totalSessions} sessions, ${report.faultedEpisodes} faulted episode${report.faultedEpisodes === 1 ? '' : 's'}. Intervals: 95% percentile bootstrap, hierarchical (games, then seeds within a game, then repeats within a seed), B = ${report.bootstrap.resamples}, seed ${report.bootstrap.seed}. `
      + `Δ is the paired W-AUC difference against **${report.baselinePolicyId}** on the same (game, seed, repeat); **Δ > 0 (Holm)** marks a declared contrast that survives Holm's correction of its game-level sign-flip p (nothing is marked when none does).`,
    '', '## Results', '',
    '| policy | task set | sessions | games | W-AUC | average score | best score | Δ W-AUC vs baseline | cost |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const p of report.policies) {
    const id = p.rawMetaPrompt ? `${p.policyId} (raw)` : p.policyId;
    const name = p.beatsBaseline ? `**${id}** Δ > 0 (Holm)` : id;
    out.push(`| ${name} | ${p.taskSet} | ${p.sessions} | ${p.games} | ${ci(p.wAuc)} | ${ci(p.averageScore, 1)} | ${ci(p.bestScore, 1)} | ${p.diffVsBaseline ? ci(p.diffVsBaseline) : '—'} | ${usd(p.costUsd)} |`);
  }
  const warnings = report.policies.filter((p) => p.leakWarning);
  if (warnings.length || report.warnings?.length) {
    out.push('', '## Warnings', '');
    for (const w of report.warnings ?? []) out.push(`- **${w.code}**: ${w.message}`);
    for (const p of warnings) out.push(`- **${p.policyId}** on ${p.taskSet}: ${p.leakWarning}`);
  }
  out.push(...comparisonsMarkdown([...(report.comparisons ?? []), ...(report.exploratoryComparisons ?? [])], policyNamesOf(report)));
  out.push('', '## Per game', '', '| policy | task set | game | sessions | W-AUC | average score | best score |', '|---|---|---|---|---|---|---|');
  for (const g of report.games) out.push(`| ${g.policyId} | ${g.taskSet} | ${g.storyId} | ${g.sessions} | ${ci(g.wAuc)} | ${ci(g.averageScore, 1)} | ${ci(g.bestScore, 1)} |`);
  out.push('', '## Learning curves (mean final score per episode, 95% CI; normalised per game: score ÷ the game\'s max score)', '');
  for (const p of report.policies) {
    const norm = p.normalisedCurve?.length ? p.normalisedCurve : null;
    out.push(`- ${p.policyId} (${p.taskSet}): ${(norm ?? p.curve).map((c, i) => `${i + 1}: ${f(c.estimate, norm ? 3 : 1)} [${f(c.low, norm ? 3 : 1)}, ${f(c.high, norm ? 3 : 1)}]`).join('; ')}${norm ? '' : ' (raw points: no max score known)'}`);
  }
  out.push('', '---', '', `${BOOTSTRAP_FOOTNOTE}`);
  return out.join('\n') + '\n';
}

/** Policy id → name for people, from a report's policies (`policyName`; ids without one are left out). */
export function policyNamesOf(report: Pick<EvaluationReport, 'policies'>): Map<string, string> {
  const names = new Map<string, string>();
  for (const p of report.policies) if (p.policyName !== undefined && p.policyName !== '') names.set(p.policyId, p.policyName);
  return names;
}

/** A comparison's "a − b" for people: by name, with the ids after it when a name differs from its
 * id ("Fact bank − Naive (fact-bank − naive)": the ids are the CSV's and the JSON's). */
export function comparisonPairText(c: Pick<Comparison, 'a' | 'b'>, names: ReadonlyMap<string, string> = new Map()): string {
  const ids = `${c.a} − ${c.b}`;
  const named = `${names.get(c.a) ?? c.a} − ${names.get(c.b) ?? c.b}`;
  return named === ids ? ids : `${named} (${ids})`;
}

/** The comparisons as Markdown: one table row each, then each one's per-game Δ; arms by name
 * (`names`: policy id → name) with their ids. */
export function comparisonsMarkdown(comparisons: readonly (Comparison & { step?: string })[], names: ReadonlyMap<string, string> = new Map()): string[] {
  if (comparisons.length === 0) return [];
  const steps = comparisons.some((c) => c.step !== undefined);
  const out = ['', '## Comparisons (W-AUC, a − b, paired)', '',
    `| ${steps ? 'step | ' : ''}a − b | task set | games | Δ bootstrap (95% CI) | game-level t-interval | sign-flip p | Holm p | flag | repeats needed |`,
    `|${steps ? '---|' : ''}---|---|---|---|---|---|---|---|---|`];
  for (const c of comparisons) {
    const x = comparisonCells(c);
    out.push(`| ${steps ? `${c.step ?? ''} | ` : ''}${comparisonPairText(c, names)} | ${c.taskSet} | ${x.games} | ${x.delta} | ${x.tInterval} | ${x.signFlip} | ${x.holm} | ${x.flag || '—'} | ${x.power} |`);
  }
  out.push('', '### Per game Δ (95% bootstrap over each game\'s seeds and repeats)', '');
  for (const c of comparisons) out.push(`- ${c.step ? `${c.step} ` : ''}${comparisonPairText(c, names)} (${c.taskSet}): ${perGameText(c)}`);
  return out;
}
