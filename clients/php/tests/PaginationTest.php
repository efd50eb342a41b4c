<?php

declare(strict_types=1);

namespace Cambio\Tests;

use Cambio\Exception\InvalidArgumentException;
use Cambio\Exception\InvalidResponseException;
use Cambio\Page;
use Cambio\Tests\Support\ScriptedServer;
use Cambio\Tests\Support\ScriptedTestCase;
use Cambio\Types\Conversion;

/** A list call returns one page; autoPagingIterator() walks every page lazily. */
final class PaginationTest extends ScriptedTestCase
{
    private function threePages(): void
    {
        $this->script([
            ScriptedServer::ok([self::conversion('cnv_5'), self::conversion('cnv_4')], 200, [], ['nextCursor' => 'c2']),
            ScriptedServer::ok([self::conversion('cnv_3'), self::conversion('cnv_2')], 200, [], ['nextCursor' => 'c3']),
            ScriptedServer::ok([self::conversion('cnv_1')], 200, [], ['nextCursor' => null]),
        ]);
    }

    public function testAListCallReturnsOnePage(): void
    {
        $this->threePages();
        $page = $this->client()->conversions->list(['limit' => 2]);
        self::assertInstanceOf(Page::class, $page);
        self::assertCount(2, $page->data);
        self::assertContainsOnlyInstancesOf(Conversion::class, $page->data);
        self::assertSame('cnv_5', $page->data[0]->id);
        self::assertSame('c2', $page->nextCursor);
        self::assertTrue($page->hasMore());
        self::assertSame('req_ok', $page->requestId);
        self::assertSame(['cnv_5', 'cnv_4'], array_map(fn (Conversion $c) => $c->id, iterator_to_array($page)), 'iterating a page: this page only');
        self::assertSame(['/v1/conversions?limit=2'], array_column($this->requests(), 'uri'));
    }

    public function testTheAutoPagingIteratorWalksEveryPageLazily(): void
    {
        $this->threePages();
        $iterator = $this->client()->conversions->list(['limit' => 2])->autoPagingIterator();
        self::assertInstanceOf(\Generator::class, $iterator);
        $ids = [];
        foreach ($iterator as $conversion) {
            $ids[] = $conversion->id;
            if (count($ids) === 2) {
                self::assertCount(1, $this->requests(), 'the second page is fetched only when the first is used up');
            }
        }
        self::assertSame(['cnv_5', 'cnv_4', 'cnv_3', 'cnv_2', 'cnv_1'], $ids);
        self::assertSame(['/v1/conversions?limit=2', '/v1/conversions?limit=2&cursor=c2', '/v1/conversions?limit=2&cursor=c3'], array_column($this->requests(), 'uri'));
    }

    public function testNextPageAndAStartingCursor(): void
    {
        $this->threePages();
        $cambio = $this->client();
        $second = $cambio->conversions->list(['limit' => 2])->nextPage();
        self::assertSame(['cnv_3', 'cnv_2'], array_map(fn ($c) => $c->id, $second->data));
        $last = $second->nextPage();
        self::assertNull($last->nextCursor);
        self::assertNull($last->nextPage());

        $this->script([ScriptedServer::ok([self::conversion('cnv_1')], 200, [], ['nextCursor' => null])]);
        $ids = array_map(fn ($c) => $c->id, iterator_to_array($cambio->conversions->list(['limit' => 2, 'cursor' => 'c3'])->autoPagingIterator(), false));
        self::assertSame(['cnv_1'], $ids);
        self::assertSame('/v1/conversions?limit=2&cursor=c3', $this->requests()[0]['uri']);
    }

    public function testWebhooksListPages(): void
    {
        $hook = ['id' => 'whk_1', 'url' => 'https://example.com/h', 'events' => ['*'], 'description' => null, 'enabled' => true, 'createdAt' => '2026-01-15T12:00:00.000Z', 'updatedAt' => '2026-01-15T12:00:00.000Z'];
        $this->script([
            ScriptedServer::ok([$hook], 200, [], ['nextCursor' => 'n']),
            ScriptedServer::ok([['id' => 'whk_2'] + $hook], 200, [], ['nextCursor' => null]),
        ]);
        $ids = [];
        foreach ($this->client()->webhooks->list(['limit' => 1])->autoPagingIterator() as $webhook) {
            $ids[] = $webhook->id;
        }
        self::assertSame(['whk_1', 'whk_2'], $ids);
        self::assertSame(['/v1/webhooks?limit=1', '/v1/webhooks?limit=1&cursor=n'], array_column($this->requests(), 'uri'));
    }

    /** @return iterable<string, array{0: list<string|null>, 1: list<string>, 2: string}> */
    public static function repeatedCursors(): iterable
    {
        yield 'the next page answers its own cursor' => [['c2', 'c2'], ['cnv_0', 'cnv_1'], 'c2'];
        yield 'a cursor comes back two pages later (c2, c3, c2)' => [['c2', 'c3', 'c2'], ['cnv_0', 'cnv_1', 'cnv_2'], 'c2'];
        yield 'a cursor comes back further on (c2, c3, c4, c3)' => [['c2', 'c3', 'c4', 'c3'], ['cnv_0', 'cnv_1', 'cnv_2', 'cnv_3'], 'c3'];
    }

    /**
     * A server that answers a cursor already followed would be walked forever, and stopping there
     * would end the list early without a word: it is an InvalidResponseException, after the items read.
     *
     * @dataProvider repeatedCursors
     * @param list<string|null> $cursors the nextCursor of each page, in order
     * @param list<string> $read
     */
    public function testACursorAlreadyFollowedIsAnInvalidResponseNotALoopNorASilentEnd(array $cursors, array $read, string $repeated): void
    {
        // Twice as many pages as the walk should ask for: a client that keeps going is caught by the count.
        $answers = [];
        foreach ([...$cursors, ...$cursors] as $i => $cursor) {
            $answers[] = ScriptedServer::ok([self::conversion('cnv_' . $i)], 200, [], ['nextCursor' => $cursor]);
        }
        $this->script($answers);
        $ids = [];
        $e = self::thrown(InvalidResponseException::class, function () use (&$ids): void {
            foreach ($this->client()->conversions->list(['limit' => 1])->autoPagingIterator() as $conversion) {
                $ids[] = $conversion->id;
            }
        }, 'the walk ended without saying the list repeats');
        self::assertSame('INVALID_RESPONSE', $e->getCambioCode());
        self::assertStringContainsString($repeated, $e->getMessage());
        self::assertSame('req_ok', $e->getRequestId());
        self::assertSame($read, $ids);
        self::assertCount(count($cursors), $this->requests(), 'no request for a cursor already followed');
    }

    /** A walk that starts at a cursor has followed it: a page answering that same cursor repeats the list. */
    public function testAStartingCursorAnsweredAgainIsAnInvalidResponseBeforeAnyItemIsReadTwice(): void
    {
        $this->script([
            ScriptedServer::ok([self::conversion('cnv_3')], 200, [], ['nextCursor' => 'c3']),
            ScriptedServer::ok([self::conversion('cnv_3')], 200, [], ['nextCursor' => 'c3']),
        ]);
        $ids = [];
        $e = self::thrown(InvalidResponseException::class, function () use (&$ids): void {
            foreach ($this->client()->conversions->list(['limit' => 1, 'cursor' => 'c3'])->autoPagingIterator() as $conversion) {
                $ids[] = $conversion->id;
            }
        }, 'the walk read page c3 twice without saying the list repeats');
        self::assertSame('INVALID_RESPONSE', $e->getCambioCode());
        self::assertStringContainsString('c3', $e->getMessage());
        self::assertSame(['cnv_3'], $ids, 'page c3\'s items once');
        self::assertSame(['/v1/conversions?limit=1&cursor=c3'], array_column($this->requests(), 'uri'));
    }

    public function testAnEmptyListAndUnknownListParams(): void
    {
        $this->script([ScriptedServer::ok([], 200, [], ['nextCursor' => null])]);
        $page = $this->client()->conversions->list();
        self::assertSame([], $page->data);
        self::assertSame([], iterator_to_array($page->autoPagingIterator()));
        self::assertSame('/v1/conversions', $this->requests()[0]['uri']);
        $this->expectException(InvalidArgumentException::class);
        $this->client()->conversions->list(['pageSize' => 2]);
    }
}
