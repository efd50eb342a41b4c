import * as v from 'valibot';

/** The code an authenticator app shows: six digits, spaces allowed (apps group them "123 456"). */
const codeField = v.pipe(v.string(), v.maxLength(20));
export const twoFactorCodeBody = v.strictObject({ code: codeField });

/** Starting a set-up: replacing an app that is on takes the password and the current app's code. */
export const twoFactorSetupBody = v.strictObject({
  password: v.optional(v.pipe(v.string(), v.maxLength(256))),
  currentCode: v.optional(codeField),
});
