import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

/** Each library has one wrapper module; the core never imports ui. */
const bans = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default ts.config(
  { ignores: ['dist/', 'node_modules/', '.scratch/', 'src/engine/vendor/', 'test-results/', 'playwright-report/'] },
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
  { files: ['src/engine/**', 'src/agents/**', 'src/ttl/**', 'src/evolve/**', 'src/llm/**', 'src/store/**'], rules: bans([{ group: ['**/ui/**', 'svelte', 'svelte/*'], message: 'The core never imports ui.' }]) },
  { files: ['src/**'], ignores: ['src/engine/zvm-engine.ts'], rules: bans([{ group: ['ifvms', 'ifvms/*'], message: 'Only src/engine/zvm-engine.ts imports ifvms.' }, { group: ['**/ui/**'], message: 'Only ui imports ui.' }]) },
  { files: ['src/**'], ignores: ['src/store/idb-store.ts'], rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'idb', message: 'Only src/store/idb-store.ts imports idb.' }] }] } },
  { files: ['src/**'], ignores: ['src/llm/openai-chat-model.ts'], rules: bans([{ group: ['openai', 'openai/*'], message: 'Only src/llm/openai-chat-model.ts imports openai.' }]) },
  { files: ['src/ui/**'], ignores: ['src/ui/charts/chart.ts'], rules: bans([{ group: ['ifvms', 'ifvms/*', 'idb'], message: 'ui goes through engine and store.' }, { group: ['chart.js', 'chart.js/*'], message: 'Only src/ui/charts/chart.ts imports chart.js.' }]) },
);
