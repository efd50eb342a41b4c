import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSWORD_RESET_INTERVAL_MS, requestPasswordReset, type PasswordReset, type PasswordResetDeps } from '#functions/people/password-reset';
import { windowOf } from '#functions/mail/mail-limits';
import { attemptKey } from '#functions/people/sign-in-limits';
import { stderrLog } from '#functions/shared/log';
import type { Mail } from '#functions/mail/mail';

/**
 * Forgot your password? must not tell, by the work it does, whether an account uses the address
 * (issue #31 item 9): timing tests are flaky, so this checks the proxy, the calls made. Fakes of the
 * user pool and the table, recording each call; the local runtime's own test
 * (test/integration/dashboard-password-reset.test.ts) covers the real ones.
 */
function recordedDeps(people: Record<string, string>) {
  const calls: string[] = [];
  const resets = new Map<string, PasswordReset>();
  const mails: Mail[] = [];
  const warnings: string[] = [];
  // The mail counters, as the table's (functions/adapters/dynamo/mail-count-store.ts): one count per counter and window.
  const counts = new Map<string, number>();
  const countKey = (counter: object & { per: 'hour' | 'day' }, now: Date) => `${JSON.stringify(counter)}@${windowOf(counter, now).key}`;
  const deps: PasswordResetDeps & { mailer: { send(mail: Mail): Promise<void> }; resetUrl: string; log: typeof stderrLog } = {
    accounts: {
      findPerson: async (email) => {
        calls.push('accounts.findPerson');
        return people[email] ? { personId: people[email] } : null;
      },
      changePassword: async () => {},
      setPassword: async () => {},
      revokeSessions: async () => {},
    },
    store: {
      putReset: async (reset, notBefore) => {
        calls.push('store.putReset');
        const before = resets.get(reset.personId);
        if (before && before.createdAt >= notBefore) return false;
        resets.set(reset.personId, reset);
        return true;
      },
      getReset: async () => null,
      deleteReset: async () => false,
      mailCounts: {
        countOne: async (counter, limit, now) => {
          calls.push('mailCounts.countOne');
          const count = counts.get(countKey(counter, now)) ?? 0;
          if (count >= limit) return false;
          counts.set(countKey(counter, now), count + 1);
          return true;
        },
        uncountOne: async (counter, now) => {
          calls.push('mailCounts.uncountOne');
          counts.set(countKey(counter, now), (counts.get(countKey(counter, now)) ?? 1) - 1);
        },
      },
    },
    mailer: {
      send: async (mail) => {
        mails.push(mail);
      },
    },
    resetUrl: 'https://dashboard.example.com/dashboard/reset-password',
    log: { ...stderrLog, warn: (message) => warnings.push(message) },
  };
  return { deps, calls, resets, mails, warnings };
}

const ANA = { 'ana@example.com': '1b0c4b5e-8f5a-4c57-9d8e-1f6f9d1a2b3c' };
const from = (sourceIp: string) => ({ sourceIp, userAgent: null });

describe('asking for a password reset', () => {
  it('reads and writes the same for an address with an account and one without; only the first is mailed', async () => {
    const known = recordedDeps(ANA);
    const unknown = recordedDeps({});

    await requestPasswordReset(known.deps, { email: 'ana@example.com' }, from('198.51.100.1'));
    await requestPasswordReset(unknown.deps, { email: 'nobody@example.com' }, from('198.51.100.1'));

    expect(unknown.calls).toEqual(known.calls);
    expect(known.calls).toEqual(['mailCounts.countOne', 'mailCounts.countOne', 'mailCounts.countOne', 'accounts.findPerson', 'store.putReset']);
    expect(known.mails.map((mail) => mail.to)).toEqual(['ana@example.com']);
    expect(unknown.mails).toEqual([]);
    // The address without an account keeps its reset under an id that is no person's.
    const [standIn] = [...unknown.resets.values()];
    expect(standIn!.personId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('asked twice within the minute, does the same again for both, and mails no one a second time', async () => {
    const known = recordedDeps(ANA);
    const unknown = recordedDeps({});

    for (let i = 0; i < 2; i += 1) {
      await requestPasswordReset(known.deps, { email: 'ana@example.com' }, from('198.51.100.1'));
      await requestPasswordReset(unknown.deps, { email: 'nobody@example.com' }, from('198.51.100.1'));
    }

    expect(unknown.calls).toEqual(known.calls);
    expect(known.mails).toHaveLength(1);
  });
});

/** functions/people/password-reset.ts's limits, written out so the test stands without them. */
const MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY = 5;
const MAILS_PER_SOURCE_PER_HOUR = 20;
const MAILS_TO_ADDRESS_PER_DAY = 10;

describe('reset mails are limited beyond one a minute', () => {
  // The clock is the test's: each request is made past the last one's minute, so that limit never holds one back.
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-01T08:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  /** `ask` once a minute (and a second), `times` times, each answered before the next. */
  async function everyMinute(times: number, ask: (n: number) => Promise<void>) {
    for (let n = 0; n < times; n += 1) {
      const answered = ask(n);
      await vi.advanceTimersByTimeAsync(PASSWORD_RESET_INTERVAL_MS + 1000);
      await answered;
    }
  }

  it(`a script asking for one address's reset every minute mails it at most ${MAILS_TO_ADDRESS_PER_DAY} a day, not one a minute`, async () => {
    const ana = recordedDeps(ANA);

    // As functions/handlers/dashboard/request-password-reset.ts asks today: with no source.
    await everyMinute(20, () => requestPasswordReset(ana.deps, { email: 'ana@example.com' }));

    expect(ana.mails.length).toBeGreaterThan(0);
    expect(ana.mails.length).toBeLessThanOrEqual(MAILS_TO_ADDRESS_PER_DAY);
  });

  it(`from one source, at most ${MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY} a day to an address; the person asking from their own address is still mailed`, async () => {
    const ana = recordedDeps(ANA);
    const unknown = recordedDeps({});

    await everyMinute(20, async () => {
      await requestPasswordReset(ana.deps, { email: 'ana@example.com' }, from('203.0.113.9'));
      await requestPasswordReset(unknown.deps, { email: 'nobody@example.com' }, from('203.0.113.9'));
    });
    expect(ana.mails).toHaveLength(MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY);
    expect(ana.warnings).toContain('password reset not mailed: limit reached');
    // Past the limit, an address with an account and one without are still asked alike.
    expect(unknown.calls).toEqual(ana.calls);

    await everyMinute(1, () => requestPasswordReset(ana.deps, { email: 'ana@example.com' }, from('192.0.2.44')));
    expect(ana.mails).toHaveLength(MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY + 1);
  });

  it(`strangers spending the address's ${MAILS_TO_ADDRESS_PER_DAY} a day from two sources do not keep the person from a reset asked where they signed in before`, async () => {
    const ana = recordedDeps(ANA);
    // Ana completed a sign-in from 192.0.2.44 within 30 days (functions/people/sign-in-limits.ts).
    const attempts = {
      read: async (key: { account: string; source: string }) => ({
        account: null,
        source: key.source === attemptKey('ana@example.com', '192.0.2.44').source ? { failures: 0, windowEndsAt: new Date(0).toISOString(), knownUntil: '2025-03-20T00:00:00.000Z', version: 1 } : null,
      }),
    };
    const deps = { ...ana.deps, attempts };

    await everyMinute(MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY, () => requestPasswordReset(deps, { email: 'ana@example.com' }, from('203.0.113.1')));
    await everyMinute(MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY, () => requestPasswordReset(deps, { email: 'ana@example.com' }, from('203.0.113.2')));
    await everyMinute(1, () => requestPasswordReset(deps, { email: 'ana@example.com' }, from('198.51.100.77')));
    expect(ana.mails).toHaveLength(MAILS_TO_ADDRESS_PER_DAY);

    await everyMinute(1, () => requestPasswordReset(deps, { email: 'ana@example.com' }, from('192.0.2.44')));
    expect(ana.mails).toHaveLength(MAILS_TO_ADDRESS_PER_DAY + 1);
  });

  it(`one source asks for at most ${MAILS_PER_SOURCE_PER_HOUR} reset mails an hour, whatever the addresses`, async () => {
    const people = Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`person${n}@example.com`, `1b0c4b5e-8f5a-4c57-9d8e-${String(n).padStart(12, '0')}`]));
    const many = recordedDeps(people);

    await everyMinute(30, (n) => requestPasswordReset(many.deps, { email: `person${n}@example.com` }, from('203.0.113.10')));

    expect(many.mails).toHaveLength(MAILS_PER_SOURCE_PER_HOUR);
  });
});
