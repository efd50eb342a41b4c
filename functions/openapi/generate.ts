import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_TYPES_FILE, clientTypes, OPENAPI_FILE, openApiJson, REFERENCE_PAGE_FILE } from './artifacts.ts';
import { referencePageHtml } from './reference-page.ts';

/**
 * `npm run openapi`: writes openapi.json from the route table and the handlers' schemas, the Node
 * client's types from it, and the reference page (docs/reference/index.html, works offline).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function write(file: string, content: string): void {
  mkdirSync(dirname(join(ROOT, file)), { recursive: true });
  writeFileSync(join(ROOT, file), content);
  console.log(`wrote ${file}`);
}

const document = openApiJson();
write(OPENAPI_FILE, document);
write(CLIENT_TYPES_FILE, await clientTypes(document));
write(REFERENCE_PAGE_FILE, referencePageHtml(document));
