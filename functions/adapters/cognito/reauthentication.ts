import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Reauthentication } from '#functions/people/step-up';
import type { SliceSettings } from '#functions/settings/functions';
import { DynamoCodeAttempts } from '../dynamo/code-attempt-store.ts';
import { DynamoSignInAttempts } from '../dynamo/sign-in-attempts-store.ts';
import { userPoolFrom } from './from-settings.ts';

/** What checks a person's password (and code) again, for the routes that ask it (functions/people/
 * step-up.ts): the user pool, and Cambio's own limits on sign-ins and on codes in the table. */
export function reauthenticationFrom(settings: SliceSettings<'table'> & SliceSettings<'userPool'>, db: DynamoDBDocumentClient): Reauthentication {
  return { identity: userPoolFrom(settings).identity, codes: new DynamoCodeAttempts(db, settings.TABLE_NAME), attempts: new DynamoSignInAttempts(db, settings.TABLE_NAME) };
}
