<?php

/**
 * For use without Composer: `require __DIR__ . '/path/to/clients/php/autoload.php';`
 * registers a PSR-4 autoloader for the `Cambio\` namespace (src/), as composer.json declares.
 */

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Cambio\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
