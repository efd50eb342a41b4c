<?php

declare(strict_types=1);

namespace Cambio\Tests\Support;

/**
 * The scenario's receiver: `php -S` on 127.0.0.1 (a free port) with receiver-router.php, which
 * keeps each request's raw body and headers in a temp folder and answers 204.
 */
final class WebhookReceiver
{
    private PhpServer $server;
    private string $dir;

    public function __construct()
    {
        $this->dir = sys_get_temp_dir() . '/cambio-php-receiver-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
        $this->server = new PhpServer(__DIR__ . '/receiver-router.php', ['CAMBIO_RECEIVER_DIR' => $this->dir], 2);
    }

    public function url(string $path): string
    {
        return $this->server->url($path);
    }

    /** @return list<array{headers: array<string, string>, body: string}> in arrival order */
    public function deliveries(): array
    {
        $files = glob("{$this->dir}/*.json") ?: [];
        sort($files);
        return array_map(static function (string $file): array {
            $delivery = json_decode((string) file_get_contents($file), true);
            return ['headers' => $delivery['headers'], 'body' => base64_decode($delivery['body'])];
        }, $files);
    }

    public function stop(): void
    {
        $this->server->stop();
        foreach (glob("{$this->dir}/*") ?: [] as $file) {
            unlink($file);
        }
        if (is_dir($this->dir)) {
            rmdir($this->dir);
        }
    }
}
