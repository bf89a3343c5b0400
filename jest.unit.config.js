// Unit tests of a library, run from its folder (`pnpm --filter @rt/<lib> test:unit`).
module.exports = require('./jest.base.config.js')({
  resultsName: `lib-${require('node:path').basename(process.cwd())}-unit`,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
});
