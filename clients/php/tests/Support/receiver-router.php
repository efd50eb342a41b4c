<?php

// Router for `php -S` (tests/support/WebhookReceiver.php): keeps the raw body and the headers
// of every request in CAMBIO_RECEIVER_DIR, as a webhook endpoint would receive them, and answers 204.

declare(strict_types=1);

$dir = getenv('CAMBIO_RECEIVER_DIR');
$record = json_encode([
    'method' => $_SERVER['REQUEST_METHOD'],
    'uri' => $_SERVER['REQUEST_URI'],
    'headers' => getallheaders(),
    'body' => base64_encode((string) file_get_contents('php://input')),
]);
$name = sprintf('%s/%.6f-%s', $dir, microtime(true), bin2hex(random_bytes(4)));
file_put_contents("$name.tmp", $record);
rename("$name.tmp", "$name.json");
http_response_code(204);
return true;
