/**
 * One error base with one field: every error class of src/ (found by reading the source with
 * TypeScript's parser: any class whose `extends` chain reaches a built-in error) extends
 * `MetattlError` (src/common/errors.ts, the only class that extends `Error` itself), no two error
 * classes share a name, and the `code` every class (or variant of a family) carries is snake_case
 * and unique across classes, so a caller can branch on `code` alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MetattlError } from '../src/common/errors.ts';
import type { EngineErrorCode, StoryFileErrorCode } from '../src/engine/interface.ts';
import type { LlmErrorKind } from '../src/llm/interface.ts';
import { EngineError, StoryFileError } from '../src/engine/errors.ts';
import { BudgetReachedError, LlmError } from '../src/llm/errors.ts';
import { ReplyFaultError, UnusableReplyError } from '../src/llm/reply-body.ts';
import { ReplyBudgetError } from '../src/llm/reply-grammars.ts';
import { DownloadVerifyError } from '../src/llm/model-download.ts';
import { ModelStorageFullError } from '../src/llm/wllama-model-files.ts';
import { LocalModelMissingError } from '../src/llm/local-chat-model.ts';
import { DamagedRunError, StorageBlockedError, StorageError, StorageFullError } from '../src/store/interface.ts';
import { StorageLowError } from '../src/store/storage-watch.ts';
import { PayloadVersionError } from '../src/store/payload.ts';
import { ImportError } from '../src/agents/export-file.ts';
import { EntryImportError } from '../src/ui/shared/state/entry-io.ts';
import { HumanCandidateError } from '../src/evolve/human-candidate.ts';
import { BudgetTooSmallError } from '../src/evolve/evolution-runner.ts';
import { BranchError } from '../src/evolve/branch.ts';
import { LoopStop } from '../src/evolve/proposers/interface.ts';
import { OracleTargetError } from '../src/web/dom/oracle.ts';
import { ShareError } from '../src/share/share-link.ts';
import { ReplayMismatchError } from '../src/ttl/episode-runner.ts';
import { MissingSessionError } from '../src/ttl/session-service.ts';
import { RegistrationError } from '../src/experiment/registration.ts';
import { ExperimentSpecError } from '../src/experiment/schema.ts';
import { UsageError } from '../src/cli/usage-error.ts';
import { WalkthroughFileError } from '../src/eval/walkthrough-file.ts';
import { RoomScoringError } from '../src/room-server/scorer-context.ts';
import { RoomTaskError } from '../src/room-server/room-tasks.ts';
import { LocalTurnError } from '../src/room-server/forwarder-local.ts';
import { ROOM_ERROR_STATUS, RoomRequestError, RoomSetupError, type RoomErrorCode } from '../src/room-server/room-errors.ts';
import { RoomRefusedError } from '../src/ui/shared/room/room-api.ts';
import { RoomCallError } from '../src/ui/room/room-api.ts';
import { RoomRedisError } from '../src/room-server/redis-state.ts';

const SRC = resolve(import.meta.dirname, '../src');
const BUILT_IN = new Set(['Error', 'RangeError', 'TypeError', 'SyntaxError', 'EvalError', 'ReferenceError', 'URIError', 'AggregateError', 'DOMException']);

interface ClassInfo { name: string; parent: string; file: string; exported: boolean; literalCodes: string[] }

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'vendor' ? [] : sourceFiles(path);
    return /\.(ts|svelte)$/.test(d.name) && !/\.test\.ts$/.test(d.name) && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every `class X extends Y` of src/, with the string literals its `super(…)` calls pass. */
function classesOf(): ClassInfo[] {
  const out: ClassInfo[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const code = file.endsWith('.svelte') ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
    const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) {
        const heritage = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        if (heritage) {
          const literalCodes: string[] = [];
          const findSuper = (n: ts.Node): void => {
            if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) {
              for (const arg of n.arguments) if (ts.isStringLiteral(arg) && /^[a-z][a-z_]*$/.test(arg.text)) literalCodes.push(arg.text);
            }
            ts.forEachChild(n, findSuper);
          };
          ts.forEachChild(node, findSuper);
          const exported = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
          out.push({ name: node.name.text, parent: heritage.expression.getText(source), file: relative(SRC, file), exported, literalCodes });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

const classes = classesOf();
const byName = new Map(classes.map((c) => [c.name, c]));
/** The chain of parents of a class up to a name that is not a class of src/. */
function chainOf(name: string): string[] {
  const chain: string[] = [];
  for (let c = byName.get(name); c && !chain.includes(c.parent); c = byName.get(c.parent)) chain.push(c.parent);
  return chain;
}
const errorClasses = classes.filter((c) => chainOf(c.name).some((p) => BUILT_IN.has(p)));

/** Every variant of the families whose code is a parameter (Record keys: tsc makes them complete). */
const STORY_FILE_CODES: Record<StoryFileErrorCode, null> = { empty: null, truncated: null, not_zcode: null, glulx: null, unsupported_version: null, blorb_without_zcode: null, bad_header: null };
const ENGINE_CODES: Record<EngineErrorCode, null> = { bad_snapshot: null, game_over: null, no_input_pending: null, worker_failed: null };
const LLM_KINDS: Record<LlmErrorKind, null> = { auth: null, quota: null, rate_limit: null, timeout: null, network_or_cors: null, bad_request: null, server: null, bad_response: null, aborted: null, truncated: null };

/** One instance of every exported error class (each variant of a family), by class name. */
const instances: Record<string, MetattlError[]> = {
  StoryFileError: Object.keys(STORY_FILE_CODES).map((c) => new StoryFileError(c as StoryFileErrorCode, 'm')),
  EngineError: Object.keys(ENGINE_CODES).map((c) => new EngineError(c as EngineErrorCode, 'm')),
  LlmError: Object.keys(LLM_KINDS).map((k) => new LlmError(k as LlmErrorKind, 'm')),
  UnusableReplyError: [new UnusableReplyError('m', null)],
  ReplyFaultError: [new ReplyFaultError('bad_request', 'm', { status: 400, message: 'm', param: null, code: null, type: null })],
  BudgetReachedError: [new BudgetReachedError('m')],
  ReplyBudgetError: [new ReplyBudgetError('actor', 1)],
  DownloadVerifyError: [new DownloadVerifyError('m')],
  ModelStorageFullError: [new ModelStorageFullError('model.gguf')],
  LocalModelMissingError: [new LocalModelMissingError()],
  StorageError: [new StorageError('m')],
  DamagedRunError: [new DamagedRunError('r1', { where: 'event 3', record: 'step', problem: 'missing' }, 'episodes 1–2', 2, 'session')],
  StorageFullError: [new StorageFullError('the run "r1"')],
  StorageBlockedError: [new StorageBlockedError('m')],
  StorageLowError: [new StorageLowError(99, 100)],
  PayloadVersionError: [new PayloadVersionError('session', 9, 1)],
  ImportError: [new ImportError('m')],
  EntryImportError: [new EntryImportError('m')],
  HumanCandidateError: [new HumanCandidateError('m')],
  BudgetTooSmallError: [new BudgetTooSmallError('m')],
  BranchError: [new BranchError('m')],
  LoopStop: [new LoopStop('budget', null)],
  OracleTargetError: [new OracleTargetError('m')],
  ShareError: [new ShareError('m')],
  ReplayMismatchError: [new ReplayMismatchError('m')],
  MissingSessionError: [new MissingSessionError('s1', 'the store')],
  RegistrationError: [new RegistrationError('m')],
  ExperimentSpecError: [new ExperimentSpecError(['a'])],
  UsageError: [new UsageError('m')],
  WalkthroughFileError: [new WalkthroughFileError('m')],
  RoomScoringError: [new RoomScoringError('m')],
  RoomTaskError: [new RoomTaskError('m')],
  LocalTurnError: [new LocalTurnError(true, 'm'), new LocalTurnError(false, 'm')],
  RoomRequestError: (Object.keys(ROOM_ERROR_STATUS) as RoomErrorCode[]).map((c) => new RoomRequestError(c, 'm')),
  RoomSetupError: [new RoomSetupError('m')],
  RoomRefusedError: [new RoomRefusedError(403, 'm')],
  RoomCallError: [new RoomCallError('m', 403), new RoomCallError('m', null)],
  RoomRedisError: [new RoomRedisError('m')],
};

describe('error classes', () => {
  it('finds the error classes of src/ by reading the source', () => {
    expect(errorClasses.length).toBeGreaterThanOrEqual(30);
    expect(errorClasses.map((c) => c.name)).toContain('StorageLowError');
  });

  it('extend MetattlError, the only class of src/ that extends a built-in error', () => {
    const direct = errorClasses.filter((c) => BUILT_IN.has(c.parent)).map((c) => `${c.file}: ${c.name}`);
    expect(direct).toEqual(['common/errors.ts: MetattlError']);
    const outside = errorClasses.filter((c) => c.name !== 'MetattlError' && !chainOf(c.name).includes('MetattlError')).map((c) => `${c.file}: ${c.name}`);
    expect(outside).toEqual([]);
  });

  it('have one name each (no two unrelated classes called StorageFullError)', () => {
    const names = errorClasses.map((c) => c.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('every exported one is instantiated here, is a MetattlError at run time and keeps its name', () => {
    const exported = errorClasses.filter((c) => c.exported && c.name !== 'MetattlError').map((c) => c.name).sort();
    expect(Object.keys(instances).sort()).toEqual(exported);
    for (const [name, list] of Object.entries(instances)) {
      for (const error of list) {
        expect(error, name).toBeInstanceOf(MetattlError);
        expect(error, name).toBeInstanceOf(Error);
        expect(error.message.length, name).toBeGreaterThan(0);
      }
    }
    expect(new StorageLowError(99, 100)).toBeInstanceOf(StorageFullError);
    expect(new StorageFullError('x')).toBeInstanceOf(StorageError);
    expect(new UnusableReplyError('m', null)).toBeInstanceOf(LlmError);
    expect(new StorageFullError('x').name).toBe('StorageFullError');
    expect(new UsageError('m').name).toBe('UsageError');
  });

  it('carry snake_case codes unique across classes (a family’s variants are its own)', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    const claim = (code: string, name: string) => {
      expect(code, name).toMatch(/^[a-z][a-z_]*$/);
      const other = owner.get(code);
      if (other !== undefined && other !== name) clashes.push(`${code}: ${other} and ${name}`);
      owner.set(code, name);
    };
    // A subclass that passes one of its family's codes (UnusableReplyError: llm_bad_response) shares it.
    const familyOf = (name: string): string => (name === 'UnusableReplyError' || name === 'ReplyFaultError' ? 'LlmError' : name);
    for (const [name, list] of Object.entries(instances)) for (const error of list) claim(error.code, familyOf(name));
    // Private classes (an engine worker's hang, a GGUF header cut short): their literal codes.
    for (const c of errorClasses.filter((x) => !x.exported)) {
      expect(c.literalCodes.length, `${c.file}: ${c.name} passes its code as a literal`).toBeGreaterThan(0);
      for (const code of c.literalCodes) claim(code, c.name);
    }
    expect(clashes).toEqual([]);
    expect(owner.get('storage_full')).toBe('StorageFullError');
    expect(owner.get('model_storage_full')).toBe('ModelStorageFullError');
    expect(owner.get('truncated')).toBe('StoryFileError');
    expect(owner.get('llm_truncated')).toBe('LlmError');
  });
});
