import { send } from './client.ts';
import type { Acknowledged, ChangeRoleRequest, InvitationSent, InviteMemberRequest, Member, Team, TwoFactorRequirement } from './types.ts';

/** Team: members, invitations and the company's two-factor requirement. */
export const teamApi = {
  team: (companyId: string) => send<Team>('GET', `/companies/${companyId}/team`),
  inviteMember: (companyId: string, input: InviteMemberRequest) => send<InvitationSent>('POST', `/companies/${companyId}/team/invitations`, input),
  changeRole: (companyId: string, personId: string, change: ChangeRoleRequest) => send<Member>('PUT', `/companies/${companyId}/team/members/${encodeURIComponent(personId)}`, change),
  revokeInvitation: (companyId: string, invitationId: string) => send<Acknowledged<'revoked'>>('DELETE', `/companies/${companyId}/team/invitations/${invitationId}`),
  resendInvitation: (companyId: string, invitationId: string) => send<InvitationSent>('POST', `/companies/${companyId}/team/invitations/${invitationId}/resend`, {}),
  changeTwoFactorRequirement: (companyId: string, required: boolean) => send<TwoFactorRequirement>('PUT', `/companies/${companyId}/two-factor-requirement`, { required }),
  removeMember: (companyId: string, personId: string) => send<Acknowledged<'removed'>>('DELETE', `/companies/${companyId}/team/members/${encodeURIComponent(personId)}`),
};
