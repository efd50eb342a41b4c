import { describe, expect, it } from 'vitest';
import { requireRecentSignIn } from '#functions/people/step-up';

describe('a recent sign-in', () => {
  const now = new Date('2026-11-26T10:00:00.000Z');
  const secondsAgo = (seconds: number) => now.getTime() / 1000 - seconds;

  it('passes within the window, up to its last second', () => {
    expect(() => requireRecentSignIn(secondsAgo(0), 900, now)).not.toThrow();
    expect(() => requireRecentSignIn(secondsAgo(900), 900, now)).not.toThrow();
  });

  it('refuses past it, and a token that says nothing of when the person signed in', () => {
    for (const authTime of [secondsAgo(901), 0]) {
      expect(() => requireRecentSignIn(authTime, 900, now)).toThrow(expect.objectContaining({ code: 'FORBIDDEN', details: { reason: 'SIGN_IN_AGAIN', withinSeconds: 900 } }));
    }
  });
});
