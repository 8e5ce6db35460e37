import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// Module boundaries: apps wire everything, through the composition lib, which picks an adapter per port; adapters
// implement ports; domain logic (pipeline stages, search) sees only ports, contracts and platform, never an adapter
// or an engine SDK. The client SDK depends on nothing and may be used by the MCP tools and the tests.
// The composition imports most libraries when a process first needs them (a stage worker never loads the HTTP API);
// these light entry points of such libraries are what every process may import statically.
const boundaries = {
  enforceBuildableLibDependency: false,
  allow: [],
  checkDynamicDependenciesExceptions: ['@memory/http-api/health', '@memory/http-api/keys', '@memory/stage-webhook-dispatcher/schedule'],
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:composition', 'type:contracts', 'type:platform', 'type:port', 'type:domain', 'type:adapter', 'type:testing', 'type:client'] },
    { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:port', 'type:domain', 'type:adapter', 'type:testing'] },
    { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:port', 'type:testing'] },
    { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:port', 'type:domain', 'type:testing', 'type:client'] },
    { sourceTag: 'type:port', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
    { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform'] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:port', 'type:client'] },
    // The SDK (libs/sdk) ships alone as @memory/sdk: it may import nothing of the workspace.
    { sourceTag: 'type:client', onlyDependOnLibsWithTags: [] }
  ]
};

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': ['error', boundaries],
    }
  },
  {
    // Tests and the testing lib read untyped JSON bodies and use chai's property assertions (expect(x).to.exist).
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'libs/testing/src/**/*.ts'],
    rules: {
      // A test may import statically what a process imports lazily.
      '@nx/enforce-module-boundaries': ['error', { ...boundaries, checkDynamicDependenciesExceptions: ['@memory/**'] }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
];
