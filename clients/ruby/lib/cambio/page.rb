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

    # @api private: made by the client.
    def initialize(data:, next_cursor:, last_response: nil, &fetch)
      @data = data.freeze
      @next_cursor = next_cursor
      @last_response = last_response
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
    # are fetched only as far as it is read).
    def auto_paging_each(&block)
      return enum_for(:auto_paging_each) unless block

      page = self
      loop do
        page.data.each(&block)
        break unless page.more?

        following = page.next_page
        break if following.nil?

        if following.next_cursor && following.next_cursor == page.next_cursor
          raise InvalidResponseError.new("The API answered the same nextCursor twice (#{page.next_cursor}): stopping rather than looping",
                                         code: "INVALID_RESPONSE", request_id: following.request_id)
        end
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
