import { companyProfile } from '#functions/companies/company';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { httpRoute } from '#http/route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('company/get-company');
const { db, tableName } = dynamoFrom(settings);
const companies = new DynamoCompanyStore(db, tableName);

export const handler = httpRoute({}, async ({ companyId }) => ({ data: await companyProfile(companies, companyId, settings.RATE_LIMIT_TIERS) }));
