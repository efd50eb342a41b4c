<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\CambioObject;
use Cambio\Exception\InvalidArgumentException;
use Cambio\Exception\InvalidResponseException;
use Cambio\Internal\Requestor;
use Cambio\Page;

/** @internal The shared plumbing of the resource groups; Operation\\ holds the calls several groups make alike. */
abstract class AbstractService
{
    /**
     * What the shared operations (Operation\Create, Operation\Retrieve, Operation\All) of a group
     * work on: `path`, its collection ('/v1/deposits'); `record`, the class its records are read
     * as; `params`, the generated request class of create() (its MONEY fields are checked);
     * `created`, the class create() answers with when it is not `record`.
     *
     * @var array{path: string, record: class-string<CambioObject>, params?: class-string, created?: class-string<CambioObject>}
     */
    protected const RESOURCE = ['path' => '', 'record' => CambioObject::class];

    /** @internal */
    public function __construct(protected readonly Requestor $requestor)
    {
    }

    /**
     * @template T of CambioObject
     * @param class-string<T> $class
     * @param array<string, mixed>|null $body
     * @param array<string, mixed> $opts
     * @return T
     */
    protected function record(string $class, string $method, string $path, ?array $body, array $opts): CambioObject
    {
        $answer = $this->requestor->request($method, $path, null, $body, $opts);
        return Requestor::hydrate($answer, $class::fromArray(...));
    }

    /**
     * @template T of CambioObject
     * @param class-string<T> $class
     * @param array<string, mixed> $params limit, cursor
     * @param array<string, mixed> $opts
     * @return Page<T>
     */
    protected function page(string $class, string $path, array $params, array $opts): Page
    {
        foreach (array_keys($params) as $key) {
            if ($key !== 'limit' && $key !== 'cursor') {
                throw new InvalidArgumentException('A list takes `limit` (1–100) and `cursor`; got ' . var_export($key, true));
            }
        }
        Requestor::checkOptions($opts);
        $fetch = function (?string $cursor) use ($class, $path, $params, $opts, &$fetch): Page {
            $query = array_filter(['limit' => $params['limit'] ?? null, 'cursor' => $cursor], fn ($v) => $v !== null);
            $answer = $this->requestor->request('GET', $path, $query, null, $opts);
            if (!is_array($answer->data) || !array_is_list($answer->data)) {
                throw new InvalidResponseException('A list answer\'s data is not a list', $answer->status, $answer->requestId);
            }
            $items = array_map(fn ($item) => Requestor::hydrate(new \Cambio\Internal\Answer($item, null, $answer->requestId, $answer->status, false), $class::fromArray(...)), $answer->data);
            return new Page($items, $answer->nextCursor, $answer->requestId, static fn (string $next): Page => $fetch($next), $cursor);
        };
        return $fetch(isset($params['cursor']) ? (string) $params['cursor'] : null);
    }

    protected static function segment(string $id): string
    {
        if ($id === '') {
            throw new InvalidArgumentException('id must be a non-empty string');
        }
        return rawurlencode($id);
    }
}
