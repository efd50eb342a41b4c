<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** 404 NOT_FOUND: unknown id (or another company's), or an unknown route. */
class NotFoundException extends CambioException
{
}
