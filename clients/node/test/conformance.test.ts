import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { VECTORS_PATH, startConformanceRuntime, type ConformanceRuntime } from '../../conformance/runtime.ts';
import type { Vector } from '../../conformance/make-vectors.ts';
import { isCambioEvent, verifyWebhook, verifyWebhookSignature, WebhookVerificationError } from '../src/index.ts';
import { runScenario } from './conformance-scenario.ts';

/** The conformance suite every official client passes (clients/conformance/README.md), for cambio-usdt. */
const { vectors } = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as { vectors: Vector[] };

describe('webhook signature vectors', () => {
  for (const vector of vectors) {
    it(`${vector.expect}: ${vector.name}`, () => {
      const options = { now: new Date(vector.now * 1000) };
      const verify = () => verifyWebhook(vector.body, vector.headers, vector.secret, options);
      const verifySignature = () => verifyWebhookSignature(vector.body, vector.headers, vector.secret, options);
      if (vector.expect === 'rejected') {
        expect(verify).toThrow(WebhookVerificationError);
        expect(verify).toThrow(new RegExp(vector.messageIncludes!, 'i'));
        expect(verifySignature).toThrow(WebhookVerificationError);
        return;
      }
      expect(verifySignature()).toBeUndefined();
      const event = verify();
      expect(isCambioEvent(event)).toBe(vector.expect === 'event');
      if (vector.expect === 'event') {
        expect(event.type).toBe(vector.eventType);
        expect(event).toEqual(JSON.parse(vector.body));
      } else {
        expect(event).toEqual({ id: vector.headers['webhook-id'] ?? vector.headers['Webhook-Id'], type: null, createdAt: null, data: null });
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
