/**
 * The source's import graph has no cycle, type-only edges included: every module of src/ (tests
 * aside) can be read bottom-up. Imports are read by TypeScript's own pre-processor
 * (`ts.preProcessFile`: static, `export … from`, `import type` and dynamic `import()`); a Svelte
 * component's imports are those of its <script> blocks. Cycles are the strongly connected
 * components of the file graph (Tarjan).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'vendor' ? [] : sourceFiles(path);
    return /\.(ts|svelte)$/.test(d.name) && !/\.test\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files `file` imports (relative specifiers that name a source file). */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const code = file.endsWith('.svelte') ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
  const { importedFiles } = ts.preProcessFile(code, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
    .map((path) => (files.has(path) ? path : files.has(`${path}.ts`) ? `${path}.ts` : null))
    .filter((path): path is string => path !== null);
}

/** Strongly connected components with more than one file (or a file importing itself). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the import graph', () => {
  it('finds a cycle through a type-only edge (the reader sees `import type`)', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
    const { importedFiles } = ts.preProcessFile("import type { X } from './x.ts';\nexport { y } from './y.ts';\nconst z = await import('./z.ts');", true, true);
    expect(importedFiles.map((f) => f.fileName)).toEqual(['./x.ts', './y.ts', './z.ts']);
  });

  it('src/ has no import cycle', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(300);
    const set = new Set(files);
    const graph = new Map(files.map((f) => [f, importsOf(f, set)]));
    expect([...graph.values()].flat().length).toBeGreaterThan(1000);
    expect(cyclesOf(graph).map((c) => c.map((f) => relative(SRC, f)))).toEqual([]);
  });
});
