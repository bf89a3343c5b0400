module.exports = require('../../jest.base.config.js')({
  resultsName: 'backend-unit',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
});
