import * as v from 'valibot';
import { amountField, networkField, withdrawalReferenceField } from '#http/fields';
import { addressField, addressOnItsNetwork } from '#http/address-fields';
import { ACTIVITY_KINDS } from '#functions/companies/activity';
import { API_KEY_ACCESS, MAX_ALLOWED_IPS, ROLL_GRACE, type RollGrace } from '#functions/api-keys/api-keys';
import { ROLES } from '#functions/people/team';

/** Bodies of the dashboard API; lengths are bounded here, meanings checked in the domain. */
const email = v.pipe(v.string(), v.maxLength(254));
const password = v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(256));

export const signUpBody = v.strictObject({ companyName: v.pipe(v.string(), v.maxLength(200)), email, password });
export const signInBody = v.strictObject({ email, password });
export const acceptInvitationBody = v.strictObject({ token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,100}$/, 'is not an invitation token')), password });
/** The person's password (and authenticator code) again: functions/people/step-up.ts. */
const proof = {
  password: v.pipe(v.string(), v.minLength(1, 'enter your password'), v.maxLength(256)),
  code: v.optional(v.pipe(v.string(), v.maxLength(16))),
};
/** What hands someone a way to move money asks the proof (functions/people/step-up.ts confirmChange): a
 * full-access key, an invitation to a role above Viewer, a raise; the domain says when it is missing. */
const proofIfMoneyReached = { password: v.optional(proof.password), code: proof.code };
/** Addresses or CIDR blocks; each is checked in the domain, which says which one is wrong. */
const allowedIps = v.pipe(v.array(v.pipe(v.string(), v.maxLength(64))), v.maxLength(MAX_ALLOWED_IPS, `must hold at most ${MAX_ALLOWED_IPS} entries`));
/** `access`: `full` (the default) or `read`, a key that may only GET. */
export const createApiKeyBody = v.strictObject({
  name: v.pipe(v.string(), v.maxLength(100)),
  access: v.optional(v.picklist(API_KEY_ACCESS, 'must be full or read')),
  allowedIps: v.optional(allowedIps),
  ...proofIfMoneyReached,
});
/** `Edit allowed IPs`: the whole new list; empty for any address. */
export const changeAllowedIpsBody = v.strictObject({ allowedIps });
export const rollApiKeyBody = v.strictObject({
  oldSecretValidFor: v.picklist(Object.keys(ROLL_GRACE) as [RollGrace, ...RollGrace[]], 'must be one of now, 1h, 24h, 7d'),
  ...proofIfMoneyReached,
});
export const emptyBody = v.strictObject({});
export const twoFactorRequirementBody = v.strictObject({ required: v.boolean('must be true or false') });

const limit = v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'must be 1 to 100'), v.transform(Number), v.minValue(1, 'must be 1 to 100'), v.maxValue(100, 'must be 1 to 100')), '50');
const cursor = v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,256}$/, 'is not a cursor returned by this list')));
/** Activity's filters; their meaning (statuses, dates, which lists have a network) is checked in the
 * domain (functions/companies/activity.ts). A network is one of the registered names, as on /v1. */
const activityFilter = {
  status: v.optional(v.pipe(v.string(), v.maxLength(40))),
  network: v.optional(networkField),
  from: v.optional(v.pipe(v.string(), v.maxLength(10))),
  to: v.optional(v.pipe(v.string(), v.maxLength(10))),
  q: v.optional(v.pipe(v.string(), v.maxLength(100))),
};
export const activityQuery = v.strictObject({
  ...activityFilter,
  limit,
  cursor,
  id: v.optional(v.pipe(v.string(), v.maxLength(40))),
});
/** `Export CSV`: the list's filters, and the whole of what they show. */
export const activityExportQuery = v.strictObject(activityFilter);
export const activityKindPath = v.object({ kind: v.picklist(ACTIVITY_KINDS, `must be one of ${ACTIVITY_KINDS.join(', ')}`) });
export const simulatePaymentBody = v.strictObject({ depositId: v.pipe(v.string(), v.maxLength(40)), amount: v.pipe(v.string(), v.maxLength(40)) });
export const auditLogQuery = v.strictObject({ limit, cursor });
export const resendBody = v.strictObject({ eventId: v.pipe(v.string(), v.maxLength(40)) });
const role = v.picklist(ROLES, 'must be one of Owner, Admin, Developer, Viewer');
export const inviteMemberBody = v.strictObject({ email, role, ...proofIfMoneyReached });
export const changeRoleBody = v.strictObject({ role, ...proofIfMoneyReached });
export const requestPasswordResetBody = v.strictObject({ email });
/** `<personId>.<secret>`: the person's Cognito sub, then 32 random bytes (functions/people/password-reset.ts). */
export const resetPasswordBody = v.strictObject({ token: v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/, 'is not a password reset token')), password });
/** `<personId>.<secret>`, as a reset's (functions/people/email-verification.ts), and the password chosen at sign-up. */
export const verifyEmailBody = v.strictObject({ token: v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/, 'is not an email confirmation token')), password });
export const resendVerificationBody = v.strictObject({ email });
export const changePasswordBody = v.strictObject({ currentPassword: password, newPassword: password });

/** Withdrawal allowlist: an entry is an address on one network; the address is checked against its network in the domain, which says why it is refused. */
export const addWithdrawalAddressBody = v.strictObject({
  network: networkField,
  address: v.pipe(v.string(), v.maxLength(64)),
  label: v.pipe(v.string(), v.maxLength(200)),
});
/** `Remove`: the entry's network (absent: an entry added before entries named one). */
export const removeWithdrawalAddressQuery = v.strictObject({ network: v.optional(networkField) });
export const switchWithdrawalAllowlistBody = v.strictObject({ enabled: v.boolean() });

/** `New withdrawal`: POST /v1/withdrawals's fields but `method`, which has one value; the address is
 * checked for the chosen network (a `0x…` address on TRON is refused, never paid to its TRON twin). */
export const sendWithdrawalBody = v.pipe(
  v.strictObject({ network: networkField, address: addressField, amount: amountField('USDT'), reference: withdrawalReferenceField, ...proof }),
  addressOnItsNetwork((body) => body.address, ['address']),
);
/** `Confirm it's you`. */
export const confirmSessionBody = v.strictObject(proof);

/** `Save limit` (a USDT decimal string, checked in the domain) or `Remove limit` (null). */
export const changeWithdrawalLimitBody = v.strictObject({ dailyLimit: v.nullable(v.pipe(v.string(), v.maxLength(32))) });
