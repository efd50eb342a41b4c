import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { VECTORS_PATH, startConformanceRuntime, type ConformanceRuntime } from '../../conformance/runtime.ts';
import type { Vector } from '../../conformance/make-vectors.ts';
import { WebhookVerificationError } from '../src/index.ts';
import { verifyWebhook } from '../src/webhooks.ts';
import { runScenario } from './conformance-scenario.ts';

/** The conformance suite every official client passes (clients/conformance/README.md), for cambio-usdt. */
const { vectors } = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as { vectors: Vector[] };

describe('webhook signature vectors', () => {
  for (const vector of vectors) {
    it(`${vector.valid ? 'accepts' : 'refuses'}: ${vector.name}`, () => {
      const verify = () => verifyWebhook(vector.body, vector.headers, vector.secret, { now: new Date(vector.now * 1000) });
      if (vector.valid) {
        expect(verify().type).toBe(vector.eventType);
      } else {
        expect(verify).toThrow(WebhookVerificationError);
        if (vector.messageIncludes) expect(verify).toThrow(new RegExp(vector.messageIncludes, 'i'));
      }
    });
  }
});

describe('the scenario against the live runtime', () => {
  let live: ConformanceRuntime;
  beforeAll(async () => {
    live = await startConformanceRuntime(inject('dynamoEndpoint'));
  });
  afterAll(async () => {
    await live?.stop();
  });
  it('runs clients/conformance/scenario.md end to end', { timeout: 120_000 }, async () => {
    await runScenario(live.env);
  });
});
