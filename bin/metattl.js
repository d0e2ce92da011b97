#!/usr/bin/env node
// `npx metattl …`: the headless command-line entry. Runs src/cli/main.ts through tsx's loader.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const main = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../src/cli/main.ts')).href;
const { run } = await import(main);
process.exitCode = await run(process.argv.slice(2));
