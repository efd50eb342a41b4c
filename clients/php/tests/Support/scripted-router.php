<?php

// Router for `php -S` (tests/support/ScriptedServer.php): answers each request with the next
// answer of the script in CAMBIO_SCRIPT_FILE and records the request there.

declare(strict_types=1);

$file = getenv('CAMBIO_SCRIPT_FILE');
$fh = fopen($file, 'c+');
flock($fh, LOCK_EX);
$state = json_decode((string) stream_get_contents($fh), true) ?: ['answers' => [], 'requests' => []];
$index = count($state['requests']);
$state['requests'][] = [
    'method' => $_SERVER['REQUEST_METHOD'],
    'uri' => $_SERVER['REQUEST_URI'],
    'headers' => getallheaders(),
    'body' => file_get_contents('php://input'),
];
ftruncate($fh, 0);
rewind($fh);
fwrite($fh, json_encode($state));
fflush($fh);
flock($fh, LOCK_UN);
fclose($fh);

$answer = $state['answers'][$index] ?? ['status' => 599, 'body' => "script exhausted: no answer for request #$index"];
if (isset($answer['delay'])) {
    usleep((int) ($answer['delay'] * 1_000_000));
}
http_response_code($answer['status'] ?? 200);
header_remove('X-Powered-By');
if (array_key_exists('json', $answer)) {
    header('Content-Type: application/json');
}
foreach ($answer['headers'] ?? [] as $name => $value) {
    header("$name: $value");
}
if (array_key_exists('json', $answer)) {
    echo json_encode($answer['json'], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
} else {
    if (!isset($answer['headers']['Content-Type'])) {
        header('Content-Type: text/html; charset=UTF-8');
    }
    echo $answer['body'] ?? '';
}
return true;
