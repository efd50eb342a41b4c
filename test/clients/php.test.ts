import { existsSync } from 'node:fs';
import { clientSuite } from '../../clients/conformance/bridge.ts';

// The PHP client's PHPUnit suite (clients/php/phpunit.xml.dist) against a live conformance runtime:
// unit tests on scripted loopback servers, the webhook vectors, the types drift check, the package
// installed by Composer from a path repository, and the scenario.
await clientSuite({
  language: 'php',
  cwd: 'clients/php',
  command: ['/usr/bin/phpunit', '--log-junit', '{report}'],
  report: 'junit',
  missing: () =>
    existsSync('/usr/bin/phpunit') && existsSync('/usr/bin/php') && existsSync('/usr/bin/composer') ? null : 'install the Debian packages php-cli, php-curl, phpunit and composer',
  timeoutMs: 240_000,
});
