# frozen_string_literal: true

require_relative "test_helper"

# Lists: one call returns a page (data + next_cursor); auto_paging_each walks every record of every
# page, fetching each page only when the previous one is used up.
class PaginationTest < Minitest::Test
  include CambioTest::Scripted

  PAGES = {
    nil => [%w[cnv_5 cnv_4], "c2"],
    "c2" => [%w[cnv_3 cnv_2], "c3"],
    "c3" => [%w[cnv_1], nil],
  }.freeze

  def serve_pages
    serve do |request, _n|
      cursor = request.path[/cursor=([^&]+)/, 1]
      ids, following = PAGES.fetch(cursor)
      ok(ids.map { |id| { "id" => id, "status" => "completed" } }, pagination: { "nextCursor" => following })
    end
  end

  def test_one_call_returns_one_page
    serve_pages

    page = client.conversions.list(limit: 2)

    assert_instance_of Cambio::Page, page
    assert_equal %w[cnv_5 cnv_4], page.data.map(&:id)
    assert_instance_of Cambio::Conversion, page.data.first
    assert_equal "c2", page.next_cursor
    assert page.more?
    assert_equal "req-1", page.request_id
    assert_equal %w[cnv_5 cnv_4], page.map(&:id), "Enumerable over this page"
    assert_equal 1, @server.requests.size
  end

  def test_auto_paging_each_walks_every_page_with_the_cursors
    serve_pages

    walked = []
    client.conversions.list(limit: 2).auto_paging_each { |conversion| walked << conversion.id }

    assert_equal %w[cnv_5 cnv_4 cnv_3 cnv_2 cnv_1], walked
    assert_equal ["/v1/conversions?limit=2", "/v1/conversions?limit=2&cursor=c2", "/v1/conversions?limit=2&cursor=c3"],
                 @server.requests.map(&:path)
  end

  def test_without_a_block_it_is_an_enumerator_that_fetches_lazily
    serve_pages

    enumerator = client.conversions.list(limit: 2).auto_paging_each

    assert_kind_of Enumerator, enumerator
    assert_equal 1, @server.requests.size
    assert_equal %w[cnv_5 cnv_4 cnv_3], enumerator.lazy.map(&:id).first(3)
    assert_equal 2, @server.requests.size, "the third page was not needed"
    assert_equal %w[cnv_5 cnv_4 cnv_3 cnv_2 cnv_1], enumerator.map(&:id)
  end

  def test_next_page_and_the_last_page
    serve_pages

    last = client.conversions.list(limit: 2, cursor: "c3")

    assert_nil last.next_cursor
    refute last.more?
    assert_nil last.next_page
    assert_equal %w[cnv_1], last.auto_paging_each.map(&:id)
    assert_equal "c3", client.conversions.list(limit: 2).next_page.next_cursor
  end

  def test_webhooks_list_pages_the_same_way
    serve { |_req, n| ok([{ "id" => "whk_#{n}", "enabled" => true }], pagination: { "nextCursor" => n < 3 ? "c#{n}" : nil }) }

    webhooks = client.webhooks.list(limit: 1).auto_paging_each.to_a

    assert_equal %w[whk_1 whk_2 whk_3], webhooks.map(&:id)
    assert webhooks.all?(&:enabled?)
  end

  # Answers one record per page, the next cursor being +following[cursor]+ ("" for the first page);
  # a walk still paging after 10 pages is a loop, answered 400 so the test fails instead of hanging.
  def serve_cycle(following)
    serve do |request, n|
      next ScriptedServer.json(400, { "message" => "still paging after 10 pages: a loop" }) if n > 10

      cursor = request.path[/cursor=([^&]+)/, 1].to_s
      ok([{ "id" => "cnv_#{n}" }], pagination: { "nextCursor" => following.fetch(cursor) })
    end
  end

  def cursors
    @server.requests.map { |request| request.path[/cursor=([^&]+)/, 1] }
  end

  def test_a_cursor_answered_twice_stops_instead_of_looping
    serve { |_req, _n| ok([{ "id" => "cnv_1" }], pagination: { "nextCursor" => "same" }) }

    error = assert_raises(Cambio::InvalidResponseError) { client.conversions.list.auto_paging_each { nil } }

    assert_match(/nextCursor "same" again/, error.message)
  end

  def test_a_cursor_the_walk_already_followed_stops_it_instead_of_looping
    serve_cycle("" => "A", "A" => "B", "B" => "A") # A -> B -> A

    walked = []
    error = assert_raises(Cambio::InvalidResponseError) { client.conversions.list(limit: 1).auto_paging_each { |c| walked << c.id } }

    assert_equal ["INVALID_RESPONSE", "req-3"], [error.code, error.request_id]
    assert_match(/nextCursor "A" again/, error.message)
    assert_equal [nil, "A", "B"], cursors
    assert_equal %w[cnv_1 cnv_2 cnv_3], walked
  end

  def test_a_page_naming_the_cursor_the_walk_started_from_stops_it
    serve_cycle("S" => "T", "T" => "S")

    assert_raises(Cambio::InvalidResponseError) { client.conversions.list(limit: 1, cursor: "S").auto_paging_each { nil } }

    assert_equal %w[S T], cursors
  end
end
