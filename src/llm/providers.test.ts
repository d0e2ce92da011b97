/** A preset that needs a key refuses a run with one sentence when none is set. */
import { describe, expect, it } from 'vitest';
import { baseUrlProblem, missingKeyText, PROVIDER_PRESETS } from './providers.ts';

describe('missingKeyText', () => {
  it('names the preset for every preset that needs a key, and nothing for keyless ones or with a key', () => {
    for (const preset of PROVIDER_PRESETS) {
      const text = missingKeyText({ presetId: preset.id, apiKey: '' });
      expect(text).toBe(preset.needsKey ? `${preset.label} needs an API key: add yours in Settings.` : null);
      expect(missingKeyText({ presetId: preset.id, apiKey: 'sk-abc' })).toBeNull();
    }
    expect(missingKeyText({ presetId: 'openai', apiKey: '   ' })).toBe('OpenAI needs an API key: add yours in Settings.');
    expect(missingKeyText({ presetId: 'no-such-preset', apiKey: '' })).toBeNull();
  });

});

describe('baseUrlProblem', () => {
  it('accepts absolute http(s) addresses and names what is wrong with the rest', () => {
    for (const ok of ['http://localhost:11434/v1', 'https://api.openai.com/v1', ' http://127.0.0.1:9/v1 ']) expect(baseUrlProblem(ok), ok).toBeNull();
    expect(baseUrlProblem('  ')).toBe('Enter the provider’s base URL first.');
    expect(baseUrlProblem('htp:/nonsense base url')).toBe('“htp:/nonsense base url” is not an http(s) address: enter one like http://localhost:11434/v1.');
    expect(baseUrlProblem('not a url')).toBe('“not a url” is not a web address: enter one like http://localhost:11434/v1.');
    expect(baseUrlProblem('localhost:11434/v1')).toBe('“localhost:11434/v1” is not an http(s) address: enter one like http://localhost:11434/v1.');
    expect(baseUrlProblem('in-page:wllama')).toBeNull();
    expect(baseUrlProblem('ftp://host/v1')).toBe('“ftp://host/v1” is not an http(s) address: enter one like http://localhost:11434/v1.');
  });
});
