import { listeningOrigin } from './entry-point';

describe('listeningOrigin', () => {
  it('names loopback as localhost, any other address as itself', () => {
    expect(listeningOrigin('127.0.0.1', 3000)).toBe('http://localhost:3000');
    expect(listeningOrigin('::1', 3001)).toBe('http://localhost:3001');
    expect(listeningOrigin('0.0.0.0', 3000)).toBe('http://0.0.0.0:3000');
    expect(listeningOrigin('::', 3000)).toBe('http://[::]:3000');
    expect(listeningOrigin('api.internal', 80)).toBe('http://api.internal:80');
  });
});
