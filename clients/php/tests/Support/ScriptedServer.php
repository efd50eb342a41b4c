<?php

declare(strict_types=1);

namespace Cambio\Tests\Support;

/**
 * A loopback HTTP server that answers from a script (a list of answers, one per request, in
 * order) and records every request it gets (method, URI, headers, body). The state lives in a
 * temp file shared with the router (scripted-router.php) under flock, so several workers can
 * serve (a slow answer does not block the retry behind it).
 */
final class ScriptedServer
{
    private PhpServer $server;
    private string $state;

    /** On a free port; or on $port, listening only $startAfter seconds from now (see PhpServer). */
    public function __construct(int $port = 0, float $startAfter = 0.0)
    {
        $this->state = tempnam(sys_get_temp_dir(), 'cambio-php-script-');
        $this->script([]);
        $this->server = new PhpServer(__DIR__ . '/scripted-router.php', ['CAMBIO_SCRIPT_FILE' => $this->state], 3, $port, $startAfter);
    }

    /** The base URL to give the client. */
    public function url(): string
    {
        return $this->server->url('/v1');
    }

    /**
     * Replaces the script and forgets the recorded requests.
     *
     * @param list<array{status?: int, json?: mixed, body?: string, headers?: array<string, string>, delay?: float}> $answers
     */
    public function script(array $answers): void
    {
        file_put_contents($this->state, json_encode(['answers' => $answers, 'requests' => []]), LOCK_EX);
    }

    /** @return list<array{method: string, uri: string, headers: array<string, string>, body: string}> */
    public function requests(): array
    {
        $fh = fopen($this->state, 'r');
        flock($fh, LOCK_SH);
        $state = json_decode((string) stream_get_contents($fh), true);
        flock($fh, LOCK_UN);
        fclose($fh);
        return array_map(static function (array $request): array {
            $request['headers'] = array_change_key_case($request['headers'], CASE_LOWER);
            return $request;
        }, $state['requests']);
    }

    /** An answer in the API's success envelope. @param array<string, string> $headers */
    public static function ok(mixed $data, int $status = 200, array $headers = [], ?array $pagination = null): array
    {
        $json = ['success' => true, 'data' => $data];
        if ($pagination !== null) {
            $json['pagination'] = $pagination;
        }
        return ['status' => $status, 'json' => $json, 'headers' => ['X-Request-Id' => 'req_ok'] + $headers];
    }

    /** An answer in the API's error envelope. @param array<string, string> $headers */
    public static function error(int $status, string $code, string $message = 'Refused', mixed $details = null, array $headers = []): array
    {
        return ['status' => $status, 'json' => ['success' => false, 'error' => ['code' => $code, 'message' => $message, 'details' => $details]], 'headers' => ['X-Request-Id' => "req_$status"] + $headers];
    }

    public function stop(): void
    {
        $this->server->stop();
        if (is_file($this->state)) {
            unlink($this->state);
        }
    }
}
