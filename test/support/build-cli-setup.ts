/**
 * Vitest global setup: builds the CLI (build/cli/) once before any test file runs, so the CLI
 * tests run the real `bin/metattl.js` on a build of the current sources, and parallel test files
 * never race to rebuild a stale one. (bin/metattl.js also refuses a stale build by itself.)
 */
import { buildCli } from '../../scripts/build-cli.mjs';

export default async function setup(): Promise<void> {
  await buildCli();
}
