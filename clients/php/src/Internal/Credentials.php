<?php

declare(strict_types=1);

namespace Cambio\Internal;

/**
 * The API key and secret. The secret lives in a closure, so var_export(), print_r(), var_dump()
 * (via __debugInfo), json_encode() and (array) casts of anything holding it never show it, and
 * serialize() refuses.
 *
 * @internal
 */
final class Credentials
{
    private readonly \Closure $secret;

    public function __construct(public readonly string $apiKey, #[\SensitiveParameter] string $apiSecret)
    {
        $this->secret = static fn (): string => $apiSecret;
    }

    public function secret(): string
    {
        return ($this->secret)();
    }

    /** The key's first characters only, for logs and debugging output. */
    public function maskedKey(): string
    {
        return strlen($this->apiKey) > 8 ? substr($this->apiKey, 0, 8) . '…' : '…';
    }

    /** @return array<string, string> */
    public function __debugInfo(): array
    {
        return ['apiKey' => $this->maskedKey(), 'apiSecret' => '[redacted]'];
    }

    public function __serialize(): array
    {
        throw new \LogicException('Cambio credentials cannot be serialized; make a new CambioClient where you need one');
    }
}
