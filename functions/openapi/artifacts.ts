import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from './document.ts';

/**
 * The committed files generated from the code, by path from the repository root. `npm run openapi`
 * writes them; test/unit/openapi-document.test.ts fails when a committed one differs.
 */
export const OPENAPI_FILE = 'openapi.json';
export const CLIENT_TYPES_FILE = 'clients/node/src/generated/openapi.ts';
/** Built from openapi.json with Redoc inlined; not committed (npm start serves it at /docs). */
export const REFERENCE_PAGE_FILE = 'docs/reference/index.html';

export function openApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

/** TypeScript types for the Node client, from the document alone (openapi-typescript). */
export async function clientTypes(openApi: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(openApi) as never, { alphabetize: false });
  return `// Generated from openapi.json by \`npm run openapi\` (openapi-typescript). Do not edit.\n\n${astToString(ast)}`;
}
