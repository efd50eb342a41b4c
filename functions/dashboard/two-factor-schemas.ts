import * as v from 'valibot';

/** The code an authenticator app shows: six digits, spaces allowed (apps group them "123 456"). */
export const twoFactorCodeBody = v.strictObject({ code: v.pipe(v.string(), v.maxLength(20)) });
