<?php

declare(strict_types=1);

require __DIR__ . '/../autoload.php';
require __DIR__ . '/support/PhpServer.php';
require __DIR__ . '/support/ScriptedServer.php';
require __DIR__ . '/support/WebhookReceiver.php';
require __DIR__ . '/support/ScriptedTestCase.php';
