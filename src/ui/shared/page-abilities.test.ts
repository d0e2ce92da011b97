/** What a page on plain http from another machine lacks, and the fallbacks it uses instead. */
import { describe, expect, it } from 'vitest';
import { createJsdomDocument } from '../../web/node/jsdom-document.ts';
import { copyText, insecureNotice, isolationText, localModelProblem, newId, readPageAbilities, type AbilityScope } from './page-abilities.ts';

/** A secure page's globals (https or localhost, with COOP + COEP). */
const securePage: AbilityScope = {
  isSecureContext: true,
  crossOriginIsolated: true,
  navigator: { clipboard: { writeText: async () => undefined }, locks: {}, storage: { getDirectory: () => undefined } },
  crypto: { subtle: {} },
  location: { hostname: 'localhost' },
};
/** The same page at http://classroom.test: the browser hides every secure-context API. */
const lanPage: AbilityScope = { isSecureContext: false, crossOriginIsolated: false, navigator: { storage: {} }, crypto: {}, location: { hostname: 'classroom.test' } };

describe('readPageAbilities', () => {
  it('reads every ability on a secure page', () => {
    expect(readPageAbilities(securePage)).toEqual({ secure: true, isolated: true, clipboard: true, locks: true, modelStorage: true, host: 'localhost' });
  });
  it('reads none of them on a plain-http page from another machine', () => {
    expect(readPageAbilities(lanPage)).toEqual({ secure: false, isolated: false, clipboard: false, locks: false, modelStorage: false, host: 'classroom.test' });
  });
  it('needs both file storage and crypto.subtle for the in-page model', () => {
    expect(readPageAbilities({ ...securePage, crypto: {} }).modelStorage).toBe(false);
    expect(readPageAbilities({ ...securePage, navigator: { storage: {} } }).modelStorage).toBe(false);
  });
});

describe('the page notice', () => {
  it('says plainly what needs https or localhost on a plain-http page', () => {
    expect(insecureNotice(readPageAbilities(lanPage))).toBe(
      'This page is served over plain http from another machine (classroom.test): the in-page local model (Settings) needs https or localhost; everything else works.',
    );
  });
  it('is absent on a secure page, and where the in-page model can run anyway', () => {
    expect(insecureNotice(readPageAbilities(securePage))).toBeNull();
    expect(insecureNotice({ ...readPageAbilities(lanPage), modelStorage: true })).toBeNull();
  });
});

describe('the in-page model and isolation texts', () => {
  it('the in-page model says it needs https or localhost on a plain-http page', () => {
    expect(localModelProblem(readPageAbilities(lanPage))).toMatch(/^The in-page model needs https or localhost/);
    expect(localModelProblem(readPageAbilities(securePage))).toBeNull();
  });
  it('never blames the server headers on a plain-http page', () => {
    const lan = isolationText(readPageAbilities(lanPage));
    expect(lan).toContain('needs https or localhost, whatever headers its server sends');
    expect(lan).not.toContain('sends no');
    expect(isolationText({ ...readPageAbilities(securePage), isolated: false })).toContain('its server does not send both COOP and COEP headers');
  });
});

describe('newId', () => {
  it('makes distinct version-4 UUIDs without crypto.randomUUID', () => {
    const a = newId();
    const b = newId();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('copyText', () => {
  const page = (commandCopies: boolean) => {
    const doc = createJsdomDocument();
    const input = doc.createElement('input');
    input.id = 'focus';
    doc.body.append(input);
    const seen: string[] = [];
    doc.execCommand = (command: string) => {
      const field = doc.activeElement as HTMLTextAreaElement | null;
      seen.push(`${command}:${field?.value ?? ''}:${doc.body.querySelectorAll('textarea').length}`);
      return commandCopies;
    };
    return { doc, seen };
  };

  it('uses the clipboard when the page has one', async () => {
    const { doc, seen } = page(true);
    const written: string[] = [];
    await copyText('http://classroom.test/#share=abc', doc, { writeText: async (text) => void written.push(text) });
    expect(written).toEqual(['http://classroom.test/#share=abc']);
    expect(seen).toEqual([]);
  });

  it('falls back to the copy command on a hidden field without a clipboard, and leaves no field behind', async () => {
    const { doc, seen } = page(true);
    const input = doc.getElementById('focus') as HTMLInputElement;
    input.focus();
    await copyText('the link', doc, undefined);
    expect(seen).toEqual(['copy:the link:1']);
    expect(doc.body.querySelectorAll('textarea').length).toBe(0);
    expect(doc.activeElement).toBe(input);
  });

  it('falls back when the clipboard refuses', async () => {
    const { doc, seen } = page(true);
    await copyText('the link', doc, { writeText: async () => Promise.reject(new DOMException('denied', 'NotAllowedError')) });
    expect(seen).toEqual(['copy:the link:1']);
  });

  it('rejects with a plain message when nothing copied', async () => {
    const { doc } = page(false);
    await expect(copyText('the link', doc, undefined)).rejects.toThrow('The browser did not copy: select the text and copy it (Ctrl+C).');
  });
});
