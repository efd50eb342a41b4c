// Builds dist/ for both module systems from src/:
// - ESM: tsc, as dist/*.js with their .d.ts (the package is "type": "module");
// - CommonJS: one esbuild bundle, dist/index.cjs (package.json's version inlined), and the same
//   declarations as .d.cts, so TypeScript sees CommonJS types under `require` rather than ESM ones
//   masquerading as CommonJS.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

const require = createRequire(import.meta.url);
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });

await build({
  entryPoints: [join(root, 'src/index.ts')],
  outfile: join(dist, 'index.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});

for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const declarations = readFileSync(join(dist, file), 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+?)\.(?:js|ts)(['"])/g, '$1.cts$2');
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), declarations);
}
