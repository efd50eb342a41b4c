<?php

declare(strict_types=1);

namespace Cambio;

use Cambio\Exception\InvalidResponseException;

/**
 * One page of a list call: `->data` (the records), `->nextCursor` (null on the last page).
 * Iterating the page itself (foreach, count) covers this page only; autoPagingIterator() walks
 * every item of this page and of every page after it, fetching each page only when it gets there.
 *
 * @template T of CambioObject
 * @implements \IteratorAggregate<int, T>
 */
final class Page implements \IteratorAggregate, \Countable
{
    /** @var \Closure(string): Page<T> */
    private readonly \Closure $fetchNext;

    /** The cursor this page was asked for (null for the first page). */
    private readonly ?string $cursor;

    /**
     * @param list<T> $data
     * @param \Closure(string): Page<T> $fetchNext fetches the page at a cursor
     * @param string|null $cursor the cursor this page was asked for (null for the first page)
     */
    public function __construct(
        public readonly array $data,
        public readonly ?string $nextCursor,
        public readonly ?string $requestId,
        \Closure $fetchNext,
        ?string $cursor = null,
    ) {
        $this->fetchNext = $fetchNext;
        $this->cursor = $cursor;
    }

    public function hasMore(): bool
    {
        return $this->nextCursor !== null;
    }

    /** The page after this one, or null on the last page. @return Page<T>|null */
    public function nextPage(): ?Page
    {
        return $this->nextCursor === null ? null : ($this->fetchNext)($this->nextCursor);
    }

    /**
     * Every item of this page and of the following ones, lazily, page by page (each page is one
     * request, made when the previous page's items are used up). A next cursor that was already
     * followed in this walk (this page's own cursor included: list(['cursor' => 'C']) answered with
     * nextCursor C) throws InvalidResponseException (the list would never end), after the items
     * read so far.
     *
     * @return \Generator<int, T>
     */
    public function autoPagingIterator(): \Generator
    {
        $page = $this;
        $seen = $this->cursor === null ? [] : [$this->cursor => true];
        while (true) {
            foreach ($page->data as $item) {
                yield $item;
            }
            if ($page->nextCursor === null) {
                return;
            }
            if (isset($seen[$page->nextCursor])) {
                // Following it again would walk the same pages forever; stopping would cut the list
                // short without a word. Either way the answer is not what the API promises.
                throw new InvalidResponseException(
                    "The API answered the cursor {$page->nextCursor} again after it was followed: the list repeats, so it was not walked to its end",
                    null,
                    $page->requestId,
                );
            }
            $seen[$page->nextCursor] = true;
            $page = ($page->fetchNext)($page->nextCursor);
        }
    }

    /** @return \ArrayIterator<int, T> this page's items only */
    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->data);
    }

    public function count(): int
    {
        return count($this->data);
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return ['data' => $this->data, 'nextCursor' => $this->nextCursor, 'requestId' => $this->requestId];
    }
}
