/**
 * `metattl stories get`: the real CLI against a local HTTP server serving ../shared's
 * story files — fetched and checked, already there, a wrong-md5 file, a 404, a server that stalls,
 * a redirect —, a `file://` mirror, the local copies a failed download names, and getStories' zip-member, Blorb and "the address serves another release" paths.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog } from '../src/engine/catalog.ts';
import { getStories, PAPER_GAMES, STORY_SOURCES, suiteGames, type StoryGetIo } from '../src/stories/story-download.ts';
import { makeBlorb } from './support/blorb.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT, sharedDir } from './support/shared.ts';

const STORIES = resolve(sharedDir(), 'stories');
const md5 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('hex');
const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8'))).stories;

let server: Server;
let base = '';
let hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    hits.push(path);
    const name = path.split('/').pop() ?? '';
    if (path.startsWith('/stall/')) return; // never answers
    if (path.startsWith('/moved/')) {
      res.writeHead(302, { location: `/mirror/${name}` }).end();
      return;
    }
    if (path.startsWith('/wrong/')) {
      // Another story's bytes under this name: a valid Z-machine file with the wrong md5.
      res.writeHead(200).end(readFileSync(join(STORIES, 'advent.z5')));
      return;
    }
    if (path.startsWith('/mirror/') && existsSync(join(STORIES, name))) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(join(STORIES, name)));
      return;
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('metattl stories get', () => {
  it('fetches the paper suite from a mirror, checks each md5 against Jericho\'s, and leaves them alone the second time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-stories-'));
    try {
      hits = [];
      const first = await runCli(['stories', 'get', '--suite', 'paper', '--mirror', `${base}/mirror`, '--dir', dir]);
      expect(first.code, first.stderr).toBe(0);
      const lines = first.stdout.trim().split('\n');
      expect(lines.slice(0, 6).map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(PAPER_GAMES.map((id) => `${id} fetched`));
      expect(lines[2]).toContain('temple.z5 (Free to distribute unmodified, non-profit (not shipped))');
      expect(lines[6]).toBe(`stories in ${dir}`);
      for (const id of PAPER_GAMES) {
        const name = STORY_SOURCES[id]!.fileName;
        expect(md5(readFileSync(join(dir, name))), id).toBe(catalog.find((e) => e.id === id)!.md5);
      }
      expect(hits.sort()).toEqual(PAPER_GAMES.map((id) => `/mirror/${STORY_SOURCES[id]!.fileName}`).sort());
      hits = [];
      const again = await runCli(['stories', 'get', 'detective', 'zork1', '--mirror', `${base}/mirror`, '--dir', dir, '--json']);
      expect(again.code).toBe(0);
      const json = JSON.parse(again.stdout) as { dir: string; results: { id: string; status: string; md5: string }[] };
      expect(json.dir).toBe(dir);
      expect(json.results.map((r) => [r.id, r.status])).toEqual([['detective', 'already there'], ['zork1', 'already there']]);
      expect(hits).toEqual([]);
      // The CLI finds what it fetched: a replay by catalog id, with METATTL_STORIES_DIR pointing there.
      const replay = await runCli(['replay', 'temple', '--commands', '/dev/null', '--json'], { ...process.env, METATTL_STORIES_DIR: dir, SHARED_DIR: '/nonexistent' });
      expect(replay.code, replay.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a wrong md5, a 404 and a stalled server per game, keeps nothing of them, and exits 1; a redirect is followed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-stories-'));
    try {
      const wrong = await runCli(['stories', 'get', 'detective', '--mirror', `${base}/wrong`, '--dir', dir, '--json']);
      expect(wrong.code).toBe(1);
      const w = (JSON.parse(wrong.stdout) as { results: { status: string; receivedMd5: string; message: string }[] }).results[0]!;
      expect(w.status).toBe('md5 mismatch');
      expect(w.receivedMd5).toBe(md5(readFileSync(join(STORIES, 'advent.z5'))));
      expect(w.message).toBe(`detective.z5: md5 ${w.receivedMd5}, expected Jericho's 822655c9be83e292e06d3d3b1d6a9734; not kept.`);
      const missing = await runCli(['stories', 'get', 'zork2', '--mirror', `${base}/mirror`, '--dir', dir]);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toMatch(/^zork2\s+not found\s+http:\/\/127\.0\.0\.1:\d+\/mirror\/zork2\.z5 answered HTTP 404\.$/m);
      const stalled = await runCli(['stories', 'get', 'balances', '--mirror', `${base}/stall`, '--dir', dir, '--timeout-ms', '800']);
      expect(stalled.code).toBe(1);
      expect(stalled.stdout).toContain('balances     failed         Could not download');
      expect(stalled.stdout).toContain('no complete answer within 1 s');
      expect(readdirSync(dir)).toEqual([]);
      const moved = await runCli(['stories', 'get', 'library', '--mirror', `${base}/moved`, '--dir', dir]);
      expect(moved.code, moved.stdout).toBe(0);
      expect(readdirSync(dir)).toEqual(['library.z5']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses unknown games and suites, games with --suite, and a mirror neither http(s) nor file://, as usage errors (exit 2)', async () => {
    for (const args of [['stories', 'get', 'no-such-game'], ['stories', 'get', '--suite', 'infocom'], ['stories', 'get', 'zork1', '--suite', 'paper'], ['stories', 'get'], ['stories', 'get', 'zork1', '--mirror', 'ftp://example.invalid/stories'], ['stories', 'get', 'zork1', '--mirror', '/tmp'], ['stories', 'fetch']]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^metattl: stories/);
    }
  });
});

describe('metattl stories get with local copies', () => {
  it('takes a file:// directory as the mirror: copies found are fetched and checked, a missing one is "not found"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-stories-'));
    try {
      const mirror = pathToFileURL(STORIES).href;
      const got = await runCli(['stories', 'get', 'zork1', 'zork2', '--mirror', mirror, '--dir', dir, '--json']);
      expect(got.code).toBe(1);
      const results = (JSON.parse(got.stdout) as { results: { id: string; status: string; url: string; message: string }[] }).results;
      expect(results.map((r) => [r.id, r.status, r.url])).toEqual([['zork1', 'fetched', `${mirror}/zork1.z5`], ['zork2', 'not found', `${mirror}/zork2.z5`]]);
      expect(readdirSync(dir)).toEqual(['zork1.z5']);
      expect(md5(readFileSync(join(dir, 'zork1.z5')))).toBe(catalog.find((e) => e.id === 'zork1')!.md5);
      // The file:// mirror's message says nothing of other copies: the user chose where to look.
      expect(results[1]!.message).toBe(`${mirror}/zork2.z5 answered HTTP 404.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('offline (every download failing), names the local copy it found and the --mirror file:// line, or every directory it looked in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-stories-'));
    try {
      const env = { ...process.env, SHARED_DIR: resolve(STORIES, '..'), METATTL_STORIES_DIR: dir };
      // A 1 ms bound fails every download before any answer, as offline.
      const offline = await runCli(['stories', 'get', 'zork1', 'zork2', '--dir', dir, '--timeout-ms', '1', '--json'], env);
      expect(offline.code).toBe(1);
      const [zork1, zork2] = (JSON.parse(offline.stdout) as { results: { status: string; message: string }[] }).results;
      expect(zork1!.status).toBe('failed');
      expect(zork1!.message).toContain(`A local copy is at ${join(STORIES, 'zork1.z5')}: the CLI already plays it from there`);
      expect(zork1!.message).toContain(`npx metattl stories get zork1 --mirror ${pathToFileURL(STORIES).href}`);
      expect(zork2!.message).toContain(`No local copy of zork2.z5 either (looked in ${resolve(REPO_ROOT, 'public/stories')}, ${STORIES}); with one, use --mirror file:///its/directory.`);
      expect(readdirSync(dir)).toEqual([]);
      // The line it names works.
      const copied = await runCli(['stories', 'get', 'zork1', '--mirror', pathToFileURL(STORIES).href, '--dir', dir], env);
      expect(copied.code, copied.stdout).toBe(0);
      expect(copied.stdout).toMatch(/^zork1\s+fetched\s+zork1\.z5/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('getStories', () => {
  const temple = new Uint8Array(readFileSync(join(STORIES, 'temple.z5')));
  function io(body: Uint8Array): StoryGetIo & { written: Map<string, Uint8Array> } {
    const written = new Map<string, Uint8Array>();
    return {
      written,
      fetch: (async () => new Response(body.slice().buffer as ArrayBuffer)) as unknown as typeof fetch,
      readExisting: async (name) => written.get(name) ?? null,
      write: async (name, bytes) => void written.set(name, bytes),
    };
  }

  it('takes the named member out of a zip and the Z-code out of a Blorb; the suites list every game with an address', async () => {
    const zipped = io(zipSync({ 'games/Temple.z5': temple, 'readme.txt': new Uint8Array([65]) }));
    const [fromZip] = await getStories(['temple'], catalog, zipped, { sources: { temple: { fileName: 'temple.z5', url: 'http://x/t.zip', zipMember: 'Temple.z5' } } });
    expect(fromZip!.status).toBe('fetched');
    expect(md5(zipped.written.get('temple.z5')!)).toBe('22a0ddac6be15540616c10f1007197f3');
    const blorb = io(makeBlorb(temple));
    const [fromBlorb] = await getStories(['temple'], catalog, blorb, { sources: { temple: { fileName: 'temple.z5', url: 'http://x/t.zblorb' } } });
    expect(fromBlorb).toMatchObject({ status: 'fetched', bytes: temple.length });
    const noMember = io(zipSync({ 'other.z5': temple }));
    const [missing] = await getStories(['temple'], catalog, noMember, { sources: { temple: { fileName: 'temple.z5', url: 'http://x/t.zip', zipMember: 'Temple.z5' } } });
    expect(missing).toMatchObject({ status: 'failed', message: 'http://x/t.zip did not give a Z-machine story file: the zip has no file named Temple.z5' });
    expect(suiteGames('jericho')).toHaveLength(56);
    expect(suiteGames('jericho')).toEqual(expect.arrayContaining([...PAPER_GAMES]));
    for (const id of suiteGames('jericho')) expect(catalog.find((e) => e.id === id), id).toBeDefined();
  });

  it('says when the address serves the release its list names rather than Jericho\'s', async () => {
    const other = new Uint8Array(readFileSync(join(STORIES, 'advent.z5')));
    const [result] = await getStories(['temple'], catalog, io(other), { sources: { temple: { fileName: 'temple.z5', url: 'http://x/temple.z5', listedMd5: md5(other) } } });
    expect(result!.status).toBe('md5 mismatch');
    expect(result!.message).toContain(`It is the release the address list names (${md5(other)}), not the one Jericho's walkthrough and score reads are for`);
    // The real list: five games' listed md5s differ from Jericho's (two of the paper's).
    expect(Object.entries(STORY_SOURCES).filter(([, s]) => s.listedMd5).map(([id]) => id).sort()).toEqual(['infidel', 'library', 'plundered', 'reverb', 'temple']);
  });
});
