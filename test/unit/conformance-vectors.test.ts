import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { vectorsFile } from '../../clients/conformance/make-vectors.ts';
import { VECTORS_PATH } from '../../clients/conformance/runtime.ts';

describe('clients/conformance/vectors.json', () => {
  it('is what make-vectors.ts makes (regenerate with npx tsx clients/conformance/make-vectors.ts)', () => {
    expect(readFileSync(VECTORS_PATH, 'utf8')).toBe(vectorsFile());
  });
});
