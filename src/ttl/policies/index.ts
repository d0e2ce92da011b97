/** Build the adaptation policy of a session from its spec (one small module per policy). */
import type { ChatModel } from '../../llm/interface.ts';
import type { TokenCounter } from '../../llm/token-count.ts';
import type { AdaptationPolicy, PolicySpec } from '../policy.ts';
import { MemoryPolicy } from './memory-policy.ts';
import { MetaAgentPolicy } from './meta-agent-policy.ts';
import { ReflexionPolicy } from './reflexion-policy.ts';
import { HumanPolicy, type AskHuman } from './human-policy.ts';
import { StaticPolicy } from './static-policy.ts';
import { TextGradPolicy } from './textgrad-policy.ts';

export interface PolicyDeps {
  /** The meta-agent model; also the baselines' reflection model (same model = comparable arms). */
  reflectionModel: ChatModel;
  countTokens: TokenCounter;
  /** Context window of the reflection / meta-agent model, tokens. */
  contextWindow: number;
  /** How a person is asked for the next guiding prompt (the "human" policy only). */
  askHuman?: AskHuman;
  /** The meta-prompt header of the task's kind (default: the Z-machine's). */
  logHeader?: string;
}

export function createPolicy(spec: PolicySpec, deps: PolicyDeps): AdaptationPolicy {
  switch (spec.kind) {
    case 'static':
      return new StaticPolicy();
    case 'reflexion':
      return new ReflexionPolicy(deps.reflectionModel, { countTokens: deps.countTokens, contextWindow: deps.contextWindow });
    case 'memory':
      return new MemoryPolicy(deps.reflectionModel, { countTokens: deps.countTokens, contextWindow: deps.contextWindow });
    case 'textgrad':
      return new TextGradPolicy(deps.reflectionModel, { countTokens: deps.countTokens, contextWindow: deps.contextWindow });
    case 'human':
      if (!deps.askHuman) throw new Error('the "you are the meta-agent" policy needs a way to ask a person');
      return new HumanPolicy(deps.askHuman);
    case 'meta':
      return new MetaAgentPolicy(deps.reflectionModel, { strategy: spec.strategy, raw: spec.raw === true, logHeader: deps.logHeader, countTokens: deps.countTokens, contextWindow: deps.contextWindow });
  }
}
