/**
 * What the engine adds around ifvms' VM and Glk, apart from randomness: the header fields an
 * interpreter owns (Z-Machine Standard 1.1 §11), which characters the story can receive, and
 * keeping text that Glk would drop at a screen clear. Works on structural types, so it needs no
 * ifvms import (zvm-engine.ts stays the only importer).
 */
import type { GlkApi } from './vendor/glkapi-factory.js';

/** Header byte 0x1E, interpreter number (Standard §11.1.3): 6, "IBM PC", the usual choice of
 * interpreters for machines not in the Standard's list. */
export const INTERPRETER_NUMBER = 6;
/** Header byte 0x1F, interpreter version (an ASCII letter in v4/v5, §11.1.3.1): 'I' for ifvms. */
export const INTERPRETER_VERSION = 'I'.charCodeAt(0);
/** Flags 1 bits (v4+) for boldface, italic and fixed-space styles (§11.1.2, §8.7.1.1): the
 * observation is plain text, so these are not advertised and games fall back to capitals the way
 * they do under dfrotz and Jericho. */
const V4_STYLE_FLAGS = 0x04 | 0x08 | 0x10;

/** The part of ifvms' VM these helpers touch. */
export interface HeaderVm {
  /** Dynamic memory, header included. */
  ram: DataView;
  version: number;
}

/** Write interpreter number/version and clear the style flags we cannot honour (v4+ only: v3
 * has neither field, §11.1). Call after ifvms' own update_header (start, restart, restore). */
export function writeInterpreterHeader(vm: HeaderVm): void {
  if (vm.version < 4) return;
  vm.ram.setUint8(0x1e, INTERPRETER_NUMBER);
  vm.ram.setUint8(0x1f, INTERPRETER_VERSION);
  vm.ram.setUint8(0x01, vm.ram.getUint8(0x01) & ~V4_STYLE_FLAGS);
}

/** Whether the story's Unicode translation table (ifvms' reverse table, §3.8.5) holds a code point. */
export function unicodeTableHas(vm: unknown, code: number): boolean {
  const table = (vm as { reverse_unicode_table?: Record<number, number> }).reverse_unicode_table;
  return !!table && table[code] !== undefined;
}

/**
 * Glk drops a buffer window's unsent text when it is cleared, and a grid window's lines when it
 * is cleared or resized; send the pending update to the GlkOte first, so text printed before a
 * screen clear and quote boxes drawn then erased within one step still reach the observation.
 */
export function keepTextAcrossClears(glk: GlkApi): void {
  const clear = glk.glk_window_clear;
  glk.glk_window_clear = (win: unknown) => {
    glk.update();
    clear(win);
  };
  const arrange = glk.glk_window_set_arrangement;
  glk.glk_window_set_arrangement = (...args: unknown[]) => {
    glk.update();
    arrange(...args);
  };
}
