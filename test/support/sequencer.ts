import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order the test files are handed to the workers: the longest kinds first, so that the
 * run does not end on one worker still in a two-minute file while the other has nothing left.
 * Vitest's own order is no help here: on a clean clone it has no recorded durations and runs the
 * largest files first, and the client suites are small files that run their language's tests
 * while the file loads, which its durations do not count; both put them last, where one of them
 * was the whole tail of a run. Within a kind, Vitest's order stands (recorded durations, or size).
 */
const LONGEST_KINDS: RegExp[] = [
  /^test\/clients\/packages\.test\.ts$/, // every client packed and installed into a new project: ~2 min
  /^test\/clients\//, // a language's own suite (dotnet test, mvn test…) against the runtime: 20–60 s
  /^test\/infra\/bundles\.test\.ts$/, // every function bundled by esbuild: ~1 min
  /-e2e\.test\.ts$/, // a headless Chromium through the dashboard's pages: ~30 s
  /^test\/infra\//, // stack synths: 10–40 s
  /^test\/integration\//,
  /^clients\/node\/test\//,
  /^test\/unit\//,
];

export default class LongestKindsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const kind = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId);
      const index = LONGEST_KINDS.findIndex((pattern) => pattern.test(path));
      return index < 0 ? LONGEST_KINDS.length : index;
    };
    const ordered = (await super.sort(files)).map((spec, index) => ({ spec, index, kind: kind(spec) }));
    return ordered.sort((a, b) => a.kind - b.kind || a.index - b.index).map(({ spec }) => spec);
  }
}
