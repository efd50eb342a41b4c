import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The API reference as one self-contained HTML page: Redoc's standalone bundle and the OpenAPI
 * document inlined, so it renders with no network (no CDN, no fonts, no spec fetched).
 */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const BLANK_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';

export function referencePageHtml(openApiJson: string): string {
  const bundlePath = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  // Redoc's footer shows a logo from its CDN: the page must make no request off this machine.
  const bundle = readFileSync(bundlePath, 'utf8').replaceAll(REDOC_CDN_LOGO, BLANK_IMAGE);
  if (/https:\/\/cdn\.redoc\.ly/.test(bundle)) throw new Error('The Redoc bundle loads another file from its CDN: update reference-page.ts');
  // Inside <script>, "</script" or "<!--" in the data would end or confuse the element.
  const inline = (text: string) => text.replace(/</g, '\\u003c');
  const spec = inline(JSON.stringify(JSON.parse(openApiJson)));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cambio API reference</title>
<style>
body { margin: 0; padding: 0; }
/* A small API: every operation stays listed in the sidebar, each tag expanded. */
.menu-content li[data-item-id^="tag/"] > ul { display: block !important; height: auto !important; }
.menu-content li[data-item-id^="tag/"] > label > svg { display: none; }
</style>
</head>
<body>
<div id="redoc"></div>
<script>${bundle.replace(/<\/script/gi, '<\\/script')}</script>
<script>
Redoc.init(${spec}, {
  expandResponses: '200,201',
  pathInMiddlePanel: true,
  hideDownloadButton: false,
  theme: { typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } } }
}, document.getElementById('redoc'));
</script>
</body>
</html>
`;
}
