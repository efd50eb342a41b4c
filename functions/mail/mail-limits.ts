/**
 * Limits on the mail a request can make Cambio send to an address it names (an invitation; a
 * sign-up's link or notice), so the dashboard cannot be used to flood someone's mailbox or to send
 * many mails that carry a stranger's words. Each counter is a fixed window: a company's invitations
 * in an hour, an address's invitations from one company in a day, an address's mails of a kind in a day, counted atomically (MailCounts), so requests
 * made in parallel pass the limit no more than requests made one after another.
 */
export interface MailCounter {
  kind: 'invitation' | 'sign-up' | 'password-reset';
  /** A company's; an address's from one company; an address's; an address's from one source address; one source address's. */
  of: { companyId: string } | { companyId: string; email: string } | { email: string } | { email: string; source: string } | { source: string };
  per: 'hour' | 'day';
}

export interface MailCounts {
  /** One more on the counter unless it is at `limit` already (false then, nothing counted). */
  countOne(counter: MailCounter, limit: number, now: Date): Promise<boolean>;
  /** Takes back a count another limit made pointless (the mail was not sent after all). */
  uncountOne(counter: MailCounter, now: Date): Promise<void>;
}

/** The counter's window holding `now` (`YYYY-MM-DDTHH` or `YYYY-MM-DD`, UTC) and when it ends, in epoch seconds. */
export function windowOf(counter: Pick<MailCounter, 'per'>, now: Date): { key: string; endsAt: Date; expiresAtSeconds: number } {
  const key = now.toISOString().slice(0, counter.per === 'hour' ? 13 : 10);
  const start = Date.parse(counter.per === 'hour' ? `${key}:00:00Z` : `${key}T00:00:00Z`);
  const endsAt = new Date(start + (counter.per === 'hour' ? 3_600_000 : 86_400_000));
  return { key, endsAt, expiresAtSeconds: Math.ceil(endsAt.getTime() / 1000) };
}

/**
 * Counts one mail on each counter in order, all or none: the first counter at its limit refuses,
 * and the counts already made for this mail are taken back. Null when every counter took it, else
 * the counter that refused and when its window ends.
 */
export async function countMail(counts: MailCounts, counters: { counter: MailCounter; limit: number }[], now: Date): Promise<{ counter: MailCounter; limit: number; retryAt: Date } | null> {
  for (const [index, { counter, limit }] of counters.entries()) {
    if (await counts.countOne(counter, limit, now)) continue;
    await uncountMail(counts, counters.slice(0, index), now);
    return { counter, limit, retryAt: windowOf(counter, now).endsAt };
  }
  return null;
}

/** Takes back one mail counted on each of `counters` (countMail's), for a mail that was not sent after all. */
export async function uncountMail(counts: MailCounts, counters: { counter: MailCounter }[], now: Date): Promise<void> {
  await Promise.all(counters.map(({ counter }) => counts.uncountOne(counter, now)));
}
