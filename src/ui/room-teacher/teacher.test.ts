import { describe, expect, it } from 'vitest';
import { roundConfigOf, type RoundForm } from './teacher.svelte.ts';

const form: RoundForm = { title: ' Warm-up ', practiceStories: ['lever-room'], practiceSeeds: '1, 2', hiddenStories: ['lever-room', 'vault'], hiddenSeeds: '3', episodes: 3, steps: 12, repeats: 2, minutes: null };

describe('roundConfigOf', () => {
  it('makes the round request from the form', () => {
    expect(roundConfigOf(form)).toEqual({ title: 'Warm-up', practiceTasks: ['lever-room:1', 'lever-room:2'], hiddenTasks: ['lever-room:3', 'vault:3'], episodes: 3, steps: 12, repeats: 2, minutes: null });
  });

  it('refuses an empty hidden set and a hidden set that repeats practice tasks', () => {
    expect(() => roundConfigOf({ ...form, hiddenStories: [] })).toThrow('at least one story and one seed for the hidden set');
    expect(() => roundConfigOf({ ...form, hiddenSeeds: '2, 3' })).toThrow('repeats practice tasks (lever-room:2)');
  });
});
