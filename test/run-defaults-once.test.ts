/**
 * Run defaults are written once: K, S, the evolution's budget, minibatch size and consecutive
 * failures appear as numbers only in the run-defaults modules (ttl/, eval/, evolve/
 * run-defaults.ts). The test reads every source file of src/ with TypeScript's parser (a Svelte
 * file's script blocks, and its markup by pattern) and fails on a default's value written as a
 * literal where that setting is given a value: a property or variable of the setting's name
 * (`episodes: 6`), a fallback (`config.maxSteps ?? 50`, `form.budget = v ?? 50`) or an option
 * read with its default (`intOption(x, 'steps', 50, …)`). The paper's published settings, which a
 * replication fixes whatever our defaults are, are the only exception (listed with their reason).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { EVOLUTION_DEFAULTS } from '../src/evolve/run-defaults.ts';
import { SESSION_DEFAULTS } from '../src/ttl/run-defaults.ts';

const SRC = resolve(import.meta.dirname, '../src');

/** Each setting's names (properties, variables, CLI options) and its default value. */
const SETTINGS: { names: string[]; value: number }[] = [
  { names: ['episodes'], value: SESSION_DEFAULTS.episodes },
  { names: ['maxSteps', 'steps'], value: SESSION_DEFAULTS.maxSteps },
  { names: ['budgetMetricCalls', 'budget'], value: EVOLUTION_DEFAULTS.budgetMetricCalls },
  { names: ['minibatchSize', 'minibatch'], value: EVOLUTION_DEFAULTS.minibatchSize },
  { names: ['maxConsecutiveFailures', 'maxFailures', 'max-failures'], value: EVOLUTION_DEFAULTS.maxConsecutiveFailures },
];
const DEFAULT_OF = new Map(SETTINGS.flatMap((s) => s.names.map((n) => [n, s.value] as const)));

/** Files allowed to write these numbers, and why. */
const EXCEPTIONS: Record<string, string> = {
  'experiment/builtins.ts': 'the paper\'s published settings (K = 6, S = 50, budget, minibatch 1): a replication fixes them',
  'experiment/estimate.ts': 'the paper\'s measured token counts, at the paper\'s K = 6',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'vendor' ? [] : sourceFiles(path);
    return /\.(ts|svelte)$/.test(d.name) && !/\.test\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') && d.name !== 'run-defaults.ts' ? [path] : [];
  });
}

/** The name a node gives a value to: a property, variable or binding name, or a property read. */
function nameOf(node: ts.Node): string | null {
  if (ts.isIdentifier(node) || ts.isStringLiteral(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression)) return node.argumentExpression.text;
  return null;
}

const literal = (node: ts.Node | undefined): number | null => (node && ts.isNumericLiteral(node) ? Number(node.text.replace(/_/g, '')) : null);

/** `name` given the number `n` that is its default. */
const isDefault = (name: string | null, n: number | null): boolean => name !== null && n !== null && DEFAULT_OF.get(name) === n;

/** Each place in `code` where a default is written as a number ("line: text"). */
function defaultLiterals(code: string, file = 'x.ts'): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const hit = (node: ts.Node) => found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 80)}`);
  const visit = (node: ts.Node): void => {
    if ((ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node) || ts.isBindingElement(node) || ts.isParameter(node) || ts.isPropertyDeclaration(node)) && isDefault(nameOf(node.name), literal(node.initializer))) hit(node);
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      const fallback = op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken;
      if (fallback && isDefault(nameOf(node.left), literal(node.right))) hit(node);
      // `form.episodes = v ?? 6`
      if (op === ts.SyntaxKind.EqualsToken && ts.isBinaryExpression(node.right) && node.right.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken && isDefault(nameOf(node.left), literal(node.right.right))) hit(node);
    }
    if (ts.isCallExpression(node)) {
      node.arguments.forEach((arg, i) => {
        if (ts.isStringLiteral(arg) && isDefault(arg.text, literal(node.arguments[i + 1]))) hit(node);
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A Svelte file's script blocks as code, and its markup's expressions in braces. */
function svelteCode(text: string): string {
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  const markup = text.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, '');
  const expressions = [...markup.matchAll(/\{([^{}]*)\}/g)].map((m) => `(${m[1]});`).filter((e) => !/^\(\s*[#:/@]/.test(e));
  return `${scripts}\n${expressions.join('\n')}`;
}

describe('run defaults are written once', () => {
  it('the scan finds a default written as a number, in each form it takes', () => {
    expect(defaultLiterals('const c = { episodes: 6, maxSteps: 50 };')).toHaveLength(2);
    expect(defaultLiterals('const k = config.episodes ?? 6;')).toHaveLength(1);
    expect(defaultLiterals("form.budgetMetricCalls = v ?? 50;")).toHaveLength(1);
    expect(defaultLiterals("intOption(values.steps, 'steps', 50, 1, 100);")).toHaveLength(1);
    expect(defaultLiterals("const m = { maxConsecutiveFailures: 5, minibatchSize: 1 };")).toHaveLength(2);
    // Other numbers, and the defaults read from their module, are not.
    expect(defaultLiterals('const c = { episodes: SESSION_DEFAULTS.episodes, maxSteps: 15, repeats: 6 };')).toEqual([]);
  });

  it('no file of src/ writes K, S, budget, minibatch or max failures as a number (run-defaults.ts excepted)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(SRC, file);
      if (EXCEPTIONS[rel]) continue;
      const text = readFileSync(file, 'utf8');
      const code = file.endsWith('.svelte') ? svelteCode(text) : text;
      offenders.push(...defaultLiterals(code, file.endsWith('.svelte') ? `${file}.ts` : file).map((f) => `${rel}:${f}`));
    }
    expect(offenders).toEqual([]);
  });

  it('each exception still holds one of these numbers (else it is stale)', () => {
    for (const rel of Object.keys(EXCEPTIONS)) expect(defaultLiterals(readFileSync(join(SRC, rel), 'utf8')), rel).not.toEqual([]);
  });
});
