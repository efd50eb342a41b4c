# frozen_string_literal: true

module Cambio
  # What one HTTP answer said beside its data: +status+, +request_id+ (X-Request-Id, to quote to
  # support), +idempotent_replayed?+ (the API replayed the first answer to this Idempotency-Key)
  # and +headers+ (lower-case names).
  Response = Struct.new(:status, :request_id, :headers, keyword_init: true) do
    def idempotent_replayed?
      headers["idempotent-replayed"] == "true"
    end
  end

  # One page of a list: +data+ (the records of this page, newest first), +next_cursor+ (nil on the
  # last page) and +request_id+. Enumerable over this page's records;
  # +auto_paging_each+ walks every record of every page, fetching the next page only when the
  # previous one is used up.
  #
  #   page = cambio.conversions.list(limit: 10)
  #   page.data.size; page.next_cursor
  #   cambio.conversions.list(limit: 100).auto_paging_each { |conversion| puts conversion.id }
  #   cambio.conversions.list.auto_paging_each.lazy.select { ... }.first(5)
  class Page
    include Enumerable

    attr_reader :data, :next_cursor, :last_response

    # @api private: made by the client (+cursor+: the cursor this page was asked for, nil for the first).
    def initialize(data:, next_cursor:, last_response: nil, cursor: nil, &fetch)
      @data = data.freeze
      @next_cursor = next_cursor
      @last_response = last_response
      @cursor = cursor
      @fetch = fetch
    end

    def request_id
      @last_response&.request_id
    end

    # Iterates this page's records only; see auto_paging_each for every page.
    def each(&block)
      return enum_for(:each) { @data.size } unless block

      @data.each(&block)
      self
    end

    def size
      @data.size
    end

    def empty?
      @data.empty?
    end

    # True when another page follows.
    def more?
      !@next_cursor.nil?
    end

    # The next page, fetched now; nil on the last page.
    def next_page
      return nil unless more? && @fetch

      @fetch.call(@next_cursor)
    end

    # Yields every record of this page and of every page after it, fetching each next page when
    # the previous one is used up. Without a block returns an Enumerator (lazy with +.lazy+: pages
    # are fetched only as far as it is read). A cursor the API answers again after this walk
    # followed it (A -> B -> A) would loop for ever: the walk raises Cambio::InvalidResponseError
    # (INVALID_RESPONSE) there instead.
    def auto_paging_each(&block)
      return enum_for(:auto_paging_each) unless block

      followed = @cursor.nil? ? [] : [@cursor]
      page = self
      loop do
        page.data.each(&block)
        break unless page.more?

        if followed.include?(page.next_cursor)
          raise InvalidResponseError.new("The API answered nextCursor #{page.next_cursor.inspect} again after this walk had followed it: " \
                                         "stopping rather than looping (INVALID_RESPONSE#{", request #{page.request_id}" if page.request_id})",
                                         code: "INVALID_RESPONSE", status: page.last_response&.status, request_id: page.request_id)
        end
        followed << page.next_cursor
        following = page.next_page
        break if following.nil?

        page = following
      end
      nil
    end

    def inspect
      "#<Cambio::Page data: #{@data.inspect}, next_cursor: #{@next_cursor.inspect}>"
    end
    alias to_s inspect
  end
end
