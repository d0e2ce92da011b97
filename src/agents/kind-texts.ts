/**
 * The kind-specific texts of the Z-machine (text adventures): the actor's preamble and reply
 * contract, the meta-agent's log header and the fallback action — today's constants, gathered in
 * the shape every environment provides (`EnvironmentTexts`; the web's are in src/web/texts.ts).
 */
import type { EnvironmentKind, EnvironmentTexts } from '../web/interface.ts';
import { ACTOR_PREAMBLE, REPLY_CONTRACT } from './actor-prompt.ts';
import { META_PROMPT_HEADER } from './meta-prompt.ts';
import { FALLBACK_ACTION } from './reply-parser.ts';

export const ZMACHINE_TEXTS: EnvironmentTexts = {
  actorPreamble: ACTOR_PREAMBLE,
  replyContract: REPLY_CONTRACT,
  logHeader: META_PROMPT_HEADER,
  fallbackAction: FALLBACK_ACTION,
};

/** What a session or trajectory was played on: `{ kind: 'web', id: 'web:shop/t12:3' }` or
 * `{ kind: 'zmachine', id: 'zork1:12' }`. Optional in records (older ones have none). */
export interface TaskDescriptor {
  kind: EnvironmentKind;
  id: string;
}
