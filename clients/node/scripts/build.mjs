// Builds dist/ from src/: ONE implementation behind both module systems, so `require` and `import`
// hand an app the same Cambio and the same error classes (`instanceof CambioError` holds whichever
// way a library or the app loaded the client: no dual-package hazard).
// - the implementation: one esbuild CommonJS bundle, dist/index.cjs (package.json's version inlined);
// - ESM: dist/index.js, a wrapper that imports that bundle and re-exports its names (Node ≥ 20.10
//   imports CommonJS everywhere, while require() of ESM is unflagged only from 20.19);
// - types: tsc's declarations as .d.ts for `import` and the same as .d.cts for `require`, so
//   TypeScript sees CommonJS types under `require` rather than ESM ones masquerading as CommonJS.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

const require = createRequire(import.meta.url);
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--emitDeclarationOnly', '--sourceMap', 'false'], {
  stdio: 'inherit',
});

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

// The names come from the bundle itself, so the wrapper cannot miss an export the source adds.
const names = Object.keys(require(join(dist, 'index.cjs'))).sort();
writeFileSync(
  join(dist, 'index.js'),
  `// The ES module face of index.cjs: the same objects, not a second copy of the library.\nimport client from './index.cjs';\n\nexport const { ${names.join(', ')} } = client;\n`,
);

for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const declarations = readFileSync(join(dist, file), 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+?)\.(?:js|ts)(['"])/g, '$1.cts$2');
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), declarations);
}
