import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/local-api.ts';
import { companyItems as companyItemsOf, dashboardBrowser, invitationTokenMailedTo, invitedMember as invitedMemberOf, signedUpOwner, signedUpOwnerWithTwoFactor, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { mailsTo } from '../support/outbox.ts';

/**
 * The Team routes of the dashboard API through a real socket against the local runtime: members
 * invited through a link, roles changed and removed, what each role may change, another company's
 * people out of reach, and a company that always keeps an Owner, even under concurrent demotions.
 */
const api = useTestApi();

const companyItems = (companyId: string) => companyItemsOf(api.db, api.runtime, companyId);

type Browser = ReturnType<typeof dashboardBrowser>;

const invitedMember = (inviter: Browser, companyId: string, role: string) => invitedMemberOf(api.runtime, inviter, companyId, role);

async function teamOf(browser: Browser, companyId: string) {
  return (await browser.call('GET', `/companies/${companyId}/team`)).body.data as { members: { personId: string; email: string; role: string }[]; invitations: { id: string; email: string; role: string }[] };
}

describe('the team of a company', () => {
  it('invites a member who joins through the link once, then changes their role and removes them, each in the audit log', async () => {
    const owner = await signedUpOwner(api.runtime, 'Team Co');
    const email = uniqueEmail('dev');
    const invited = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email: email.toUpperCase(), role: 'Developer', password: STRONG_PASSWORD } });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toEqual({ email, role: 'Developer', expiresAt: expect.any(String), emailed: true });
    // Pending, without its token: the link is only in the invited person's mail.
    const token = invitationTokenMailedTo(api.runtime, email);
    const pending = await teamOf(owner.browser, owner.companyId);
    expect(pending.invitations).toEqual([expect.objectContaining({ email, role: 'Developer' })]);
    expect(JSON.stringify([invited.body, pending])).not.toContain(token);

    const dev = dashboardBrowser(api.runtime);
    expect((await dev.call('POST', '/invitations/accept', { body: { token, password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token, password: STRONG_PASSWORD } })).status).toBe(404);
    const devId = (await dev.call('GET', '/me')).body.data.personId;
    const joined = await teamOf(owner.browser, owner.companyId);
    expect(joined.invitations).toEqual([]);
    expect(joined.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'Owner'],
      [email, 'Developer'],
    ]);

    const changed = await owner.browser.call('PUT', `/companies/${owner.companyId}/team/members/${devId}`, { body: { role: 'Viewer' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.role).toBe('Viewer');
    // The new role applies on the member's next call.
    expect((await dev.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Now a viewer', password: STRONG_PASSWORD } })).status).toBe(403);

    expect((await owner.browser.call('DELETE', `/companies/${owner.companyId}/team/members/${devId}`)).status).toBe(200);
    expect((await dev.call('GET', `/companies/${owner.companyId}`)).status).toBe(404);
    expect((await teamOf(owner.browser, owner.companyId)).members.map((m) => m.email)).toEqual([owner.email]);

    const audit = (await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string; target: string; details: Record<string, string> | null; sourceIp: string }[];
    // Accepting is a sign-in, logged as one, from where it came.
    expect(audit[2]).toMatchObject({ action: 'signed_in', sourceIp: '127.0.0.1' });
    expect(audit.slice(0, 5).map((e) => [e.action, e.target, e.details])).toEqual([
      ['member.removed', email, { role: 'Viewer' }],
      ['member.role_changed', email, { from: 'Developer', to: 'Viewer' }],
      ['signed_in', null, null],
      ['invitation.accepted', email, null],
      ['invitation.created', email, { role: 'Developer' }],
    ]);
  });

  it('lets a person who already has an account join with their password, and refuses inviting a member twice', async () => {
    const owner = await signedUpOwner(api.runtime, 'Second Co');
    const other = await signedUpOwner(api.runtime, 'Their own Co');
    expect((await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email: other.email, role: 'Admin', password: STRONG_PASSWORD } })).status).toBe(201);
    const token = invitationTokenMailedTo(api.runtime, other.email);
    const wrong = await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token, password: 'Wrong-password-1' } });
    expect(wrong.status).toBe(401);
    const accepted = await other.browser.call('POST', '/invitations/accept', { body: { token, password: STRONG_PASSWORD } });
    // The answer names the company joined, which the page opens beside the person's own.
    expect(accepted).toMatchObject({ status: 200, body: { data: { signedIn: true, companyId: owner.companyId } } });
    expect((await other.browser.call('GET', '/me')).body.data.companies.map((c: { name: string; role: string }) => [c.name, c.role]).sort()).toEqual([
      ['Second Co', 'Admin'],
      ['Their own Co', 'Owner'],
    ]);
    const again = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email: other.email, role: 'Viewer' } });
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual([{ path: 'email', message: 'is already a member of this company' }]);
  });

  it('spends none of an address’s daily invitations on a refused one: after three invitations of a member refused, another company invites them', async () => {
    const owner = await signedUpOwner(api.runtime, 'Refusing Co');
    const other = await signedUpOwner(api.runtime, 'Inviting Co');
    const invite = (by: typeof owner) => by.browser.call('POST', `/companies/${by.companyId}/team/invitations`, { body: { email: owner.email, role: 'Viewer' } });

    const refused = [await invite(owner), await invite(owner), await invite(owner)];
    const invited = await invite(other);

    expect(refused.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(invited.status).toBe(201);
  });
});

describe('a pending invitation', () => {
  it('of a member goes when they are removed or re-roled: an older link cannot bring them back, or back to its role', async () => {
    const owner = await signedUpOwner(api.runtime, 'Twice Invited Co');
    const base = `/companies/${owner.companyId}`;
    const joinTwiceInvited = async (firstRole: string, joinedRole: string) => {
      const email = uniqueEmail('twice');
      expect((await owner.browser.call('POST', `${base}/team/invitations`, { body: { email, role: firstRole, password: STRONG_PASSWORD } })).status).toBe(201);
      const older = invitationTokenMailedTo(api.runtime, email);
      expect((await owner.browser.call('POST', `${base}/team/invitations`, { body: { email, role: joinedRole, password: STRONG_PASSWORD } })).status).toBe(201);
      const member = dashboardBrowser(api.runtime);
      expect((await member.call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, email), password: STRONG_PASSWORD } })).status).toBe(200);
      return { email, older, member, personId: (await member.call('GET', '/me')).body.data.personId as string };
    };
    const removed = await joinTwiceInvited('Admin', 'Viewer');
    const reroled = await joinTwiceInvited('Admin', 'Developer');
    expect((await teamOf(owner.browser, owner.companyId)).invitations.map((i) => i.email).sort()).toEqual([removed.email, reroled.email].sort());

    expect((await owner.browser.call('DELETE', `${base}/team/members/${removed.personId}`)).status).toBe(200);
    expect((await owner.browser.call('PUT', `${base}/team/members/${reroled.personId}`, { body: { role: 'Viewer' } })).status).toBe(200);

    expect((await teamOf(owner.browser, owner.companyId)).invitations).toEqual([]);
    expect((await removed.member.call('POST', '/invitations/accept', { body: { token: removed.older, password: STRONG_PASSWORD } })).status).toBe(404);
    expect((await reroled.member.call('POST', '/invitations/accept', { body: { token: reroled.older, password: STRONG_PASSWORD } })).status).toBe(404);
    expect((await removed.member.call('GET', base)).status).toBe(404);
    expect((await teamOf(owner.browser, owner.companyId)).members.find((m) => m.email === reroled.email)?.role).toBe('Viewer');
    const audit = (await owner.browser.call('GET', `${base}/audit-log`)).body.data as { action: string; target: string; details: Record<string, string> | null }[];
    expect(audit.filter((e) => e.action === 'invitation.revoked').map((e) => [e.target, e.details])).toEqual(
      expect.arrayContaining([
        [removed.email, { role: 'Admin' }],
        [reroled.email, { role: 'Admin' }],
      ]),
    );
  });


  it('made by a member goes when they are removed or re-roled: a removed Admin cannot come back through an invitation of their own', async () => {
    const owner = await signedUpOwner(api.runtime, 'Rogue Admin Co');
    const base = `/companies/${owner.companyId}`;
    const joined = async (role: string) => {
      const email = uniqueEmail(role.toLowerCase());
      expect((await owner.browser.call('POST', `${base}/team/invitations`, { body: { email, role, password: STRONG_PASSWORD } })).status).toBe(201);
      const member = dashboardBrowser(api.runtime);
      expect((await member.call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, email), password: STRONG_PASSWORD } })).status).toBe(200);
      return { email, member, personId: (await member.call('GET', '/me')).body.data.personId as string };
    };
    const [rogue, demoted] = [await joined('Admin'), await joined('Admin')];
    // Each invites another address as an Admin; the Owner's own invitation stays.
    const invite = async (by: ReturnType<typeof dashboardBrowser>, label: string) => {
      const email = uniqueEmail(label);
      expect((await by.call('POST', `${base}/team/invitations`, { body: { email, role: 'Admin', password: STRONG_PASSWORD } })).status).toBe(201);
      return { email, token: invitationTokenMailedTo(api.runtime, email) };
    };
    const [alt, altOfDemoted, ownersOwn] = [await invite(rogue.member, 'alt'), await invite(demoted.member, 'alt-demoted'), await invite(owner.browser, 'owners-own')];

    expect((await owner.browser.call('DELETE', `${base}/team/members/${rogue.personId}`)).status).toBe(200);
    expect((await owner.browser.call('PUT', `${base}/team/members/${demoted.personId}`, { body: { role: 'Viewer' } })).status).toBe(200);

    expect((await teamOf(owner.browser, owner.companyId)).invitations.map((i) => i.email)).toEqual([ownersOwn.email]);
    for (const { token } of [alt, altOfDemoted]) {
      expect((await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token, password: STRONG_PASSWORD } })).status).toBe(404);
    }
  });

  it('is revoked by the team’s managers: its link stops working, the audit log says so, and a second revoke finds nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Revoke Co');
    const stranger = await signedUpOwner(api.runtime, 'Stranger Revoke Co');
    const email = uniqueEmail('revoked');
    await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Developer', password: STRONG_PASSWORD } });
    const [pending] = (await teamOf(owner.browser, owner.companyId)).invitations;
    expect(pending).toMatchObject({ email, role: 'Developer', id: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // Another company's people cannot reach it, through their company or this one.
    expect((await stranger.browser.call('DELETE', `/companies/${owner.companyId}/team/invitations/${pending!.id}`)).status).toBe(404);
    expect((await stranger.browser.call('DELETE', `/companies/${stranger.companyId}/team/invitations/${pending!.id}`)).status).toBe(404);

    const revoked = await owner.browser.call('DELETE', `/companies/${owner.companyId}/team/invitations/${pending!.id}`);
    expect([revoked.status, revoked.body.data]).toEqual([200, { revoked: true }]);
    expect((await teamOf(owner.browser, owner.companyId)).invitations).toEqual([]);
    const accept = await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, email), password: STRONG_PASSWORD } });
    expect(accept.status).toBe(404);
    expect((await owner.browser.call('DELETE', `/companies/${owner.companyId}/team/invitations/${pending!.id}`)).status).toBe(404);
    const audit = await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`);
    expect(audit.body.data[0]).toMatchObject({ action: 'invitation.revoked', target: email, details: { role: 'Developer' }, actor: { email: owner.email } });
  });
});

describe('what each role may change', () => {
  it('a Viewer changes nothing, a Developer keys but not the team, an Admin the team but not its Owners; refusals write nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Roles Co');
    const c = owner.companyId;
    const { apiKey } = (await owner.browser.call('POST', `/companies/${c}/api-keys`, { body: { name: 'Live', password: STRONG_PASSWORD } })).body.data;
    const admin = await invitedMember(owner.browser, c, 'Admin');
    const developer = await invitedMember(owner.browser, c, 'Developer');
    const viewer = await invitedMember(owner.browser, c, 'Viewer');
    const target = await invitedMember(owner.browser, c, 'Viewer');
    const ownerId = (await owner.browser.call('GET', '/me')).body.data.personId;
    const invitedOwner = uniqueEmail('owner');
    expect((await owner.browser.call('POST', `/companies/${c}/team/invitations`, { body: { email: invitedOwner, role: 'Owner', password: STRONG_PASSWORD } })).status).toBe(201);
    const ownerInvitationId = (await teamOf(owner.browser, c)).invitations.find((i) => i.role === 'Owner')!.id;

    // Every mutating route, each asked in a way that changes nothing lasting if it is allowed.
    const routes = {
      createKey: (b: Browser) => b.call('POST', `/companies/${c}/api-keys`, { body: { name: 'Made', password: STRONG_PASSWORD } }),
      rollKey: (b: Browser) => b.call('POST', `/companies/${c}/api-keys/${apiKey}/roll`, { body: { oldSecretValidFor: '24h', password: STRONG_PASSWORD } }),
      revokeKey: (b: Browser) => b.call('POST', `/companies/${c}/api-keys/ck_test_doesnotexist/revoke`, { body: {} }),
      invite: (b: Browser) => b.call('POST', `/companies/${c}/team/invitations`, { body: { email: uniqueEmail('x'), role: 'Viewer' } }),
      inviteOwner: (b: Browser) => b.call('POST', `/companies/${c}/team/invitations`, { body: { email: uniqueEmail('x'), role: 'Owner', password: STRONG_PASSWORD } }),
      changeRole: (b: Browser) => b.call('PUT', `/companies/${c}/team/members/${target.personId}`, { body: { role: 'Viewer' } }),
      makeOwner: (b: Browser) => b.call('PUT', `/companies/${c}/team/members/${target.personId}`, { body: { role: 'Owner', password: STRONG_PASSWORD } }),
      demoteOwner: (b: Browser) => b.call('PUT', `/companies/${c}/team/members/${ownerId}`, { body: { role: 'Admin', password: STRONG_PASSWORD } }),
      removeOwner: (b: Browser) => b.call('DELETE', `/companies/${c}/team/members/${ownerId}`),
      removeMember: (b: Browser) => b.call('DELETE', `/companies/${c}/team/members/nobody-at-all`),
      revokeInvitation: (b: Browser) => b.call('DELETE', `/companies/${c}/team/invitations/${'0'.repeat(64)}`),
      revokeOwnerInvitation: (b: Browser) => b.call('DELETE', `/companies/${c}/team/invitations/${ownerInvitationId}`),
    };
    const allowed: Record<string, (keyof typeof routes)[]> = {
      Viewer: [],
      Developer: ['createKey', 'rollKey', 'revokeKey'],
      Admin: ['createKey', 'rollKey', 'revokeKey', 'invite', 'changeRole', 'removeMember', 'revokeInvitation'],
    };
    for (const [role, member] of [
      ['Viewer', viewer],
      ['Developer', developer],
      ['Admin', admin],
    ] as const) {
      for (const [name, route] of Object.entries(routes)) {
        const before = await companyItems(c);
        const answer = await route(member.browser);
        if (allowed[role]!.includes(name as keyof typeof routes)) {
          expect(answer.status, `${role} ${name}`).not.toBe(403);
        } else {
          expect([answer.status, answer.body.error?.code], `${role} ${name}`).toEqual([403, 'FORBIDDEN']);
          expect(await companyItems(c), `${role} ${name} wrote`).toEqual(before);
        }
      }
    }
    // An Owner may make an Owner.
    expect((await routes.makeOwner(owner.browser)).status).toBe(200);
    expect((await teamOf(owner.browser, c)).members.filter((m) => m.role === 'Owner')).toHaveLength(2);
    // The Owner's invitation survived every refused revoke: its link still works.
    expect((await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, invitedOwner), password: STRONG_PASSWORD } })).status).toBe(200);
  });
});

describe('another company’s people', () => {
  it('are out of reach: their member through my company is not found, their company is not found; nothing is written', async () => {
    const mine = await signedUpOwner(api.runtime, 'Mine');
    const theirs = await signedUpOwner(api.runtime, 'Theirs');
    const theirId = (await theirs.browser.call('GET', '/me')).body.data.personId;
    const before = { mine: await companyItems(mine.companyId), theirs: await companyItems(theirs.companyId) };
    expect((await mine.browser.call('PUT', `/companies/${mine.companyId}/team/members/${theirId}`, { body: { role: 'Viewer' } })).status).toBe(404);
    expect((await mine.browser.call('DELETE', `/companies/${mine.companyId}/team/members/${theirId}`)).status).toBe(404);
    expect((await mine.browser.call('GET', `/companies/${theirs.companyId}/team`)).status).toBe(404);
    expect((await mine.browser.call('PUT', `/companies/${theirs.companyId}/team/members/${theirId}`, { body: { role: 'Viewer' } })).status).toBe(404);
    expect((await mine.browser.call('POST', `/companies/${theirs.companyId}/team/invitations`, { body: { email: uniqueEmail('x'), role: 'Owner', password: STRONG_PASSWORD } })).status).toBe(404);
    expect(await companyItems(mine.companyId)).toEqual(before.mine);
    expect(await companyItems(theirs.companyId)).toEqual(before.theirs);
  });
});

describe('the last Owner', () => {
  it('cannot be removed or demoted, and the refusal writes nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Solo Co');
    const ownerId = (await owner.browser.call('GET', '/me')).body.data.personId;
    const before = await companyItems(owner.companyId);
    const removed = await owner.browser.call('DELETE', `/companies/${owner.companyId}/team/members/${ownerId}`);
    expect(removed.status).toBe(400);
    expect(removed.body.error.message).toBe('The last Owner cannot be removed: a company keeps at least one Owner');
    const demoted = await owner.browser.call('PUT', `/companies/${owner.companyId}/team/members/${ownerId}`, { body: { role: 'Admin', password: STRONG_PASSWORD } });
    expect(demoted.status).toBe(400);
    expect(await companyItems(owner.companyId)).toEqual(before);
  });

  it('survives two Owners demoting each other at the same moment: exactly one stays Owner', async () => {
    for (let round = 0; round < 3; round++) {
      const first = await signedUpOwner(api.runtime, `Race ${round}`);
      const second = await invitedMember(first.browser, first.companyId, 'Owner');
      const firstId = (await first.browser.call('GET', '/me')).body.data.personId;
      const answers = await Promise.all([
        first.browser.call('PUT', `/companies/${first.companyId}/team/members/${second.personId}`, { body: { role: 'Admin', password: STRONG_PASSWORD } }),
        second.browser.call('PUT', `/companies/${first.companyId}/team/members/${firstId}`, { body: { role: 'Admin', password: STRONG_PASSWORD } }),
      ]);
      const owners = (await teamOf(first.browser, first.companyId)).members.filter((m) => m.role === 'Owner');
      expect(owners).toHaveLength(1);
      // The loser is refused as the last Owner, or (when the winner's change landed before its
      // call was checked) as an Admin who may not demote an Owner.
      const [won, lost] = answers.map((a) => a.status).sort();
      expect(won).toBe(200);
      expect([400, 403]).toContain(lost);
    }
  });
});

/**
 * A member who can send withdrawals, or issue the API keys that send them, is a way to move the
 * company's money: inviting one, or raising a member, takes the inviter's password (and code) with
 * the request, as `New withdrawal` does (functions/people/team-members.ts). A session cookie copied
 * within its person's minutes then cannot invite its holder in as an Admin who pays out.
 */
describe('who can move money joins the team on the inviter’s password', () => {
  it('refuses an invitation above Viewer to the session alone or a wrong password, writing and mailing nothing; a Viewer is not asked', async () => {
    const owner = await signedUpOwner(api.runtime, 'Copied Cookie Team');
    const invitations = `/companies/${owner.companyId}/team/invitations`;
    const before = await companyItems(owner.companyId);
    const attacker = uniqueEmail('attacker');

    const bare = await owner.browser.call('POST', invitations, { body: { email: attacker, role: 'Admin' } });
    expect(bare.status).toBe(400);
    expect(bare.body.error.details).toEqual([{ path: 'password', message: 'is needed: an Admin can send withdrawals' }]);
    const developer = await owner.browser.call('POST', invitations, { body: { email: attacker, role: 'Developer' } });
    expect(developer.body.error.details).toEqual([{ path: 'password', message: 'is needed: a Developer can issue API keys that send withdrawals' }]);
    const wrong = await owner.browser.call('POST', invitations, { body: { email: attacker, role: 'Admin', password: 'Not-The-Password-1' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ path: 'password', message: 'is wrong' }]);
    expect(await companyItems(owner.companyId)).toEqual(before);
    expect(mailsTo(api.runtime.outboxDir, attacker)).toEqual([]);

    const viewer = await owner.browser.call('POST', invitations, { body: { email: attacker, role: 'Viewer' } });
    expect(viewer.status).toBe(201);
    expect(mailsTo(api.runtime.outboxDir, attacker)).toHaveLength(1);
  });

  it('refuses a raise to the session alone, and takes a lowering on it', async () => {
    const owner = await signedUpOwner(api.runtime, 'Raised Team');
    const viewer = await invitedMember(owner.browser, owner.companyId, 'Viewer');
    const member = `/companies/${owner.companyId}/team/members/${viewer.personId}`;
    const before = await companyItems(owner.companyId);
    const bare = await owner.browser.call('PUT', member, { body: { role: 'Developer' } });
    expect(bare.status).toBe(400);
    expect(bare.body.error.details).toEqual([{ path: 'password', message: 'is needed: a Developer can issue API keys that send withdrawals' }]);
    expect(await companyItems(owner.companyId)).toEqual(before);
    // Still a Viewer: the refused raise gave them nothing.
    expect((await viewer.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Mine', password: STRONG_PASSWORD } })).status).toBe(403);

    expect((await owner.browser.call('PUT', member, { body: { role: 'Admin', password: STRONG_PASSWORD } })).body.data).toMatchObject({ role: 'Admin' });
    expect((await owner.browser.call('PUT', member, { body: { role: 'Viewer' } })).body.data).toMatchObject({ role: 'Viewer' });
  });

  it('asks an inviter with two-factor sign-in on for their code as well', async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Two Factor Team');
    const invitations = `/companies/${owner.companyId}/team/invitations`;
    const email = uniqueEmail('admin');
    const noCode = await owner.browser.call('POST', invitations, { body: { email, role: 'Admin', password: STRONG_PASSWORD } });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details).toEqual([{ path: 'code', message: 'is needed: the 6 digits your authenticator app shows' }]);
    expect((await owner.browser.call('POST', invitations, { body: { email, role: 'Admin', password: STRONG_PASSWORD, code: await owner.app() } })).status).toBe(201);
  });
});
