import { clientSuite } from '../../clients/conformance/bridge.ts';

/** clients/java's JUnit 5 suite (unit tests, every webhook vector, the live scenario), compiled with javac and run by the JUnit console launcher. */
await clientSuite({
  language: 'java',
  command: ['/bin/sh', 'run-tests.sh', '{report}'],
  report: 'junit-dir',
  needs: [
    { path: '/usr/bin/javac', install: 'a JDK 17 (Debian: openjdk-17-jdk-headless)' },
    { path: '/usr/share/java/junit-platform-console-standalone.jar', install: 'JUnit 5 (Debian: junit5)' },
  ],
  timeoutMs: 240_000,
});
