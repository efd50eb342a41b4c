<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\CambioClient;
use Cambio\Tests\Support\ScriptedTestCase;
use PHPUnit\Framework\TestCase;

/**
 * The package as the README installs it: an application whose composer.json names this folder as a
 * path repository (Packagist turned off, so nothing comes from the network) gets the client into its
 * vendor/ with `composer update`, and uses it through Composer's autoloader alone.
 */
final class PackagingTest extends TestCase
{
    private const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

    public function testComposerInstallsItFromAPathRepositoryAndTheAppVerifiesADelivery(): void
    {
        $composer = self::composer();
        $app = sys_get_temp_dir() . '/cambio-composer-' . bin2hex(random_bytes(6));
        mkdir($app);
        try {
            $client = dirname(__DIR__);
            file_put_contents("$app/composer.json", json_encode([
                'repositories' => [['packagist.org' => false], ['type' => 'path', 'url' => $client, 'options' => ['symlink' => false]]],
                'require' => ['cambio-usdt/client' => CambioClient::VERSION],
            ], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES));
            self::execute([$composer, 'update', '--no-interaction', '--no-progress', '--no-dev'], $app, ['COMPOSER_HOME' => "$app/.composer"]);

            $id = 'evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X';
            $timestamp = (string) time();
            $body = json_encode(['id' => $id, 'type' => 'deposit.completed', 'createdAt' => '2026-01-01T00:00:00.000Z', 'data' => ScriptedTestCase::deposit(['status' => 'completed'])], JSON_UNESCAPED_SLASHES);
            $signature = base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", base64_decode(substr(self::SECRET, 6)), true));
            file_put_contents("$app/delivery.json", $body);
            file_put_contents("$app/app.php", <<<'PHP'
                <?php
                require __DIR__ . '/vendor/autoload.php';

                [, $id, $timestamp, $signature, $secret] = $argv;
                $event = Cambio\WebhookSignature::verify(file_get_contents(__DIR__ . '/delivery.json'), ['webhook-id' => $id, 'webhook-timestamp' => $timestamp, 'webhook-signature' => $signature], $secret);
                echo implode('|', [Cambio\CambioClient::VERSION, $event->type, $event->dataObject()->status, (new ReflectionClass(Cambio\CambioClient::class))->getFileName()]);
                PHP);

            // Only the application's own autoloader: no bootstrap, no include path of this repository.
            $output = explode('|', self::execute([PHP_BINARY, "$app/app.php", $id, $timestamp, "v1,$signature", self::SECRET], $app));

            self::assertSame([CambioClient::VERSION, 'deposit.completed', 'completed'], array_slice($output, 0, 3));
            self::assertSame(realpath("$app/vendor/cambio-usdt/client/src/CambioClient.php"), $output[3], 'loaded from the installed package');
            $installed = json_decode((string) file_get_contents("$app/vendor/composer/installed.json"), true);
            self::assertSame(['cambio-usdt/client'], array_column($installed['packages'], 'name'), 'no dependency beyond PHP and its curl and json extensions');
        } finally {
            self::remove($app);
        }
    }

    private static function composer(): string
    {
        foreach (['/usr/bin/composer', '/usr/local/bin/composer'] as $path) {
            if (is_executable($path)) {
                return $path;
            }
        }
        self::fail('Composer is missing: install it (Debian: composer) to test the package as the README installs it');
    }

    /** @param list<string> $command @param array<string, string> $env */
    private static function execute(array $command, string $cwd, array $env = []): string
    {
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $cwd, $env + getenv());
        self::assertIsResource($process);
        $stdout = stream_get_contents($pipes[1]);
        $stderr = stream_get_contents($pipes[2]);
        $status = proc_close($process);
        self::assertSame(0, $status, implode(' ', $command) . " exited $status:\n$stdout\n$stderr");
        return (string) $stdout;
    }

    private static function remove(string $path): void
    {
        if (is_dir($path) && !is_link($path)) {
            foreach (array_diff(scandir($path) ?: [], ['.', '..']) as $entry) {
                self::remove("$path/$entry");
            }
            rmdir($path);
        } elseif (file_exists($path) || is_link($path)) {
            unlink($path);
        }
    }
}
