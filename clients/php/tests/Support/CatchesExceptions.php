<?php

declare(strict_types=1);

namespace Cambio\Tests\Support;

/**
 * thrown(): for a test that asserts on the exception itself (its code, status, message) and on what
 * happened after it, which expectException() cannot do.
 */
trait CatchesExceptions
{
    /**
     * Runs $call, which must throw a $class, and returns that exception. Any other exception goes on
     * up as the test's error; no exception fails the test with $otherwise.
     *
     * @template T of \Throwable
     * @param class-string<T> $class
     * @return T
     */
    protected static function thrown(string $class, callable $call, string $otherwise = 'no exception'): \Throwable
    {
        try {
            $call();
        } catch (\Throwable $e) {
            if (!$e instanceof $class) {
                throw $e;
            }
            return $e;
        }
        self::fail($otherwise);
    }
}
