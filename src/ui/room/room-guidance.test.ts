import { describe, expect, it } from 'vitest';
import { joinedNameNote, submitBlockedReason, taskLabel } from './room-guidance.ts';
import { roomAllowance } from '../shared/room/room-allowance.ts';

const titles = (id: string): string | null => ({ 'lever-room': 'The Lever Room', zork1: 'Zork I' })[id] ?? null;

describe('why Submit is disabled', () => {
  it('names the round’s state, a missing round, or an empty draft; null when Submit works', () => {
    expect(submitBlockedReason(null, 'Keep notes.')).toBe('No round is open: wait for the teacher to open one.');
    expect(submitBlockedReason({ state: 'locked' }, 'Keep notes.')).toBe('The round is locked: submissions are closed.');
    expect(submitBlockedReason({ state: 'revealed' }, 'Keep notes.')).toBe('The round is revealed: submissions are closed.');
    expect(submitBlockedReason({ state: 'closed' }, 'Keep notes.')).toBe('The round is closed: wait for the teacher to open the next one.');
    expect(submitBlockedReason({ state: 'open' }, '  \n')).toBe('Write a meta-prompt first (or start from a Library entry).');
    expect(submitBlockedReason({ state: 'open' }, 'Keep notes.')).toBeNull();
  });
});

describe('a room task as a reader names it', () => {
  it('is the story’s title and seed; its id when the shelf lacks it; a web task by its id', () => {
    expect(taskLabel('lever-room:1', titles)).toBe('The Lever Room, seed 1');
    expect(taskLabel('zork1:12', titles)).toBe('Zork I, seed 12');
    expect(taskLabel('mystery:4', titles)).toBe('mystery, seed 4');
    expect(taskLabel('web:shop/t12:3', titles)).toBe('web task shop/t12:3');
  });
});

describe('the name the room gave', () => {
  it('says when it was made unique or cut, and nothing when kept', () => {
    expect(joinedNameNote('Alice', 'Alice')).toBeNull();
    expect(joinedNameNote(' Alice ', 'Alice')).toBeNull();
    expect(joinedNameNote('Alice', 'Alice (2)')).toBe('You are Alice (2): another participant has that name.');
    const long = 'A'.repeat(45);
    expect(joinedNameNote(long, 'A'.repeat(40))).toBe(`You are ${'A'.repeat(40)}: names are cut to 40 characters.`);
    expect(joinedNameNote('<b>Bo</b>', 'Bo')).toBe('You are Bo: the room changed the name you typed.');
  });
});

describe('what the room still allows', () => {
  it('is the caps minus the usage, never below 0, null where uncapped', () => {
    expect(roomAllowance({ tokens: 337, calls: 4 }, { maxTokens: 3000, maxCalls: 40 })).toEqual({ tokens: 2663, calls: 36 });
    expect(roomAllowance({ tokens: 3100, calls: 4 }, { maxTokens: 3000, maxCalls: null })).toEqual({ tokens: 0, calls: null });
  });
});
