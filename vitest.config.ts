import { defineConfig } from 'vitest/config';
import LongestKindsFirst from './test/support/sequencer.ts';

// The SDK warns that its releases after January 2027 need Node 22; package-lock pins today's.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// aws-cdk-lib validates every template it synthesizes with @aws/cloudformation-validate (cfn-lint
// rules in WebAssembly): over half of a synth's CPU, 5 s of the first one in a process, and the
// infrastructure tests synthesize dozens of stacks. It reports warnings no test reads; one test
// runs it on each stage and asserts no violation (test/infra/stack.test.ts). `cdk synth` runs it.
process.env.CDK_VALIDATION ??= 'false';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'clients/node/test/**/*.test.ts'],
    // One DynamoDB Local for the whole run; each test file makes its own table (test/support/dynamo.ts).
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    // expect.poll waits for what a page or a job shows next; its default second is too short on a
    // loaded 2-core CI machine (a revoked invitation's row took longer to go).
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one on a 2-core machine, where most test
    // files wait on sockets, DynamoDB Local, nodes and timers rather than on the CPU. Three keep both
    // cores busy now that the files are ordered longest kinds first (test/support/sequencer.ts): the
    // CPU-heavy client builds run early, and the later files, mostly waiting, fill each other's
    // waits. Clean-clone runs (session 20): two workers 798 s of test files, three 672 s. (In session
    // 19, with vitest's own order and every synth validating its template, three had been slower.)
    maxWorkers: 3,
    sequence: { sequencer: LongestKindsFirst },
  },
});
