import { isValidSignature, signingPairOf, signPath } from './imgproxy-signature';

/**
 * imgproxy's published vectors: the step-by-step example of its "Signing the URL" guide (key
 * `secret`, salt `hello`, both hex-encoded; the path in the current URL format and in the basic
 * format of older versions of the guide), and the vector of its Go tests (`test-key`,
 * `test-salt`, path `asd`).
 */
const DOCS_PAIR = signingPairOf('736563726574', '68656C6C6F');

describe('imgproxy URL signature', () => {
  it('matches the example of the signing guide', () => {
    expect(
      signPath(
        DOCS_PAIR,
        '/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png',
      ),
    ).toBe('oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8');
    expect(
      signPath(DOCS_PAIR, '/fill/300/400/sm/0/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png'),
    ).toBe('AfrOrF3gWeDA6VOlDG4TzxMv39O7MXnF4CXpKUwGqRM');
  });

  it("matches the vector of imgproxy's own tests", () => {
    const pair = signingPairOf(
      Buffer.from('test-key').toString('hex'),
      Buffer.from('test-salt').toString('hex'),
    );
    expect(signPath(pair, 'asd')).toBe('dtLwhdnPPiu_epMl1LrzheLpvHas-4mwvY6L3Z8WwlY');
    expect(signPath(pair, 'qwe')).toBe('8x1xvzxVqZ3Uz3kEC8gVvBfU0dfU1vKv0Gho8m3Ysgw');
  });

  it('accepts the right signature and refuses a tampered one, path or options', () => {
    const path = '/rs:fit:200:0/plain/0b7d2a6e-6c1f-4c55-9d6e-1f2e3d4c5b6a.jpg';
    const signature = signPath(DOCS_PAIR, path);
    expect(isValidSignature(DOCS_PAIR, path, signature)).toBe(true);
    expect(isValidSignature(DOCS_PAIR, path.replace('200', '600'), signature)).toBe(false);
    expect(isValidSignature(DOCS_PAIR, path, `${signature.slice(0, -1)}A`)).toBe(signature.endsWith('A'));
    expect(isValidSignature(DOCS_PAIR, path, signature.slice(1))).toBe(false);
    expect(isValidSignature(DOCS_PAIR, path, '')).toBe(false);
    expect(isValidSignature(signingPairOf('00', '00'), path, signature)).toBe(false);
  });
});
