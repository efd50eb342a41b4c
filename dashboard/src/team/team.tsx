import { useState } from 'preact/hooks';
import { teamApi } from '../api/team.ts';
import type { Invitation, Member, Role } from '../api/types.ts';
import { useProofFieldsWhen } from '../components/confirm-identity.tsx';
import { ConfirmDialog, Dialog, DialogButtons, ErrorMessage, formatTime, SectionHead, Table, useAction, useLoaded, useTitle } from '../components/ui.tsx';

const ROLES: readonly Role[] = ['Owner', 'Admin', 'Developer', 'Viewer'];

const ROLE_MEANING: Record<Role, string> = {
  Owner: 'everything, including the Owners',
  Admin: 'everything but the Owners',
  Developer: 'API keys and webhooks, not the team',
  Viewer: 'reads everything, changes nothing',
};

/** Whether giving `to` to someone holding `from` (null: an invitation) gives more than reading: the
 * roles nest, so a raise, or an invitation to any role above Viewer. Such a member can send
 * withdrawals or issue the API keys that send them, so the change is made on the person's password
 * (and code), as `New withdrawal` is (functions/people/team-members.ts); the rest on a recent sign-in. */
const raises = (from: Role | null, to: Role) => ROLES.indexOf(to) < (from ? ROLES.indexOf(from) : ROLES.indexOf('Viewer'));
const MONEY_REACH_HINT = 'Yours, again: this role can send withdrawals or issue the API keys that send them.';

/** A dialog's `Role` field, and the proof fields shown while the role chosen `raises` the person:
 * `change` is the request's role and that proof. */
function useRoleWithProof(idPrefix: string, roles: readonly Role[], from: Role | null, initial: Role) {
  const [role, setRole] = useState<Role>(initial);
  const { proof, fields } = useProofFieldsWhen(raises(from, role), idPrefix, MONEY_REACH_HINT);
  const roleFields = (
    <>
      <RoleSelect roles={roles} value={role} onChange={setRole} />
      {fields}
    </>
  );
  return { roleFields, change: { role, ...proof } };
}

type Open = { kind: 'twoFactor'; required: boolean } | { kind: 'invite' } | { kind: 'invited'; email: string; emailed: boolean } | { kind: 'role'; member: Member } | { kind: 'remove'; member: Member } | { kind: 'revoke'; invitation: Invitation } | null;

/** Members and pending invitations (../shared/dashboard.md, Team). Owners and Admins change the team;
 * only an Owner touches an Owner. The API checks all of it again, whatever this page shows. */
export function TeamPage(props: { companyId: string; role: Role }) {
  useTitle('Team');
  const { data: team, error, reload, reloading } = useLoaded(async () => (await teamApi.team(props.companyId)).data, [props.companyId]);
  const [open, setOpen] = useState<Open>(null);
  const canManage = props.role === 'Owner' || props.role === 'Admin';
  const grantable = ROLES.filter((role) => role !== 'Owner' || props.role === 'Owner');
  const done = () => {
    setOpen(null);
    void reload();
  };
  /** A new link (Invite member, Resend) went to the invited person's mail, and only there: following
   * it is what proves the address is theirs, so this page never holds it. */
  const showSent = ({ email, emailed }: { email: string; emailed: boolean }) => {
    setOpen({ kind: 'invited', email, emailed });
    void reload();
  };
  const [resendError, setResendError] = useState<unknown>(null);
  const [resending, setResending] = useState(false);
  const resend = async (invitation: Invitation) => {
    setResending(true);
    setResendError(null);
    try {
      showSent((await teamApi.resendInvitation(props.companyId, invitation.id)).data);
    } catch (caught) {
      setResendError(caught);
    } finally {
      setResending(false);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <SectionHead title="Team" action={canManage && { label: 'Invite member', onClick: () => setOpen({ kind: 'invite' }) }} />
      <p>
        Roles: {ROLES.map((role, i) => (
          <span key={role}>
            {i > 0 && '; '}
            <strong>{role}</strong> {ROLE_MEANING[role]}
          </span>
        ))}
        . A company always keeps one Owner.
      </p>
      <ErrorMessage error={error} />
      {team === null ? (
        <p class="loading">Loading…</p>
      ) : (
        <>
          <h2 id="members-title">Members</h2>
          <Table
            labelledBy="members-title"
            columns={['Email', 'Role', 'Two-factor', 'Joined', canManage && 'Actions']}
            rows={team.members}
            row={(member) => (
                <tr key={member.personId}>
                  <th scope="row">{member.email}</th>
                  <td>{member.role}</td>
                  <td>{member.twoFactorOn ? 'On' : 'Off'}</td>
                  <td>{formatTime(member.createdAt)}</td>
                  {canManage && (
                    <td class="actions">
                      {(member.role !== 'Owner' || props.role === 'Owner') && (
                        <>
                          <button type="button" class="secondary" disabled={reloading} onClick={() => setOpen({ kind: 'role', member })} aria-label={`Change role of ${member.email}`}>
                            Change role
                          </button>
                          <button type="button" class="danger" disabled={reloading} onClick={() => setOpen({ kind: 'remove', member })} aria-label={`Remove ${member.email}`}>
                            Remove
                          </button>
                        </>
                      )}
                    </td>
                  )}
                </tr>
            )}
          />
          <h2 id="invitations-title">Pending invitations</h2>
          <ErrorMessage error={resendError} />
          <Table
            labelledBy="invitations-title"
            columns={['Email', 'Role', 'Invited', 'Link expires', canManage && 'Actions']}
            rows={team.invitations}
            empty="No invitation is waiting."
            row={(invitation) => (
                  <tr key={invitation.id}>
                    <th scope="row">{invitation.email}</th>
                    <td>{invitation.role}</td>
                    <td>{formatTime(invitation.createdAt)}</td>
                    <td>{formatTime(invitation.expiresAt)}</td>
                    {canManage && (
                      <td class="actions">
                        {grantable.includes(invitation.role) && (
                          <>
                            <button type="button" class="secondary" aria-label={`Resend the invitation of ${invitation.email}`} disabled={resending || reloading} onClick={() => void resend(invitation)}>
                              Resend
                            </button>{' '}
                            <button type="button" class="danger" aria-label={`Revoke the invitation of ${invitation.email}`} disabled={reloading} onClick={() => setOpen({ kind: 'revoke', invitation })}>
                              Revoke
                            </button>
                          </>
                        )}
                      </td>
                    )}
                  </tr>
            )}
          />
          <h2 id="two-factor-title">Two-factor sign-in</h2>
          <p>
            {team.twoFactorRequired
              ? 'Required of every member: someone without it can open only their Account until they turn it on.'
              : 'Not required: each member chooses under Account.'}
          </p>
          {props.role === 'Owner' && (
            <p>
              <button type="button" class="secondary" onClick={() => setOpen({ kind: 'twoFactor', required: !team.twoFactorRequired })}>
                {team.twoFactorRequired ? 'Stop requiring two-factor sign-in' : 'Require two-factor sign-in'}
              </button>
            </p>
          )}
        </>
      )}
      {open?.kind === 'twoFactor' && (
        <ConfirmDialog
          title={open.required ? 'Require two-factor sign-in?' : 'Stop requiring two-factor sign-in?'}
          label={open.required ? 'Require' : 'Stop requiring'}
          danger={!open.required}
          action={() => teamApi.changeTwoFactorRequirement(props.companyId, open.required)}
          onDone={done}
          onClose={() => setOpen(null)}
        >
          <p>
            {open.required
              ? `Members without it (${team?.members.filter((member) => !member.twoFactorOn).length ?? 0}) lose access to this company at their next request, until they turn it on under Account. Your own must be on first.`
              : 'Members may then use this company with a password alone.'}
          </p>
        </ConfirmDialog>
      )}
      {open?.kind === 'invite' && (
        <InviteDialog
          companyId={props.companyId}
          roles={grantable}
          onClose={() => setOpen(null)}
          onInvited={showSent}
        />
      )}
      {open?.kind === 'invited' && (
        <Dialog title={open.emailed ? 'Invitation sent' : 'Invitation not sent yet'} onClose={done}>
          <p role="status">
            {open.emailed
              ? `We emailed ${open.email} a link to join. It works once, for 7 days; only their mailbox has it.`
              : `The invitation to ${open.email} stands, but its mail could not go just now: use Resend on it in a while.`}
          </p>
          <div class="buttons">
            <button type="button" onClick={done}>
              Done
            </button>
          </div>
        </Dialog>
      )}
      {open?.kind === 'role' && <RoleDialog companyId={props.companyId} member={open.member} roles={grantable} onClose={() => setOpen(null)} onChanged={done} />}
      {open?.kind === 'remove' && (
        <ConfirmDialog title={`Remove ${open.member.email}?`} label="Remove" danger action={() => teamApi.removeMember(props.companyId, open.member.personId)} onDone={done} onClose={() => setOpen(null)}>
          <p>They lose access to this company at their next request.</p>
        </ConfirmDialog>
      )}
      {open?.kind === 'revoke' && (
        <ConfirmDialog title={`Revoke the invitation of ${open.invitation.email}?`} label="Revoke" danger action={() => teamApi.revokeInvitation(props.companyId, open.invitation.id)} onDone={done} onClose={() => setOpen(null)}>
          <p>The link stops working at once. You can invite them again later.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function RoleSelect(props: { roles: readonly Role[]; value: Role; onChange: (role: Role) => void }) {
  return (
    <>
      <label for="member-role">Role</label>
      <select id="member-role" value={props.value} onChange={(e) => props.onChange(e.currentTarget.value as Role)}>
        {props.roles.map((role) => (
          <option key={role} value={role}>
            {role}: {ROLE_MEANING[role]}
          </option>
        ))}
      </select>
    </>
  );
}

function InviteDialog(props: { companyId: string; roles: readonly Role[]; onClose: () => void; onInvited: (invited: { email: string; emailed: boolean }) => void }) {
  const [email, setEmail] = useState('');
  const { roleFields, change } = useRoleWithProof('invite', props.roles, null, 'Developer');
  const { error, busy, run } = useAction(async () => (await teamApi.inviteMember(props.companyId, { email, ...change })).data, props.onInvited);
  return (
    <Dialog title="Invite member" onClose={props.onClose}>
      <form onSubmit={run}>
        <label for="invite-email">Email</label>
        <input id="invite-email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required maxLength={254} />
        {roleFields}
        <ErrorMessage error={error} />
        <DialogButtons label="Invite" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

function RoleDialog(props: { companyId: string; member: Member; roles: readonly Role[]; onClose: () => void; onChanged: () => void }) {
  const { roleFields, change } = useRoleWithProof('role', props.roles, props.member.role, props.member.role);
  const { error, busy, run } = useAction(() => teamApi.changeRole(props.companyId, props.member.personId, change), props.onChanged);
  return (
    <Dialog title={`Change the role of ${props.member.email}`} onClose={props.onClose}>
      <form onSubmit={run}>
        {roleFields}
        <ErrorMessage error={error} />
        <DialogButtons label="Save" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

