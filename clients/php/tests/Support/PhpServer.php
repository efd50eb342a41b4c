<?php

declare(strict_types=1);

namespace Cambio\Tests\Support;

/**
 * `php -S 127.0.0.1:0 <router>` in a child process: the OS picks a free port, read back from the
 * server's "started" line. Stopped (by its own pid) when the test is done. With a $port and
 * $startAfter seconds, it starts listening on that port only then, and the constructor returns at
 * once: a port that refuses connections until the server comes up.
 */
final class PhpServer
{
    /** @var resource */
    private $process;
    public readonly int $port;
    private readonly string $log;

    /** @param array<string, string> $env */
    public function __construct(string $router, array $env = [], int $workers = 1, int $port = 0, float $startAfter = 0.0)
    {
        $this->log = tempnam(sys_get_temp_dir(), 'cambio-php-server-');
        $env = array_merge(getenv(), $env, $workers > 1 ? ['PHP_CLI_SERVER_WORKERS' => (string) $workers] : []);
        // setsid: its own process group, so stop() ends the server and its forked workers together.
        $command = ['setsid', PHP_BINARY, '-d', 'display_errors=stderr', '-S', "127.0.0.1:$port", $router];
        if ($startAfter > 0) {
            // sh execs php in its place: the same pid and process group, which stop() ends.
            $command = ['setsid', 'sh', '-c', 'sleep "$0" && exec "$@"', sprintf('%.3F', $startAfter), ...array_slice($command, 1)];
        }
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', $this->log, 'w']], $pipes, dirname($router), $env);
        if (!is_resource($process)) {
            throw new \RuntimeException('could not start php -S');
        }
        $this->process = $process;
        if ($startAfter > 0) {
            $this->port = $port;
            return;
        }
        $deadline = microtime(true) + 10;
        while (true) {
            if (preg_match('#\(http://127\.0\.0\.1:(\d+)\) started#', (string) file_get_contents($this->log), $match)) {
                $this->port = (int) $match[1];
                break;
            }
            if (microtime(true) > $deadline || !proc_get_status($this->process)['running']) {
                $this->stop();
                throw new \RuntimeException('php -S did not start: ' . file_get_contents($this->log));
            }
            usleep(20_000);
        }
        // The workers are forked after the "started" line of the first: wait until one accepts.
        while (microtime(true) < $deadline) {
            $socket = @stream_socket_client("tcp://127.0.0.1:{$this->port}", $errno, $error, 1);
            if ($socket) {
                fclose($socket);
                return;
            }
            usleep(20_000);
        }
    }

    public function url(string $path = ''): string
    {
        return "http://127.0.0.1:{$this->port}$path";
    }

    public function stop(): void
    {
        if (is_resource($this->process)) {
            $status = proc_get_status($this->process);
            if ($status['running']) {
                // The server and its PHP_CLI_SERVER_WORKERS forks: the process group setsid made, led by this pid.
                posix_kill(-$status['pid'], SIGTERM);
            }
            proc_close($this->process);
        }
        if (is_file($this->log)) {
            unlink($this->log);
        }
    }

    public function __destruct()
    {
        $this->stop();
    }
}
