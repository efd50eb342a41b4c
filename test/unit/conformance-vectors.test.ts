import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeVectors, vectorsFile } from '../../clients/conformance/make-vectors.ts';
import { VECTORS_PATH } from '../../clients/conformance/runtime.ts';

/** The reference implementation's verdict: verified (whatever the body is) or refused. */
function referenceVerdict(vector: ReturnType<typeof makeVectors>[number]): 'verified' | 'rejected' {
  vi.useFakeTimers({ toFake: ['Date'], now: vector.now * 1000 });
  try {
    // jsonParse off: the library verifies first and parses after, and only verifying is compared.
    new Webhook(vector.secret).verify(vector.body, vector.headers, { jsonParse: false });
    return 'verified';
  } catch {
    return 'rejected';
  }
}

describe('clients/conformance/vectors.json', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is what make-vectors.ts makes (regenerate with npx tsx clients/conformance/make-vectors.ts)', () => {
    expect(readFileSync(VECTORS_PATH, 'utf8')).toBe(vectorsFile());
  });

  it('ports a case of every reference library and holds each kind of verdict', () => {
    const vectors = makeVectors();
    const libraries = new Set(vectors.flatMap((vector) => vector.reference ?? []));
    expect([...libraries].sort()).toEqual(['C#', 'Go', 'Java', 'JavaScript', 'PHP', 'Python', 'Ruby']);
    expect(new Set(vectors.map((vector) => vector.expect))).toEqual(new Set(['event', 'unknown', 'rejected']));
    for (const vector of vectors) {
      expect(vector.valid, vector.name).toBe(vector.expect !== 'rejected');
      if (vector.expect === 'rejected') expect(vector.messageIncludes, vector.name).toBeTruthy();
    }
  });

  for (const vector of makeVectors()) {
    it(`the npm standardwebhooks library agrees: ${vector.name} is ${vector.expect}`, () => {
      expect(referenceVerdict(vector)).toBe(vector.expect === 'rejected' ? 'rejected' : 'verified');
    });
  }
});
