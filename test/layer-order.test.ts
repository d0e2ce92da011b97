/**
 * The layer order and the view boundaries are lint rules (eslint.config.js, docs/architecture.md):
 * a lower layer importing a higher one, two folders of one layer importing each other, the core
 * importing ui, and one view importing another are refused; a module's own tests may set up what
 * its callers provide. Checked through ESLint's API on source text at the paths named.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages for `code` placed at `path` (relative to the repository). */
async function refusals(path: string, code: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  expect(results).toHaveLength(1);
  return results[0]!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (lint)', { timeout: 60_000 }, () => {
  it('a lower layer never imports a higher one, nor a folder of its own layer', async () => {
    expect(await refusals('src/engine/x.ts', "import { runSession } from '../ttl/session-runner.ts';\nexport const f = runSession;\n")).toEqual([expect.stringContaining('src/engine is below src/ttl in the layer order')]);
    expect(await refusals('src/eval/sub/x.ts', "import { estimateEvolution } from '../../evolve/cost-estimate.ts';\nexport const f = estimateEvolution;\n")).toEqual([expect.stringContaining('src/eval is below src/evolve')]);
    expect(await refusals('src/llm/x.ts', "import type { Store } from '../store/interface.ts';\nexport type S = Store;\n")).toEqual([expect.stringContaining('src/llm is below src/store')]);
    expect(await refusals('src/store/x.ts', "import { scrubText } from '../common/secrets.ts';\nexport const f = scrubText;\n")).toEqual([]);
    expect(await refusals('src/ttl/x.ts', "import { buildActorMessages } from '../agents/actor-prompt.ts';\nexport const f = buildActorMessages;\n")).toEqual([]);
  });

  it('the core never imports ui; views never import each other (Experiments included); tests are exempt from the layer order only', async () => {
    expect(await refusals('src/ttl/x.ts', "import { x } from '../ui/shared/state/services.ts';\nexport const f = x;\n")).toEqual([expect.stringContaining('The core never imports ui')]);
    expect(await refusals('src/ui/experiments/x.ts', "import { x } from '../evaluate/evaluate.svelte.ts';\nexport const f = x;\n")).toEqual([expect.stringContaining('Views never import each other')]);
    expect(await refusals('src/share/x.test.ts', "import { x } from '../ttl/web-engine.ts';\nexport const f = x;\n")).toEqual([]);
    expect(await refusals('src/share/x.test.ts', "import { x } from '../ui/App.svelte';\nexport const f = x;\n")).toEqual([expect.stringContaining('The core never imports ui')]);
  });
});
