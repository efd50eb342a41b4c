<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\Tests\Support\PhpServer;
use Cambio\Tests\Support\ScriptedServer;
use Cambio\Tests\Support\ScriptedTestCase;

/** README.md's PHP examples compile, the quickstart runs, and the plain-PHP webhook receiver works. */
final class ReadmeTest extends ScriptedTestCase
{
    /** @return list<string> the ```php blocks of README.md */
    private static function blocks(): array
    {
        preg_match_all('/```php\n(.*?)```/s', (string) file_get_contents(__DIR__ . '/../README.md'), $matches);
        return $matches[1];
    }

    private static function block(string $containing): string
    {
        foreach (self::blocks() as $block) {
            if (str_contains($block, $containing)) {
                return $block;
            }
        }
        self::fail("no README block contains $containing");
    }

    /** The block, its Composer require pointed at this repository's autoload.php, in a temp file. */
    private static function runnable(string $code): string
    {
        $code = preg_replace("#^require __DIR__ \\. '[^']*vendor/autoload\\.php';#m", 'require ' . var_export(realpath(__DIR__ . '/../autoload.php'), true) . ';', $code, 1, $count);
        self::assertSame(1, $count, 'the example requires the autoloader');
        $base = tempnam(sys_get_temp_dir(), 'cambio-readme-');
        unlink($base);
        $file = "$base.php";
        file_put_contents($file, $code);
        return $file;
    }

    public function testEveryPhpBlockCompiles(): void
    {
        $blocks = self::blocks();
        self::assertGreaterThanOrEqual(6, count($blocks));
        foreach ($blocks as $index => $block) {
            $code = str_starts_with($block, '<?php') ? $block : "<?php\n$block";
            $file = tempnam(sys_get_temp_dir(), 'cambio-readme-');
            file_put_contents($file, $code);
            exec(escapeshellarg(PHP_BINARY) . ' -l ' . escapeshellarg($file) . ' 2>&1', $output, $status);
            unlink($file);
            self::assertSame(0, $status, "README block #$index:\n$block\n" . implode("\n", $output));
        }
    }

    public function testTheQuickstartRuns(): void
    {
        $quote = ['id' => 'qte_01KBJ4XZ0A1B2C3D4E5F6G7H8J', 'sourceCurrency' => 'USDT', 'settlementCurrency' => 'BRL', 'sourceAmount' => '10.000000', 'settlementAmount' => '54.00', 'rate' => '5.40000000', 'expiresAt' => '2026-01-15T12:00:30.000Z', 'createdAt' => '2026-01-15T12:00:00.000Z'];
        $this->script([
            ScriptedServer::ok(self::deposit(), 201),
            ScriptedServer::ok($quote, 201),
            ScriptedServer::ok(self::conversion('cnv_B'), 201),
            ScriptedServer::error(422, 'INSUFFICIENT_BALANCE', 'Insufficient balance'),
            ScriptedServer::ok([self::conversion('cnv_B')], 200, [], ['nextCursor' => 'next']),
            ScriptedServer::ok([self::conversion('cnv_A')], 200, [], ['nextCursor' => null]),
        ]);
        $file = self::runnable(self::block('$cambio->deposits->create'));
        try {
            $command = 'CAMBIO_API_KEY=ck_readme CAMBIO_API_SECRET=cs_readme CAMBIO_API_URL=' . escapeshellarg(self::$server->url()) . ' ' . escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg($file) . ' 2>&1';
            exec($command, $output, $status);
        } finally {
            unlink($file);
        }
        self::assertSame(0, $status, implode("\n", $output));
        self::assertSame([
            'pay 25.000000 USDT to TJRabPrwbZy45sbavfcjinPJC18kjpRTv8 on tron',
            '10.000000 USDT became 54.00 BRL',
            'top up first (request req_422)',
            'cnv_B: 54.00 BRL',
            'cnv_A: 54.00 BRL',
        ], $output);
        $requests = $this->requests();
        self::assertSame('payout-1', $requests[3]['headers']['idempotency-key']);
        self::assertSame('/v1/conversions?limit=100&cursor=next', $requests[5]['uri']);
    }

    public function testThePlainPhpWebhookReceiverVerifiesTheRawBody(): void
    {
        $secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
        $dir = sys_get_temp_dir() . '/cambio-readme-receiver-' . bin2hex(random_bytes(4));
        mkdir("$dir/public", 0777, true);
        $runnable = self::runnable(self::block("file_get_contents('php://input')"));
        rename($runnable, "$dir/public/cambio-webhook.php");
        $server = new PhpServer("$dir/public/cambio-webhook.php", ['CAMBIO_WEBHOOK_SECRET' => $secret]);
        try {
            $id = 'evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X';
            $timestamp = (string) time();
            $body = json_encode(['id' => $id, 'type' => 'deposit.completed', 'createdAt' => '2026-01-15T12:00:00.000Z', 'data' => self::deposit(['status' => 'completed'])], JSON_UNESCAPED_SLASHES);
            $signature = 'v1,' . base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", base64_decode(substr($secret, 6)), true));
            $post = function (string $body) use ($server, $id, $timestamp, $signature): int {
                $curl = curl_init($server->url('/cambio-webhook.php'));
                curl_setopt_array($curl, [CURLOPT_POST => true, CURLOPT_POSTFIELDS => $body, CURLOPT_RETURNTRANSFER => true, CURLOPT_HTTPHEADER => ['Content-Type: application/json', "Webhook-Id: $id", "Webhook-Timestamp: $timestamp", "Webhook-Signature: $signature"]]);
                curl_exec($curl);
                return curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
            };
            self::assertSame(204, $post($body));
            self::assertSame(400, $post(str_replace('"completed"', '"expired"', $body)));
        } finally {
            $server->stop();
            array_map('unlink', glob("$dir/public/*") ?: []);
            rmdir("$dir/public");
            rmdir($dir);
        }
    }
}
