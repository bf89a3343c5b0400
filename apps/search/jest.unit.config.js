module.exports = require('../../jest.base.config.js')({
  resultsName: 'search-unit',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
});
