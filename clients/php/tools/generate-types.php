<?php

/**
 * Generates src/Types/ from the repository's openapi.json (components.schemas and webhooks):
 *
 *   - one readonly record class per response schema (Deposit, Withdrawal, Quote, …), its
 *     properties named as the API names them ($deposit->receivedAmount), with nested classes for
 *     inline objects (DepositTransaction, DepositSplit, CurrencyBalance); a schema that opens with
 *     all of another's fields extends its class (CreatedWebhook extends Webhook);
 *   - one class of field lists per request schema (CreateDepositRequest::FIELDS, ::REQUIRED,
 *     ::MONEY, ::NUMBERS), the keys the params arrays take;
 *   - a JSON number (`type: number`, a split's percent) is a decimal string, never a float: the
 *     record property is a #[Decimal] string, the request field is written as the exact number;
 *   - a secret (CAMBIO_HIDDEN_FIELDS) is #[Hidden]: print_r() and var_dump() show `[hidden]`;
 *   - EventType: every webhook event type and the record class its `data` holds.
 *
 * Run from clients/php:  php tools/generate-types.php            (writes src/Types/)
 *                        php tools/generate-types.php --check    (exit 1 when src/Types/ is stale)
 * tests/TypesDriftTest.php runs the check, so a changed openapi.json fails the suite until the
 * types are regenerated and committed.
 */

declare(strict_types=1);

const CAMBIO_TYPES_HEADER = "// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.";

/**
 * The opening lines every generated file shares: the tag, the do-not-edit header, strict types,
 * the namespace and the classes it uses.
 *
 * @param list<string> $uses
 * @return list<string>
 */
function cambio_file_start(array $uses): array
{
    $lines = ['<?php', '', CAMBIO_TYPES_HEADER, '', 'declare(strict_types=1);', '', 'namespace Cambio\\Types;', ''];
    foreach ($uses as $class) {
        $lines[] = "use $class;";
    }
    if ($uses !== []) {
        $lines[] = '';
    }
    return $lines;
}

/**
 * A whole generated file: the shared opening, the class's docblock and declaration, then its body
 * in braces. A class of constants only (request fields, event types) is never built: it gets a
 * private constructor.
 *
 * @param list<string> $uses
 * @param list<string> $declaration
 * @param list<string> $body
 */
function cambio_class_file(array $uses, array $declaration, array $body, bool $constantsOnly = false): string
{
    $lines = [...cambio_file_start($uses), ...$declaration, '{', ...$body];
    if ($constantsOnly) {
        array_push($lines, '', '    private function __construct()', '    {', '    }');
    }
    $lines[] = '}';
    return implode("\n", $lines) . "\n";
}

/** A PHP list literal of the given strings: ['id', 'url']. @param list<string> $values */
function cambio_export_list(array $values): string
{
    return '[' . implode(', ', array_map(fn ($v) => var_export($v, true), $values)) . ']';
}

/** Inline objects whose generated name would read badly: parent schema + property => class name. */
const CAMBIO_NESTED_NAMES = [
    'Balance.balances' => 'CurrencyBalance',
    'Company.rateLimit' => 'RateLimit',
];

/** Fields print_r() and var_dump() show as `[hidden]` (CreatedWebhook's signing secret), as Java's and .NET's toString. */
const CAMBIO_HIDDEN_FIELDS = ['secret'];

/** Schemas that are not records a call returns: the error envelope (it becomes an exception). */
const CAMBIO_SKIPPED_SCHEMAS = ['ErrorResponse'];

/**
 * @param array<string, mixed> $openapi
 * @return array<string, string> file name (relative to src/Types) => contents
 */
function cambio_generate_types(array $openapi): array
{
    $schemas = $openapi['components']['schemas'] ?? [];
    ksort($schemas);
    $files = [];
    $eventRecords = [];
    $records = [];
    foreach ($schemas as $name => $schema) {
        // The success envelopes (DepositResponse, ConversionList, ...) too: the client unwraps them.
        if (in_array($name, CAMBIO_SKIPPED_SCHEMAS, true) || isset($schema['properties']['success'])) {
            continue;
        }
        if (str_ends_with($name, 'Event') && isset($schema['properties']['type']['const'], $schema['properties']['data']['$ref'])) {
            $eventRecords[$schema['properties']['type']['const']] = cambio_ref_name($schema['properties']['data']['$ref']);
            continue;
        }
        if (str_ends_with($name, 'Request')) {
            $files["$name.php"] = cambio_request_class($name, $schema);
            continue;
        }
        $records[$name] = $schema;
    }
    $parents = array_filter(array_map(fn ($name) => cambio_parent_record($name, $records), array_combine(array_keys($records), array_keys($records))));
    foreach ($records as $name => $schema) {
        $parent = $parents[$name] ?? null;
        $inherited = $parent === null ? 0 : count($records[$parent]['properties']);
        foreach (cambio_record_classes($name, $schema, null, $parent, $inherited, in_array($name, $parents, true)) as $class => $code) {
            $files["$class.php"] = $code;
        }
    }
    $eventTypes = array_keys($openapi['webhooks'] ?? []);
    $files['EventType.php'] = cambio_event_type_class($eventTypes, $eventRecords);
    ksort($files);
    return $files;
}

function cambio_ref_name(string $ref): string
{
    return substr($ref, strrpos($ref, '/') + 1);
}

/** The schema without its `null` branch, and whether null is allowed. @return array{0: array, 1: bool} */
function cambio_strip_null(array $schema): array
{
    foreach (['anyOf', 'oneOf'] as $key) {
        if (isset($schema[$key])) {
            $branches = array_values(array_filter($schema[$key], fn ($b) => ($b['type'] ?? null) !== 'null'));
            if (count($branches) < count($schema[$key])) {
                return [count($branches) === 1 ? $branches[0] : [$key => $branches], true];
            }
        }
    }
    if (isset($schema['type']) && is_array($schema['type']) && in_array('null', $schema['type'], true)) {
        $types = array_values(array_filter($schema['type'], fn ($t) => $t !== 'null'));
        $schema['type'] = count($types) === 1 ? $types[0] : $types;
        return [$schema, true];
    }
    return [$schema, false];
}

/** An inline object, or an array of inline objects (merging oneOf branches such as Balance's USDT/BRL). */
function cambio_object_schema(array $schema): ?array
{
    if (($schema['type'] ?? null) === 'object' && isset($schema['properties'])) {
        return $schema;
    }
    $branches = $schema['oneOf'] ?? $schema['anyOf'] ?? null;
    if (is_array($branches) && $branches !== [] && count(array_filter($branches, fn ($b) => ($b['type'] ?? null) === 'object' && isset($b['properties']))) === count($branches)) {
        $properties = [];
        $required = null;
        foreach ($branches as $branch) {
            foreach ($branch['properties'] as $key => $property) {
                if ($property === false) {
                    continue; // a field this branch forbids (split: percent or amount, not both)
                }
                if (isset($properties[$key]) && array_key_exists('const', $property)) {
                    // A discriminator (Balance's currency): one of the branches' constants.
                    $known = $properties[$key]['enum'] ?? [$properties[$key]['const']];
                    $properties[$key] = ['type' => 'string', 'enum' => array_values(array_unique([...$known, $property['const']]))];
                    continue;
                }
                $properties[$key] ??= $property;
            }
            $required = $required === null ? $branch['required'] ?? [] : array_values(array_intersect($required, $branch['required'] ?? []));
        }
        return ['type' => 'object', 'properties' => $properties, 'required' => $required];
    }
    return null;
}

/**
 * How one property is typed: CambioObject::fromArray() reads it by that type (and `listOf`, its #[ListOf]).
 * @return array{php: string, doc: string, listOf: ?string, nested: array<string, array>, decimal: bool}
 */
function cambio_property(string $parent, string $key, array $schema, bool $required): array
{
    [$inner, $nullable] = cambio_strip_null($schema);
    $decimal = ($inner['type'] ?? null) === 'number';
    $nullable = $nullable || !$required;
    $nested = [];
    $listOf = null;
    if (isset($inner['$ref'])) {
        $php = $doc = cambio_ref_name($inner['$ref']);
    } elseif (($object = cambio_object_schema($inner)) !== null) {
        $php = $doc = CAMBIO_NESTED_NAMES["$parent.$key"] ?? $parent . ucfirst($key);
        $nested[$php] = [$object, ".$key"];
    } elseif (($inner['type'] ?? null) === 'array' || isset($inner['anyOf']) && array_filter($inner['anyOf'], fn ($b) => ($b['type'] ?? null) === 'array') === $inner['anyOf']) {
        $items = $inner['items'] ?? null;
        if (is_array($items) && (isset($items['$ref']) || cambio_object_schema($items) !== null)) {
            if (isset($items['$ref'])) {
                $listOf = cambio_ref_name($items['$ref']);
            } else {
                $listOf = CAMBIO_NESTED_NAMES["$parent.$key"] ?? $parent . ucfirst(cambio_singular($key));
                $nested[$listOf] = [cambio_object_schema($items), ".{$key}[]"];
            }
            [$php, $doc] = ['array', "list<$listOf>"];
        } else {
            $itemType = is_array($items) ? cambio_scalar($items)[1] : 'string';
            [$php, $doc] = ['array', "list<$itemType>"];
        }
    } else {
        [$php, $doc] = cambio_scalar($inner);
    }
    if ($nullable) {
        $php = str_contains($php, '|') ? "$php|null" : "?$php";
        $doc = "$doc|null";
    }
    return ['php' => $php, 'doc' => $doc, 'listOf' => $listOf, 'nested' => $nested, 'decimal' => $decimal];
}

/** @return array{0: string, 1: string} PHP type, doc type */
function cambio_scalar(array $schema): array
{
    if (array_key_exists('const', $schema)) {
        $value = $schema['const'];
        return is_bool($value) ? ['bool', 'bool'] : (is_int($value) ? ['int', 'int'] : ['string', 'string']);
    }
    return match ($schema['type'] ?? 'string') {
        'integer' => ['int', 'int'],
        // A JSON number is read as its exact decimal string (#[Decimal]), never a float.
        'number' => ['string', 'numeric-string'],
        'boolean' => ['bool', 'bool'],
        default => ['string', 'string'],
    };
}

function cambio_singular(string $word): string
{
    return str_ends_with($word, 's') ? substr($word, 0, -1) : $word;
}

/** One line saying what the API promises about a value (constant, values, format, meaning). */
function cambio_describe(array $schema): string
{
    // A nullable field's meaning is on the union (`anyOf: [{…}, {type: null}]`), its format on the branch.
    $meaning = $schema['description'] ?? null;
    [$schema] = cambio_strip_null($schema);
    $parts = [];
    if (array_key_exists('const', $schema)) {
        $parts[] = 'always ' . json_encode($schema['const']);
    }
    if (isset($schema['enum'])) {
        $parts[] = 'one of ' . implode(', ', array_map(fn ($v) => json_encode($v), $schema['enum']));
    }
    if (isset($schema['description'])) {
        $parts[] = rtrim($schema['description'], '.');
    } elseif (isset($schema['format'])) {
        $parts[] = $schema['format'] === 'date-time' ? 'ISO 8601 UTC time with milliseconds' : $schema['format'];
    } elseif (isset($schema['pattern'])) {
        $parts[] = 'matches ' . $schema['pattern'];
    }
    if ($meaning !== null && $meaning !== ($schema['description'] ?? null)) {
        $parts[] = rtrim($meaning, '.');
    }
    return str_replace('*/', '* /', implode('; ', $parts));
}

/**
 * The record schema another one extends: the one with the most fields whose fields, as it defines
 * them and in its order, open the other's (CreatedWebhook is a Webhook and its secret). Its class
 * then extends that record's class and declares only the fields that follow.
 *
 * @param array<string, array> $records record schemas by name
 */
function cambio_parent_record(string $name, array $records): ?string
{
    $properties = $records[$name]['properties'] ?? [];
    $required = $records[$name]['required'] ?? [];
    $parent = null;
    foreach ($records as $other => $schema) {
        $theirs = $schema['properties'] ?? [];
        $opening = array_slice($properties, 0, count($theirs), true);
        $sameRequired = array_values(array_intersect($required, array_keys($theirs))) == ($schema['required'] ?? []);
        if ($theirs !== [] && count($theirs) < count($properties) && $opening == $theirs && $sameRequired
            && ($parent === null || count($theirs) > count($records[$parent]['properties']))) {
            $parent = $other;
        }
    }
    return $parent;
}

/**
 * A record class: a typed readonly property per field, in the API's order, which
 * CambioObject::fromArray() fills by its name and declared type (#[ListOf] names the record class
 * of a list's items).
 *
 * @param ?string $parent the record class it extends (see cambio_parent_record()), whose $inherited first fields it does not declare again
 * @param bool $extended whether another record class extends this one (else it is final)
 * @return array<string, string> class name => code, the record and its nested classes
 */
function cambio_record_classes(string $name, array $schema, ?string $origin = null, ?string $parent = null, int $inherited = 0, bool $extended = false): array
{
    $required = $schema['required'] ?? [];
    $lines = [];
    $nested = [];
    $uses = $parent === null ? ['Cambio\\CambioObject'] : [];
    foreach (array_slice($schema['properties'] ?? [], $inherited, null, true) as $key => $property) {
        $info = cambio_property($name, $key, $property, in_array($key, $required, true));
        $nested += $info['nested'];
        if ($lines !== []) {
            $lines[] = '';
        }
        $doc = $info['doc'] !== $info['php'] && $info['doc'] !== str_replace('?', '', $info['php']) . '|null' ? $info['doc'] : null;
        $about = cambio_describe($property);
        if ($info['decimal']) {
            $about = 'A JSON number as its exact decimal string (\'12.5\'), never a float' . ($about !== '' ? "; $about" : '');
        }
        if ($doc !== null || $about !== '') {
            $lines[] = '    /** ' . ($doc !== null ? "@var $doc" . ($about !== '' ? " $about" : '') : $about) . ' */';
        }
        if ($info['listOf'] !== null) {
            $uses = array_values(array_unique([...$uses, 'Cambio\\Internal\\ListOf']));
            $lines[] = "    #[ListOf({$info['listOf']}::class)]";
        }
        if ($info['decimal']) {
            $uses = array_values(array_unique([...$uses, 'Cambio\\Internal\\Decimal']));
            $lines[] = '    #[Decimal]';
        }
        if (in_array($key, CAMBIO_HIDDEN_FIELDS, true)) {
            $uses = array_values(array_unique([...$uses, 'Cambio\\Internal\\Hidden']));
            $lines[] = '    #[Hidden]';
        }
        $lines[] = "    public readonly {$info['php']} \$$key;";
    }
    $origin ??= "components.schemas.$name";
    $declaration = ['/**', " * `$origin` in openapi.json" . ($parent === null ? '.' : ": the fields of $parent, then its own."), ' * Built by CambioObject::fromArray(), which reads each property by its name and type.', ' */'];
    $declaration[] = ($extended ? '' : 'final ') . "class $name extends " . ($parent ?? 'CambioObject');
    $classes = [$name => cambio_class_file($uses, $declaration, $lines)];
    foreach ($nested as $class => [$object, $path]) {
        $classes += cambio_record_classes($class, $object, $origin . $path);
    }
    return $classes;
}

function cambio_request_class(string $name, array $schema): string
{
    $properties = $schema['properties'] ?? [];
    $money = [];
    $numbers = [];
    $shape = [];
    foreach ($properties as $key => $property) {
        $optional = in_array($key, $schema['required'] ?? [], true) ? '' : '?';
        if (cambio_is_money($property)) {
            $money[] = $key;
        }
        if (cambio_is_number($property)) {
            $numbers[] = $key;
        }
        // An object, or a oneOf of objects (split: by percent or by amount) read as their merge.
        $object = cambio_object_schema($property);
        foreach ($object['properties'] ?? [] as $sub => $subProperty) {
            if (cambio_is_money($subProperty)) {
                $money[] = "$key.$sub";
            }
            if (cambio_is_number($subProperty)) {
                $numbers[] = "$key.$sub";
            }
        }
        $shape[] = "$key$optional: " . cambio_shape_type($object ?? $property);
    }
    $declaration = ['/**', " * The keys of the params array (`components.schemas.$name` in openapi.json):", ' *'];
    foreach ($properties as $key => $property) {
        $about = cambio_describe($property);
        $declaration[] = " * - `$key`" . (in_array($key, $schema['required'] ?? [], true) ? ' (required)' : '') . ($about !== '' ? ": $about" : '');
    }
    array_push($declaration, ' *', ' * @phpstan-type Params array{' . implode(', ', $shape) . '}', ' */', "final class $name");
    return cambio_class_file([], $declaration, [
        '    public const FIELDS = ' . cambio_export_list(array_keys($properties)) . ';',
        '',
        '    public const REQUIRED = ' . cambio_export_list($schema['required'] ?? []) . ';',
        '',
        '    /** Money fields (dot for nested): decimal strings; the client refuses a float here. */',
        '    public const MONEY = ' . cambio_export_list($money) . ';',
        '',
        '    /** Number fields (dot for nested): an int, a float or a decimal string, sent as the exact JSON number. */',
        '    public const NUMBERS = ' . cambio_export_list($numbers) . ';',
    ], constantsOnly: true);
}

function cambio_is_number(array $schema): bool
{
    return (cambio_strip_null($schema)[0]['type'] ?? null) === 'number';
}

function cambio_is_money(array $schema): bool
{
    return ($schema['type'] ?? null) === 'string' && str_contains($schema['description'] ?? '', 'decimal string');
}

function cambio_shape_type(array $schema): string
{
    [$inner, $nullable] = cambio_strip_null($schema);
    if (array_key_exists('const', $inner)) {
        $type = var_export($inner['const'], true);
    } elseif (isset($inner['enum'])) {
        $type = implode('|', array_map(fn ($value) => var_export($value, true), $inner['enum']));
    } elseif (($inner['type'] ?? null) === 'object') {
        $type = 'array<string, mixed>';
    } elseif (($inner['type'] ?? null) === 'array') {
        $type = 'list<string>';
    } else {
        $type = cambio_scalar($inner)[1];
        if (($inner['type'] ?? null) === 'number') {
            $type = 'int|float|numeric-string';
        } elseif ($type === 'string' && cambio_is_money($inner)) {
            $type = 'string|\\Stringable|int';
        }
    }
    return $nullable ? "$type|null" : $type;
}

/** @param list<string> $types @param array<string, string> $records */
function cambio_event_type_class(array $types, array $records): string
{
    $lines = [];
    foreach ($types as $type) {
        $lines[] = '    public const ' . strtoupper(str_replace('.', '_', $type)) . ' = ' . var_export($type, true) . ';';
    }
    $lines[] = '';
    $lines[] = '    /** Event type => class of its `data` record. */';
    $lines[] = '    public const RECORDS = [';
    foreach ($types as $type) {
        if (isset($records[$type])) {
            $lines[] = '        ' . var_export($type, true) . " => {$records[$type]}::class,";
        }
    }
    $lines[] = '    ];';
    $declaration = ['/** The webhook event types (`webhooks` in openapi.json) and the record each one\'s `data` holds. */', 'final class EventType'];
    return cambio_class_file([], $declaration, $lines, constantsOnly: true);
}

/** @return array<string, string> */
function cambio_generate_from_file(string $openapiPath): array
{
    $openapi = json_decode((string) file_get_contents($openapiPath), true, 512, JSON_THROW_ON_ERROR);
    return cambio_generate_types($openapi);
}

/** What differs between the generated files and the ones in $dir: list of messages, empty when none. @return list<string> */
function cambio_types_drift(string $openapiPath, string $dir): array
{
    $expected = cambio_generate_from_file($openapiPath);
    $problems = [];
    foreach ($expected as $file => $code) {
        $path = "$dir/$file";
        if (!is_file($path)) {
            $problems[] = "src/Types/$file is missing";
        } elseif (file_get_contents($path) !== $code) {
            $problems[] = "src/Types/$file differs from what openapi.json generates";
        }
    }
    foreach (glob("$dir/*.php") ?: [] as $path) {
        if (!isset($expected[basename($path)])) {
            $problems[] = 'src/Types/' . basename($path) . ' is not generated from openapi.json any more';
        }
    }
    return $problems;
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $root = dirname(__DIR__);
    $openapi = $root . '/../../openapi.json';
    $dir = $root . '/src/Types';
    if (in_array('--check', $argv, true)) {
        $problems = cambio_types_drift($openapi, $dir);
        foreach ($problems as $problem) {
            fwrite(STDERR, "$problem\n");
        }
        if ($problems !== []) {
            fwrite(STDERR, "Run `php tools/generate-types.php` in clients/php and commit src/Types/.\n");
            exit(1);
        }
        exit(0);
    }
    $files = cambio_generate_from_file($openapi);
    foreach (glob("$dir/*.php") ?: [] as $path) {
        if (!isset($files[basename($path)])) {
            unlink($path);
        }
    }
    foreach ($files as $file => $code) {
        file_put_contents("$dir/$file", $code);
    }
    echo 'Wrote ' . count($files) . " files to src/Types/\n";
}
