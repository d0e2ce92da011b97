/**
 * Work that depends only on a story file, done once per story (by md5) and shared by every engine
 * of that story in this thread: ifvms' compiled routines and parsed dictionaries. Only what lies in
 * static memory (at or above the header's static-memory base) is shared, since that part of a
 * story can never change at run time. Does not import ifvms: it works on the VM's members below.
 */

/** The ZVM members this module reads and wraps (ifvms 1.1.6, `src/zvm.js` and `src/zvm/text.js`). */
export interface CachingVm {
  /** Address of the next instruction; `compile()` compiles the routine starting there. */
  pc: number;
  /** First byte of static memory (header word 0x0E); set once the story has started. */
  staticmem: number;
  /** ifvms' per-VM cache by address: compiled routines, and decoded strings. */
  jit: unknown[] | Record<number, unknown>;
  /** This VM's dictionaries parsed since its last restart, by address. */
  dictionaries: Record<number, unknown>;
  compile(): void;
  parse_dict(addr: number): unknown;
}

/** A compiled routine and where ifvms' disassembler left `vm.pc` after compiling it. */
interface CompiledRoutine {
  routine: unknown;
  endPc: number;
}

/** Shared per-story work: compiled routines and parsed dictionaries by byte address. */
interface StoryWork {
  routines: Map<number, CompiledRoutine>;
  dictionaries: Map<number, unknown>;
}

/** Stories whose work is kept; the least recently loaded one is dropped beyond this. */
const MAX_STORIES = 8;
const stories = new Map<string, StoryWork>();

function workFor(md5: string): StoryWork {
  let work = stories.get(md5);
  if (work) {
    stories.delete(md5); // re-inserted below: most recently used last
  } else {
    work = { routines: new Map(), dictionaries: new Map() };
  }
  stories.set(md5, work);
  while (stories.size > MAX_STORIES) stories.delete(stories.keys().next().value!);
  return work;
}

/**
 * Make `vm` reuse the compiled routines and parsed dictionaries of earlier engines of the story
 * `md5`, and contribute its own. Call on a fresh VM, before `prepare()`.
 *
 * A compiled routine is a function of the VM (`new Function('e', …)`) whose body depends only on
 * the story's bytes from `pc` on and on story constants (version, globals address), so engines of
 * one story can share it; sharing also shares V8's warm-up, so a new engine neither compiles nor
 * starts from cold code (bench: first pass on a new engine, warm vs cold). A dictionary in static memory parses to the same table every time, so restarts (each
 * `reset()` and `restore()`) no longer re-parse it. Routines and dictionaries in dynamic memory
 * stay per VM, as in ifvms.
 */
export function shareStoryWork(vm: CachingVm, md5: string): void {
  const work = workFor(md5);
  const compile = vm.compile;
  const parseDict = vm.parse_dict;
  vm.compile = function sharedCompile(this: CachingVm): void {
    const pc = this.pc;
    const jit = this.jit as Record<number, unknown>;
    if (pc < this.staticmem) return compile.call(this);
    const shared = work.routines.get(pc);
    if (shared) {
      jit[pc] = shared.routine;
      this.pc = shared.endPc; // as ifvms' disassembler leaves it
      return;
    }
    compile.call(this);
    if (jit[pc]) work.routines.set(pc, { routine: jit[pc], endPc: this.pc });
  };
  vm.parse_dict = function sharedParseDict(this: CachingVm, addr: number): unknown {
    if (addr < this.staticmem) return parseDict.call(this, addr);
    let dictionary = work.dictionaries.get(addr);
    if (dictionary === undefined) {
      dictionary = parseDict.call(this, addr);
      work.dictionaries.set(addr, dictionary);
    }
    this.dictionaries[addr] = dictionary;
    return dictionary;
  };
}

/** Drop every story's shared work (tests; frees the memory of stories no longer played). */
export function clearStoryWork(): void {
  stories.clear();
}

/** How many compiled routines are shared for `md5` (0 when none): for tests and the benchmark. */
export function sharedRoutineCount(md5: string): number {
  return stories.get(md5)?.routines.size ?? 0;
}
