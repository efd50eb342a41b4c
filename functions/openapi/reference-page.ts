import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The API reference as one self-contained HTML page: Redoc's standalone bundle and the OpenAPI
 * document inlined, so it renders with no network (no CDN, no fonts, no spec fetched).
 */
export function referencePageHtml(openApiJson: string): string {
  const bundlePath = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  const bundle = readFileSync(bundlePath, 'utf8');
  // Inside <script>, "</script" or "<!--" in the data would end or confuse the element.
  const inline = (text: string) => text.replace(/</g, '\\u003c');
  const spec = inline(JSON.stringify(JSON.parse(openApiJson)));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cambio API reference</title>
<style>body { margin: 0; padding: 0; }</style>
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
