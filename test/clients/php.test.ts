import { clientSuite } from '../../clients/conformance/bridge.ts';

// The PHP client's PHPUnit suite (clients/php/phpunit.xml.dist) against a live conformance runtime:
// unit tests on scripted loopback servers, the webhook vectors, the types drift check, the package
// installed by Composer from a path repository, and the scenario.
await clientSuite({
  language: 'php',
  command: ['/usr/bin/phpunit', '--log-junit', '{report}'],
  needs: [
    { path: '/usr/bin/php', install: 'PHP 8.1+ with curl (Debian: php-cli php-curl)' },
    { path: '/usr/bin/phpunit', install: 'PHPUnit (Debian: phpunit)' },
    { path: '/usr/bin/composer', install: 'Composer, for the packaging test (Debian: composer)' },
  ],
  timeoutMs: 240_000,
});
