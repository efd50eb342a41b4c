import { describe, expect, it } from 'vitest';
import { requestPasswordReset, type PasswordReset, type PasswordResetDeps } from '#functions/people/password-reset';
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
    },
    mailer: {
      send: async (mail) => {
        mails.push(mail);
      },
    },
    resetUrl: 'https://dashboard.example.com/dashboard/reset-password',
    log: stderrLog,
  };
  return { deps, calls, resets, mails };
}

describe('asking for a password reset', () => {
  it('reads and writes the same for an address with an account and one without; only the first is mailed', async () => {
    const known = recordedDeps({ 'ana@example.com': '1b0c4b5e-8f5a-4c57-9d8e-1f6f9d1a2b3c' });
    const unknown = recordedDeps({});

    await requestPasswordReset(known.deps, { email: 'ana@example.com' });
    await requestPasswordReset(unknown.deps, { email: 'nobody@example.com' });

    expect(unknown.calls).toEqual(known.calls);
    expect(known.calls).toEqual(['accounts.findPerson', 'store.putReset']);
    expect(known.mails.map((mail) => mail.to)).toEqual(['ana@example.com']);
    expect(unknown.mails).toEqual([]);
    // The address without an account keeps its reset under an id that is no person's.
    const [standIn] = [...unknown.resets.values()];
    expect(standIn!.personId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('asked twice within the minute, does the same again for both, and mails no one a second time', async () => {
    const known = recordedDeps({ 'ana@example.com': '1b0c4b5e-8f5a-4c57-9d8e-1f6f9d1a2b3c' });
    const unknown = recordedDeps({});

    for (let i = 0; i < 2; i += 1) {
      await requestPasswordReset(known.deps, { email: 'ana@example.com' });
      await requestPasswordReset(unknown.deps, { email: 'nobody@example.com' });
    }

    expect(unknown.calls).toEqual(known.calls);
    expect(known.mails).toHaveLength(1);
  });
});
