<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** Implemented by every exception this library throws: `catch (\Cambio\Exception\ExceptionInterface $e)` catches them all. */
interface ExceptionInterface extends \Throwable
{
}
