/**
 * No function of src/ has a body over 100 lines (tests, the web sites' route tables in
 * src/web/sites/ and vendored code in src/engine/vendor/ aside): function declarations, methods,
 * arrow functions, function expressions, constructors and accessors, read by TypeScript's own
 * parser (`ts.createSourceFile`); a Svelte component's functions are those of its <script> blocks.
 * A body's length is the lines from its opening line to its closing line, both counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');
const MAX_BODY_LINES = 100;
const EXCLUDED_DIRS = [join(SRC, 'web', 'sites'), join(SRC, 'engine', 'vendor')];

function sourceFiles(dir: string): string[] {
  if (EXCLUDED_DIRS.includes(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(d.name) && !/\.test\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The TypeScript of a file: a Svelte component's <script> blocks, each at its own lines. */
function codeOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.svelte')) return text;
  // Keep line numbers: everything outside the script blocks becomes blank lines.
  return text.replace(/(<script\b[^>]*>)([\s\S]*?)(<\/script>)|[^\n]+/g, (whole, open?: string, body?: string) => (open === undefined ? '' : `${' '.repeat(open.length)}${body}`));
}

/** Every function-like node with a body, and its body's length in lines. */
export function longFunctions(fileName: string, code: string, max: number): { name: string; line: number; lines: number }[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, fileName.endsWith('.svelte') ? ts.ScriptKind.TS : undefined);
  const out: { name: string; line: number; lines: number }[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (node: ts.FunctionLikeDeclaration, parent: ts.Node): string => {
    if (ts.isConstructorDeclaration(node)) return 'constructor';
    const name = ts.isArrowFunction(node) || ts.isFunctionExpression(node) ? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) ? parent.name : undefined) : node.name;
    return name ? name.getText(source) : '(anonymous)';
  };
  const visit = (node: ts.Node, parent: ts.Node) => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) && node.body) {
      const lines = lineOf(node.body.getEnd()) - lineOf(node.body.getStart(source)) + 1;
      if (lines > max) out.push({ name: nameOf(node, parent), line: lineOf(node.getStart(source)), lines });
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  visit(source, source);
  return out;
}

describe('function length', () => {
  it('counts a body from its opening line to its closing line, for every function form', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  x${i}();`).join('\n');
    const code = [
      `function f() {\n${body(101)}\n}`,
      `class C {\n  constructor() {\n${body(101)}\n  }\n  m() {\n${body(100)}\n  }\n  get g() {\n${body(102)}\n  }\n}`,
      `const a = () => {\n${body(101)}\n};`,
      `const e = function () {\n${body(101)}\n};`,
    ].join('\n');
    expect(longFunctions('sample.ts', code, MAX_BODY_LINES).map(({ name, lines }) => [name, lines])).toEqual([
      ['f', 101], ['constructor', 101], ['g', 102], ['a', 101], ['e', 101],
    ]);
  });

  it(`no function of src/ has a body over ${MAX_BODY_LINES} lines`, () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    // A file of at most MAX_BODY_LINES + 2 lines cannot hold a longer body (the fast path).
    const long = files.map((file) => [file, codeOf(file)] as const).filter(([, code]) => code.split('\n').length > MAX_BODY_LINES + 2).flatMap(([file, code]) => longFunctions(file, code, MAX_BODY_LINES).map((f) => `${relative(SRC, file)}:${f.line} ${f.name} (${f.lines} lines)`));
    expect(long).toEqual([]);
  });
});
