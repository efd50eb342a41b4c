<?php

declare(strict_types=1);

require __DIR__ . '/../autoload.php';
require __DIR__ . '/Support/PhpServer.php';
require __DIR__ . '/Support/ScriptedServer.php';
require __DIR__ . '/Support/WebhookReceiver.php';
require __DIR__ . '/Support/CatchesExceptions.php';
require __DIR__ . '/Support/ScriptedTestCase.php';
