import { describe, expect, it } from 'vitest';
import { buildMetaPrompt, META_PROMPT_FOOTER, META_PROMPT_HEADER, metaPromptOf, parseLearn, textHash } from './meta-prompt.ts';
import { WEB_TEXTS } from '../web/texts.ts';
import { BUILT_IN_META_PROMPTS, SHARED_ADVICE } from './meta-prompt-library.ts';

describe('meta-prompt', () => {
  it('is header + strategy + footer; the naive one has no strategy section', () => {
    expect(buildMetaPrompt('')).toBe(`${META_PROMPT_HEADER}\n\n${META_PROMPT_FOOTER}`);
    expect(buildMetaPrompt(' Keep a fact bank. ')).toBe(`${META_PROMPT_HEADER}\n\nStrategy:\nKeep a fact bank.\n\n${META_PROMPT_FOOTER}`);
  });

  it('"naive" means naive: the fixed header and footer coach nothing; the hand-written strategies carry that advice', () => {
    const naive = buildMetaPrompt('');
    const coaching = [/what worked will work again/i, /scores? higher/i, /everything the actor should still know/i, /fail again/i];
    for (const advice of [...coaching, /your goal/i]) expect(naive).not.toMatch(advice);
    for (const advice of coaching) expect(SHARED_ADVICE).toMatch(advice);
    for (const entry of BUILT_IN_META_PROMPTS.filter((m) => m.id !== 'naive')) expect(entry.strategy.startsWith(SHARED_ADVICE)).toBe(true);
  });

  it('raw: the text itself, untrimmed, whatever the kind\'s header; otherwise header + strategy + footer', () => {
    const text = '\ufeff  You are the meta-agent.\r\n\t<learn>…</learn>\n\n ';
    expect(metaPromptOf({ strategy: text, raw: true })).toBe(text);
    expect(metaPromptOf({ strategy: text, raw: true }, WEB_TEXTS.logHeader)).toBe(text);
    expect(metaPromptOf({ strategy: text })).toBe(buildMetaPrompt(text));
    expect(metaPromptOf({ strategy: 'x', raw: false }, WEB_TEXTS.logHeader)).toBe(buildMetaPrompt('x', WEB_TEXTS.logHeader));
  });

  it('hashes with sha256', () => {
    expect(textHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('parseLearn', () => {
  it('takes the <learn> text and ignores <think>', () => {
    expect(parseLearn('<think>use <learn>x</learn> maybe</think><learn>\nGo north first.\n</learn>', 'stop')).toEqual({ guidingPrompt: 'Go north first.', status: 'updated' });
  });
  it('empty or missing <learn> keeps the previous guide', () => {
    expect(parseLearn('<think>hm</think><learn>  </learn>', 'stop')).toEqual({ guidingPrompt: null, status: 'empty' });
    expect(parseLearn('Just go north.', 'stop')).toEqual({ guidingPrompt: null, status: 'missing' });
  });
  it('an unclosed tag or a reply cut off before a closed <learn> is truncated', () => {
    expect(parseLearn('<think>long analysis', 'length').status).toBe('truncated');
    expect(parseLearn('Sure! Here is the new guide for', 'length')).toEqual({ guidingPrompt: null, status: 'truncated' });
    expect(parseLearn('<learn>Go north.</learn> And then', 'length')).toEqual({ guidingPrompt: 'Go north.', status: 'updated' });
    expect(parseLearn('<learn>Go north and', 'length').status).toBe('truncated');
    expect(parseLearn('', 'length').status).toBe('truncated');
  });
});
