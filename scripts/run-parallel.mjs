#!/usr/bin/env node
/**
 * Runs npm scripts at the same time (`node scripts/run-parallel.mjs typecheck lint`): `npm test`
 * type-checks and lints on both cores at once. Each script's output is printed whole when it
 * ends (never interleaved); exits 1 if any script failed, after all have ended.
 */
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs SCRIPT...\n');
  process.exit(2);
}
const codes = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (chunk) => chunks.push(chunk));
        child.stderr.on('data', (chunk) => chunks.push(chunk));
        child.on('close', (code, signal) => {
          process.stdout.write(`> npm run ${name}: ${code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`}\n`);
          process.stdout.write(Buffer.concat(chunks));
          resolve(code ?? 1);
        });
      }),
  ),
);
process.exit(codes.every((code) => code === 0) ? 0 : 1);
