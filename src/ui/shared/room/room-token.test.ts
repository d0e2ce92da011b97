import { describe, expect, it } from 'vitest';
import { roomTokenKey, takeRoomToken, type TokenHost } from './room-token.ts';

function host(href: string): TokenHost & { replaced: string[]; stored: Map<string, string> } {
  const stored = new Map<string, string>();
  const replaced: string[] = [];
  return {
    stored, replaced,
    location: { href },
    history: { state: { kept: true }, replaceState: (_data, _unused, url) => { replaced.push(url); } },
    sessionStorage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
  };
}

describe('takeRoomToken', () => {
  it('moves the token from the address into sessionStorage and removes it from the address at once', () => {
    const h = host('http://192.168.1.20:8080/?view=room-teacher&teacher=fake-test-key-teacher#top');
    expect(takeRoomToken('teacher', h)).toBe('fake-test-key-teacher');
    expect(h.stored.get(roomTokenKey('teacher'))).toBe('fake-test-key-teacher');
    expect(h.replaced).toEqual(['/?view=room-teacher#top']);
  });

  it('finds the stored token after a reload, and null without one', () => {
    const h = host('http://192.168.1.20:8080/?view=projector');
    expect(takeRoomToken('projector', h)).toBeNull();
    h.stored.set(roomTokenKey('projector'), 'fake-test-key-projector');
    expect(takeRoomToken('projector', h)).toBe('fake-test-key-projector');
    expect(h.replaced).toEqual([]);
  });
});
