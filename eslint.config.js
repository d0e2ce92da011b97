import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

/**
 * Import boundaries: each library has one wrapper module, and the core never imports ui. ESLint
 * applies only the last matching setting of a rule, so every file gets one complete ban list.
 */
const WRAPPED = {
  ifvms: 'src/engine/zvm-engine.ts',
  idb: 'src/store/idb-store.ts',
  openai: 'src/llm/openai-chat-model.ts',
  'node-llama-cpp': 'src/llm/local-chat-model.ts',
  'p-retry': 'src/llm/retry-policy.ts',
  'eventsource-parser': 'src/llm/sse-reader.ts',
  'chart.js': 'src/ui/shared/charts/chart.ts',
  'dom-accessibility-api': 'src/web/dom/axtree.ts',
  jsdom: 'src/web/node/jsdom-document.ts',
  papaparse: 'src/eval/csv.ts',
  elkjs: 'src/ui/shared/map/room-layout.ts',
  yjs: 'src/room/room-doc.ts',
  '@hocuspocus/provider': 'src/room/room-client.ts',
  '@hocuspocus/server': 'src/room-server/hocuspocus.ts',
  '@hocuspocus/extension-database': 'src/room-server/hocuspocus.ts',
  '@hocuspocus/extension-redis': 'src/room-server/hocuspocus.ts',
  qrcode: 'src/room/qr-code.ts',
  ioredis: 'src/room-server/redis-state.ts',
};
/** The web environment draws into an injected Document (jsdom in Node, an iframe in the page): no DOM globals. */
const DOM_GLOBALS = ['window', 'document', 'self', 'navigator', 'location', 'localStorage', 'sessionStorage', 'getComputedStyle', 'HTMLElement', 'Element', 'Node', 'DOMParser', 'fetch'];
const injectedDom = {
  files: ['src/web/**'],
  ignores: ['src/web/node/**', 'src/web/**/*.test.ts'],
  rules: { 'no-restricted-globals': ['error', ...DOM_GLOBALS.map((name) => ({ name, message: 'src/web uses the injected Document, never a DOM global.' }))] },
};
const uiBan = { group: ['**/ui/**', 'svelte', 'svelte/*'], message: 'The core never imports ui.' };
/** The bans on every library but those `wrapper` wraps (null: every library). */
const libraryBans = (wrapper) =>
  Object.entries(WRAPPED)
    .filter(([, path]) => path !== wrapper)
    .map(([lib, wrapper]) => ({ group: [lib, `${lib}/*`], message: `Only ${wrapper} imports ${lib}.` }));
const bans = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
/** One folder per view; what several views use lives in src/ui/shared, so a view never imports another view. */
const VIEWS = ['play', 'agent', 'learn', 'replay', 'meta-library', 'evolve', 'evaluate', 'experiments', 'settings', 'tour', 'workshop', 'kiosk', 'room', 'room-teacher', 'projector'];
const viewBans = (view) =>
  VIEWS.filter((other) => other !== view).map((other) => ({ group: [`../${other}/*`], message: `Views never import each other: move what ${view} and ${other} share to src/ui/shared.` }));
/**
 * The core's layer order (docs/architecture.md): a folder imports only folders of a lower layer —
 * ui → room → experiment → (eval, evolve) → ttl → (agents, share, stories) → (engine, web, llm,
 * store) → common. Folders of one layer never import each other.
 */
const LAYERS = { common: 0, engine: 1, web: 1, llm: 1, store: 1, agents: 2, share: 2, stories: 2, ttl: 3, eval: 4, evolve: 4, experiment: 5, room: 6 };
const layerBans = (folder) =>
  Object.entries(LAYERS)
    .filter(([other, rank]) => other !== folder && rank >= LAYERS[folder])
    .map(([other]) => ({ group: [`**/${other}/**`], message: `src/${folder} is below src/${other} in the layer order (docs/architecture.md): move what both need down a layer.` }));
const folderOf = (path) => path.split('/')[1];
const boundaries = [
  { files: ['src/**'], rules: bans(libraryBans(null)) },
  ...VIEWS.map((view) => ({ files: [`src/ui/${view}/**`], rules: bans([...viewBans(view), ...libraryBans(null)]) })),
  { files: ['src/ui/shared/**'], rules: bans([...VIEWS.map((v) => ({ group: [`../../${v}/*`], message: 'src/ui/shared never imports a view.' })), ...libraryBans(null)]) },
  ...Object.keys(LAYERS).map((folder) => ({ files: [`src/${folder}/**`], ignores: ['**/*.test.ts'], rules: bans([uiBan, ...layerBans(folder), ...libraryBans(null)]) })),
  // A test may set up what its module's callers provide (a policy, a web engine): no layer order.
  { files: Object.keys(LAYERS).map((folder) => `src/${folder}/**/*.test.ts`), rules: bans([uiBan, ...libraryBans(null)]) },
  ...[...new Set(Object.values(WRAPPED))].map((wrapper) => ({
    files: [wrapper],
    rules: bans([...(folderOf(wrapper) in LAYERS ? [uiBan, ...layerBans(folderOf(wrapper))] : []), ...libraryBans(wrapper)]),
  })),
];

export default ts.config(
  { ignores: ['dist/', 'build/', 'node_modules/', '.scratch/', 'src/engine/vendor/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  ...boundaries,
  injectedDom,
);
