/** Player logic in Node with fake services: the real synchronous engine, a memory store, no DOM. */
import { describe, expect, it } from 'vitest';
import { StorageFullError } from '../../store/interface.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import { adventBytes as advent, fakeServices as services } from '../../../test/support/ui/fake-services.ts';
import { Player } from './player.svelte.ts';

describe('Player', () => {
  it('plays advent: step, undo, save and restore a slot', async () => {
    const player = new Player(services());
    await player.init();
    expect(player.shelf.entries.map((e) => e.id)).toEqual(['advent', 'lever-room', 'vault']);
    await player.selectStory('advent');
    expect(player.seed).toBe(5);
    expect(player.maxScore).toBe(350);
    await player.send('east');
    expect(player.session.last?.statusLine).toContain('Inside Building');
    expect(player.session.canUndo).toBe(true);
    await player.save('inside');
    expect(player.session.slots.map((s) => s.name)).toEqual(['inside']);
    await player.send('west');
    await player.restoreSlot('inside');
    expect(player.session.last?.statusLine).toContain('Inside Building');
    await player.undo();
    expect(player.session.last?.statusLine).toContain('At End Of Road');
    expect(player.error).toBeNull();
  });

  it('shows a bad file\'s StoryFileError and keeps the running game', async () => {
    const player = new Player(services());
    await player.init();
    await player.selectStory('advent');
    await player.addFiles([new File([new Uint8Array(0)], 'empty.z5')]);
    expect(player.error).toBe('“empty.z5”: The story file is empty (0 bytes).');
    expect(player.selectedId).toBe('advent');
    await player.send('east');
    expect(player.session.last?.statusLine).toContain('Inside Building');
  });

  it('a story whose header checksum does not match plays, with a warning the user can dismiss', async () => {
    const player = new Player(services());
    await player.init();
    const patched = advent.slice();
    patched[0x1d] = patched[0x1d]! ^ 0xff; // the recorded checksum, not the game
    await player.addFiles([new File([patched], 'patched.z5')]);
    expect(player.error).toBeNull();
    expect(player.warning).toMatch(/^The story file's header checksum \(0x[0-9a-f]{4}\) does not match its contents \(0x[0-9a-f]{4}\): the file may be damaged or modified\. It may still run/);
    expect(player.session.last?.statusLine).toContain('At End Of Road');
    await player.send('east');
    expect(player.session.last?.statusLine).toContain('Inside Building');
    await player.selectStory('advent');
    expect(player.warning).toBeNull();
  });

  it('a story that fails to start is not kept on the story shelf, and says why in the user\'s terms', async () => {
    const store = new MemoryStore();
    const player = new Player(services(store));
    await player.init();
    await player.selectStory('advent');
    const broken = advent.slice();
    broken[76352] = 0; // an instruction the story runs before its first input becomes opcode #0
    await player.addFiles([new File([broken], 'broken.z5')]);
    expect(player.error).not.toBeNull();
    expect(player.error).not.toMatch(/^(RangeError|TypeError|Error):/);
    expect(player.error).toBe('The story failed to start: The story ran an instruction the interpreter cannot carry out: the story file is damaged, or it uses a feature this interpreter lacks. (details: Unknown opcode #0 at pc=76352) “broken.z5” was not added to the story shelf.');
    expect(await store.listStories()).toEqual([]);
    expect(player.shelf.entries.map((e) => e.id)).toEqual(['advent', 'lever-room', 'vault']);
    expect(player.selectedId).toBe('advent');
    await player.send('east');
    expect(player.session.last?.statusLine).toContain('Inside Building');
  });

  it('keeps a user story playable (unsaved) when storage is full', async () => {
    const store = new MemoryStore();
    store.putStory = async () => {
      throw new StorageFullError('the story "mine.z5"');
    };
    const player = new Player(services(store));
    await player.init();
    await player.addFiles([new File([advent], 'mine.z5')]);
    expect(player.error).toMatch(/^Storage is full.*playable until you close the page\.$/);
    expect(player.current?.entry).toMatchObject({ source: 'user', unsaved: true });
    expect(player.session.last?.statusLine).toContain('At End Of Road');
  });

  it('reopens the last story, or the one in ?story= with ?seed=', async () => {
    const store = new MemoryStore();
    const first = new Player(services(store));
    await first.init();
    await first.selectStory('advent');
    const again = new Player(services(store));
    await again.init();
    expect(again.current?.entry.id).toBe('advent');
    const queried = new Player(services(new MemoryStore(), 'story=advent&seed=9'));
    await queried.init();
    expect(queried.current?.entry.id).toBe('advent');
    expect(queried.session.seed).toBe(9);
  });
});
