// Shared Jest settings: ts-jest compiles without type checks (`pnpm typecheck` does those),
// and `@rt/*` resolves to the libraries' sources so tests never need a build.
const path = require('node:path');

// `resultsName` names the file the results reporter writes for the closing summary of `pnpm test`.
module.exports = ({ resultsName, ...overrides }) => ({
  testEnvironment: 'node',
  reporters: ['default', [path.join(__dirname, 'scripts/jest-results-reporter.js'), { name: resultsName }]],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.json') }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^@rt/(.*)$': path.join(__dirname, 'libs/$1/src') },
  ...overrides,
});
