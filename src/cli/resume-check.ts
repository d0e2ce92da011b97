/**
 * The CLI side of the resume check (store/run-check.ts): a damaged evolution run or evaluation
 * stops the command with one error naming the file and the first bad record, plus the command that
 * continues from the last intact record.
 */
import { DamagedRunError, type RunKind, type Store } from '../store/interface.ts';
import { checkRunForResume, type RecordValidator } from '../store/run-check.ts';
import { codeVersion } from '../common/code-version.ts';
import type { LlmSettings, RecordedLlmSettings, Role, RoleSettings, SettingsChangeRecord } from '../llm/interface.ts';
import type { SessionConfig, SessionRecord } from '../ttl/session-record.ts';
import { UsageError } from './usage-error.ts';

/** @throws DamagedRunError (message ending with `continueCommand`) when the run is damaged and
 * `fromLastGood` is not set */
export async function resumeCheck(store: Store, id: string, kind: RunKind, validate: RecordValidator, fromLastGood: boolean, continueCommand: string): Promise<void> {
  try {
    await checkRunForResume(store, id, kind, validate, fromLastGood);
  } catch (error) {
    if (error instanceof DamagedRunError) error.message += ` To continue from there: ${continueCommand}`;
    throw error;
  }
}

/** The models and other result-changing settings a run records (each part optional: what a run
 * made before it was recorded lacks is not compared). */
export interface RunSettings {
  models: Partial<Record<Role, string>>;
  llm?: RecordedLlmSettings | undefined;
  /** Whether reply grammars were on (`--provider local`); absent = off. */
  replyGrammar?: boolean | undefined;
}

const ROLE_NAMES = { actor: 'actor', metaAgent: 'meta-agent', proposer: 'proposer' } as const;

/** The provider's base URL and each role's temperature and completion limit, as a run records them. */
export function recordedLlmSettings(settings: LlmSettings): RecordedLlmSettings {
  const role = (r: Role) => ({ temperature: settings.roles[r].temperature, maxTokens: settings.roles[r].maxTokens });
  return { baseUrl: settings.provider.baseUrl, roles: { actor: role('actor'), metaAgent: role('metaAgent'), proposer: role('proposer') } };
}

/** What a resume with `settings` (and `--reply-grammar` as `replyGrammar`) would run with. */
export function runSettingsNow(settings: LlmSettings, replyGrammar: boolean | undefined): Required<RunSettings> & { models: Record<Role, string>; llm: RecordedLlmSettings } {
  return { models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model, proposer: settings.roles.proposer.model }, llm: recordedLlmSettings(settings), replyGrammar: replyGrammar ?? false };
}

/**
 * Each way a resume would change the run's settings: the model of a role in `roles`, the base URL,
 * the temperature or completion limit of a role in `settingRoles`, reply grammars ("actor model:
 * a → b", "base URL: x → y", "meta-agent max tokens: 512 → 1024", "reply grammars: on → off");
 * [] when none.
 */
export function settingsChanges(recorded: RunSettings, now: RunSettings & { models: Record<Role, string> }, roles: readonly Role[], settingRoles: readonly Role[] = roles): string[] {
  const out = roles.filter((r) => recorded.models[r] !== undefined && recorded.models[r] !== now.models[r]).map((r) => `${ROLE_NAMES[r]} model: ${recorded.models[r]} → ${now.models[r]}`);
  const before = recorded.llm;
  if (before && now.llm) {
    if (before.baseUrl !== now.llm.baseUrl) out.push(`base URL: ${before.baseUrl} → ${now.llm.baseUrl}`);
    for (const r of settingRoles) {
      const was = before.roles[r];
      const is = now.llm.roles[r];
      if (was.temperature !== is.temperature) out.push(`${ROLE_NAMES[r]} temperature: ${was.temperature ?? 'not sent'} → ${is.temperature ?? 'not sent'}`);
      if (was.maxTokens !== is.maxTokens) out.push(`${ROLE_NAMES[r]} max tokens: ${was.maxTokens} → ${is.maxTokens}`);
    }
  }
  const onOff = (v: boolean | undefined) => (v ? 'on' : 'off');
  if ((recorded.replyGrammar ?? false) !== (now.replyGrammar ?? false)) out.push(`reply grammars: ${onOff(recorded.replyGrammar)} → ${onOff(now.replyGrammar)}`);
  return out;
}

/**
 * Refuse a resume that would change the run's models or settings, unless `allowed`
 * (--allow-changed-settings); when allowed, say the change on stderr and return its record (to
 * keep with the run), else null.
 * @throws UsageError naming every change and the flag that allows it
 */
export function changedSettingsCheck(what: string, changes: readonly string[], allowed: boolean): SettingsChangeRecord | null {
  if (changes.length === 0) return null;
  if (!allowed) throw new UsageError(`${what} --resume would change the run's settings: ${changes.join('; ')}. Resume with the flags it ran with, or add --allow-changed-settings to continue with these (the change is recorded).`);
  process.stderr.write(`metattl: ${what} continues with changed settings (recorded): ${changes.join('; ')}\n`);
  return { at: new Date().toISOString(), codeVersion: codeVersion(), changes: [...changes] };
}

/**
 * A resumed run's config after an allowed change of settings (`change`; null: none, the config as
 * it was): the models, settings and reply grammars it now runs with, and the change recorded.
 */
export function withChangedSettings<C extends { models: object; llm?: RecordedLlmSettings; replyGrammar?: boolean; settingsChanges?: SettingsChangeRecord[] }>(
  config: C, change: SettingsChangeRecord | null, now: ReturnType<typeof runSettingsNow>,
): C {
  if (!change) return config;
  const { replyGrammar: _was, ...rest } = config;
  const models = Object.fromEntries(Object.keys(config.models).map((r) => [r, now.models[r as Role]]));
  return { ...rest, models, llm: now.llm, ...(now.replyGrammar ? { replyGrammar: true } : {}), settingsChanges: [...(config.settingsChanges ?? []), change] } as unknown as C;
}

/**
 * A stored session about to be resumed with `now` (the config the flags build): the record as it
 * was when its models, base URL, temperatures, completion limits and reply grammars are the same;
 * refused when they differ, unless `allowed` — then the record with `now`'s models and provider and
 * the change recorded (`settingsChanges`).
 * @throws UsageError naming every change and the flag that allows it (the engine is the caller's to dispose)
 */
export function resumedSessionSettings(previous: SessionRecord, now: SessionConfig, allowed: boolean): SessionRecord {
  const of = (c: SessionConfig): RunSettings & { models: Record<Role, string> } => {
    const role = (r: RoleSettings | null) => ({ temperature: r?.temperature ?? null, maxTokens: r?.maxTokens ?? 1 });
    return {
      models: { actor: c.models.actor.model, metaAgent: c.models.reflection?.model ?? '', proposer: '' },
      llm: { baseUrl: c.provider.baseUrl, roles: { actor: role(c.models.actor), metaAgent: role(c.models.reflection), proposer: role(null) } },
      replyGrammar: c.replyGrammar,
    };
  };
  // The meta-agent's model and settings count only for a session that calls one.
  const roles: Role[] = previous.config.models.reflection ? ['actor', 'metaAgent'] : ['actor'];
  const change = changedSettingsCheck('session', settingsChanges(of(previous.config), of(now), roles), allowed);
  if (!change) return previous;
  const { replyGrammar: _was, ...config } = previous.config;
  return {
    ...previous,
    config: { ...config, models: now.models, provider: now.provider, ...(now.replyGrammar !== undefined ? { replyGrammar: now.replyGrammar } : {}) },
    settingsChanges: [...(previous.settingsChanges ?? []), change],
  };
}
