import { getCompany } from '#domain/company';
import { dynamoFromEnv } from '#adapters/runtime';
import { httpRoute } from '#http/route';

const { companies } = dynamoFromEnv();

export const handler = httpRoute({}, async ({ companyId }) => ({ data: await getCompany(companies, companyId) }));
