"""Lists: a call returns one page (data + next_cursor); auto_paging_iter() walks every item of every
page, fetching each page only when the previous one is used up."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

import cambio
from conftest import Reply, conversion, ok

ITEMS = [conversion(n) for n in range(5, 0, -1)]  # newest first


def paged(seen, n):
    query = parse_qs(urlsplit(seen.path).query)
    limit = int(query.get("limit", ["20"])[0])
    start = int(query["cursor"][0][len("after-"):]) if "cursor" in query else 0
    end = start + limit
    return ok(ITEMS[start:end], pagination={"nextCursor": f"after-{end}" if end < len(ITEMS) else None})


def test_one_call_is_one_page_with_its_next_cursor(scripted):
    server = scripted(paged)
    page = server.client().conversions.list(limit=2)
    assert isinstance(page, cambio.Page)
    assert [c.id for c in page.data] == [ITEMS[0]["id"], ITEMS[1]["id"]]
    assert page.next_cursor == "after-2" and page.has_more
    assert page.request_id == "req-1"
    assert [c.id for c in page] == [c.id for c in page.data] and len(page) == 2  # iterating a page is this page only
    assert server.seen[0].path == "/v1/conversions?limit=2"


def test_the_cursor_is_passed_and_the_last_page_has_none(scripted):
    server = scripted(paged)
    page = server.client().conversions.list(limit=2, cursor="after-4")
    assert [c.id for c in page.data] == [ITEMS[4]["id"]]
    assert page.next_cursor is None and not page.has_more and page.next_page() is None
    assert server.seen[0].path == "/v1/conversions?limit=2&cursor=after-4"


def test_auto_paging_iter_walks_every_item_of_every_page_lazily(scripted):
    server = scripted(paged)
    walker = server.client().conversions.list(limit=2).auto_paging_iter()
    assert len(server.seen) == 1
    first_two = [next(walker).id, next(walker).id]
    assert len(server.seen) == 1  # the second page is fetched only when needed
    rest = [c.id for c in walker]
    assert first_two + rest == [c["id"] for c in ITEMS]
    assert [s.path for s in server.seen] == ["/v1/conversions?limit=2", "/v1/conversions?limit=2&cursor=after-2", "/v1/conversions?limit=2&cursor=after-4"]


def test_webhooks_list_pages_the_same_way(scripted):
    hooks = [{"id": f"whk_{n}", "url": "https://example.com", "events": ["*"], "description": None, "enabled": True, "createdAt": "x", "updatedAt": "x"} for n in range(3)]

    def answer(seen, n):
        return ok(hooks[:2], pagination={"nextCursor": "c2"}) if "cursor" not in seen.path else ok(hooks[2:], pagination={"nextCursor": None})

    server = scripted(answer)
    assert [w.id for w in server.client().webhooks.list(limit=2).auto_paging_iter()] == ["whk_0", "whk_1", "whk_2"]


@pytest.mark.parametrize("limit", [0, 101, "2", 2.0, True])
def test_the_page_size_is_checked(limit):
    client = cambio.Cambio(api_key="k", api_secret="s", base_url="http://127.0.0.1:1")
    with pytest.raises(ValueError):
        client.conversions.list(limit=limit)


def cycling(next_cursor):
    """Answers one item per page, the next cursor being ``next_cursor[cursor]`` ("" for the first page);
    a walk still paging after 10 pages is a loop, answered 400 so the test fails instead of hanging."""

    def answer(seen, n):
        if n > 10:
            return Reply(400, {"message": "still paging after 10 pages: a loop"})
        cursor = parse_qs(urlsplit(seen.path).query).get("cursor", [""])[0]
        return ok([conversion(n)], pagination={"nextCursor": next_cursor[cursor]})

    return answer


def cursors(server):
    return [parse_qs(urlsplit(s.path).query).get("cursor", [None])[0] for s in server.seen]


def test_a_cursor_the_walk_already_followed_stops_it_instead_of_looping(scripted):
    server = scripted(cycling({"": "A", "A": "B", "B": "A"}))  # A → B → A
    walked = []
    with pytest.raises(cambio.InvalidResponseError) as caught:
        for item in server.client().conversions.list(limit=1).auto_paging_iter():
            walked.append(item.id)
    error = caught.value
    assert (error.code, error.request_id) == ("INVALID_RESPONSE", "req-3")
    assert "nextCursor 'A' again" in str(error)
    assert cursors(server) == [None, "A", "B"]
    assert len(walked) == 3


def test_the_very_next_page_repeating_its_cursor_or_naming_the_starting_cursor_stops_the_walk(scripted):
    repeated = scripted(cycling({"": "A", "A": "A"}))
    with pytest.raises(cambio.InvalidResponseError):
        list(repeated.client().conversions.list(limit=1).auto_paging_iter())
    assert cursors(repeated) == [None, "A"]

    from_start = scripted(cycling({"S": "T", "T": "S"}))
    with pytest.raises(cambio.InvalidResponseError):
        list(from_start.client().conversions.list(limit=1, cursor="S").auto_paging_iter())
    assert cursors(from_start) == ["S", "T"]
