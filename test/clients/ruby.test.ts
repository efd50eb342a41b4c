import { clientSuite } from '../../clients/conformance/bridge.ts';

/**
 * The Ruby client's own minitest suite (clients/ruby/test), run against a live conformance runtime;
 * each of its cases is reported here. test/minitest/junit_plugin.rb writes the JUnit report
 * (`--junit`, after `--` so ruby passes it to minitest).
 */
await clientSuite({
  language: 'ruby',
  command: ['/usr/bin/ruby', '-Ilib', '-Itest', '-e', 'Dir["test/**/*_test.rb"].sort.each { |f| require_relative f }', '--', '--junit', '{report}'],
  needs: [{ path: '/usr/bin/ruby', install: 'Ruby 3.1 or later, with its minitest (Debian: ruby)' }],
  timeoutMs: 180_000,
});
