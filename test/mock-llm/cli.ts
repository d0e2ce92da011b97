/**
 * Command-line entry of the mock LLM server, for Playwright's webServer and manual use:
 * `tsx test/mock-llm/cli.ts [--port N] [--host H] [--script file] [--options file.json] …`.
 * Prints the base URL (e.g. http://127.0.0.1:PORT/v1) on stdout and runs until SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { FaultRule, MetaAgentReply, MockOptions, ProposerReply } from './interface.ts';
import { startMockLlm } from './server.ts';

const USAGE = `Usage: tsx test/mock-llm/cli.ts [options]
  --port N                 TCP port (default 0 = a free one)
  --host H                 interface (default 127.0.0.1)
  --script FILE            actor script: a JSON array of commands, or one command per line (# comments)
  --explore a,b,c          exploration commands of the guide-following actor
  --models a,b             model ids listed by GET /v1/models
  --meta-agent-reply MODE  build | empty | missing
  --proposer-reply MODE    build | empty | unchanged | fenced | truncated
  --faults JSON|FILE       fault rules, e.g. '[{"kind":"rate_limit","rate":0.2}]'
  --api-key KEY            refuse requests without "Authorization: Bearer KEY"
  --options FILE           a JSON MockOptions file (flags given as well override it)`;

/** Commands from a script file: a JSON array of strings, or one command per non-comment line. */
export function readScript(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  if (text.trimStart().startsWith('[')) {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || !parsed.every((c) => typeof c === 'string')) throw new Error(`${path}: expected a JSON array of strings`);
    return parsed;
  }
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${flag} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** The options given by the command-line arguments. @throws Error on a bad argument */
export function optionsFromArgs(args: string[]): MockOptions {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' }, host: { type: 'string' }, script: { type: 'string' }, explore: { type: 'string' },
      models: { type: 'string' }, 'meta-agent-reply': { type: 'string' }, 'proposer-reply': { type: 'string' },
      faults: { type: 'string' }, 'api-key': { type: 'string' }, options: { type: 'string' },
    },
    strict: true,
  });
  const options: MockOptions = values.options ? (JSON.parse(readFileSync(values.options, 'utf8')) as MockOptions) : {};
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0-65535, not ${values.port}`);
    options.port = port;
  }
  if (values.host !== undefined) options.host = values.host;
  if (values.script !== undefined) options.script = readScript(values.script);
  if (values.explore !== undefined) options.exploreCommands = values.explore.split(',').map((c) => c.trim()).filter((c) => c !== '');
  if (values.models !== undefined) options.models = values.models.split(',').map((m) => m.trim()).filter((m) => m !== '');
  options.metaAgentReply = oneOf<MetaAgentReply>(values['meta-agent-reply'], ['build', 'empty', 'missing'], '--meta-agent-reply') ?? options.metaAgentReply;
  options.proposerReply = oneOf<ProposerReply>(values['proposer-reply'], ['build', 'empty', 'unchanged', 'fenced', 'truncated'], '--proposer-reply') ?? options.proposerReply;
  if (values.faults !== undefined) {
    const text = values.faults.trimStart().startsWith('[') ? values.faults : readFileSync(values.faults, 'utf8');
    options.faults = JSON.parse(text) as FaultRule[];
  }
  if (values['api-key'] !== undefined) options.apiKey = values['api-key'];
  return options;
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  let options: MockOptions;
  try {
    options = optionsFromArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  const mock = await startMockLlm(options);
  console.log(mock.baseUrl);
  const stop = (): void => void mock.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
