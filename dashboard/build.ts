import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { DASHBOARD_ASSETS_DIR, DASHBOARD_PAGE } from './serving.ts';

/**
 * Builds the dashboard app (dashboard/src, Preact) into dashboard/dist with esbuild, which the
 * repository already uses to bundle the Lambdas: one minified, content-hashed script and one
 * stylesheet, no Vite and no dev server. `npm run build` and `npm start` (when the build is
 * missing or older than a source file) build into dashboard/dist; `cdk deploy` builds into its own
 * asset folder (lib/dashboard.ts) and uploads that. Synchronous, because CDK's local bundling is.
 */
export const DASHBOARD_ROOT = fileURLToPath(new URL('./', import.meta.url));
export const DASHBOARD_SRC = join(DASHBOARD_ROOT, 'src');
export const DASHBOARD_DIST = join(DASHBOARD_ROOT, 'dist');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function dashboardBuildIsStale(): boolean {
  const index = join(DASHBOARD_DIST, DASHBOARD_PAGE);
  if (!existsSync(index)) return true;
  return newestSourceMtime(DASHBOARD_SRC) > statSync(index).mtimeMs;
}

export interface DashboardBuild {
  scriptFile: string;
  styleFile: string;
  scriptBytes: number;
}

export function buildDashboard(outDir: string = DASHBOARD_DIST): DashboardBuild {
  const result = buildSync({
    entryPoints: [join(DASHBOARD_SRC, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const script = result.outputFiles[0]!.contents;
  const style = readFileSync(join(DASHBOARD_SRC, 'styles.css'));
  const hash = (content: Uint8Array) => createHash('sha256').update(content).digest('hex').slice(0, 10);
  const scriptFile = `${DASHBOARD_ASSETS_DIR}/app-${hash(script)}.js`;
  const styleFile = `${DASHBOARD_ASSETS_DIR}/app-${hash(style)}.css`;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, DASHBOARD_ASSETS_DIR), { recursive: true });
  writeFileSync(join(outDir, scriptFile), script);
  writeFileSync(join(outDir, styleFile), style);
  const html = readFileSync(join(DASHBOARD_SRC, 'index.html'), 'utf8').replace('%SCRIPT%', scriptFile).replace('%STYLE%', styleFile);
  writeFileSync(join(outDir, DASHBOARD_PAGE), html);
  return { scriptFile, styleFile, scriptBytes: script.length };
}

/** `npm run build`. */
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = buildDashboard();
  console.log(`Dashboard built in dashboard/dist: ${built.scriptFile} (${built.scriptBytes} bytes), ${built.styleFile}`);
}
