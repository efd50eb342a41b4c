# frozen_string_literal: true

require "ipaddr"
require "json"
require "net/http"
require "securerandom"
require "time"
require "uri"

module Cambio
  # The Cambio API: one client per (api_key, api_secret, base_url), with the groups +company+,
  # +deposits+, +withdrawals+, +conversions+ and +webhooks+.
  #
  #   cambio = Cambio::Client.new(api_key: ENV.fetch("CAMBIO_API_KEY"), api_secret: ENV.fetch("CAMBIO_API_SECRET"),
  #                               base_url: ENV.fetch("CAMBIO_API_URL"))
  #   deposit = cambio.deposits.create(method: "usdt", network: "tron", reference: "order-1", amount: "25")
  #
  # Every POST carries an Idempotency-Key (a random UUID unless you pass +idempotency_key:+), the
  # same on each retry of that call, so a retried withdrawal is replayed by the API, never made
  # twice. Connection failures (but a TLS certificate that does not verify), timeouts, 409
  # IDEMPOTENCY_KEY_IN_USE, 429 and 5xx are retried
  # (+max_retries+, default 2) after 0.5 s x 2^n (capped at 5 s, jittered), or after the answer's
  # Retry-After when it is at most 60 s.
  #
  # A client holds no mutable state after construction and opens one connection per request, so
  # one instance may be shared by every thread of a process (Puma, Sidekiq).
  class Client
    # Where the base URL comes from, for the errors that ask for one. There is no default host:
    # each stage is reached at its own URL (its API Gateway URL, or a custom domain its operator gave it).
    WHERE_THE_URL_IS =
      "the `ApiUrl` output of your Cambio stack (printed by `cdk deploy`, e.g. " \
      "https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1), or for the local runtime " \
      "the API URL `npm start` prints (http://127.0.0.1:3000/v1)"

    USER_AGENT = "cambio-ruby/#{VERSION} ruby/#{RUBY_VERSION}"

    # Errors raised by Net::HTTP and the socket layer when no answer came back.
    TIMEOUT_ERRORS = [Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout, Timeout::Error, Errno::ETIMEDOUT].freeze
    CONNECTION_ERRORS = [
      SocketError, IOError, EOFError, SystemCallError, OpenSSL::SSL::SSLError, Net::HTTPBadResponse, Net::ProtocolError,
    ].freeze

    # The API's base URL, normalised: scheme, host, port and path prefix, without the trailing /v1.
    attr_reader :base_url
    attr_reader :max_retries, :timeout, :initial_delay, :max_delay, :max_retry_after
    attr_reader :company, :deposits, :withdrawals, :conversions, :webhooks

    # +api_key+, +api_secret+:: the company's API key and secret (dashboard: Integrations -> API
    #                           keys; locally `npm run company:create`).
    # +base_url+:: your stack's ApiUrl output (https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1),
    #              or the URL `npm start` prints; with or without the trailing /v1. Plain http only
    #              for loopback (127.0.0.0/8, ::1, localhost).
    # +max_retries+:: retries after the first try (default 2).
    # +timeout+:: seconds per try, for all of it: connecting, sending and reading the whole answer
    #             (default 30); an answer still arriving then is a TIMEOUT.
    # +initial_delay+, +max_delay+:: the backoff before retry n: a random delay between half and
    #                                all of min(max_delay, initial_delay x 2^n) seconds (0.5, 5).
    # +max_retry_after+:: the longest Retry-After honoured, in seconds (60); a longer one falls
    #                     back to the backoff.
    def initialize(api_key: nil, api_secret: nil, base_url: nil, max_retries: 2, timeout: 30,
                   initial_delay: 0.5, max_delay: 5.0, max_retry_after: 60)
      check_credential(:api_key, api_key)
      check_credential(:api_secret, api_secret)
      @base_url = Client.normalize_base_url(base_url)
      raise ArgumentError, "max_retries must be an Integer >= 0, got #{max_retries.inspect}" unless max_retries.is_a?(Integer) && max_retries >= 0
      raise ArgumentError, "timeout must be a number of seconds > 0, got #{timeout.inspect}" unless timeout.is_a?(Numeric) && timeout.positive?
      [[:initial_delay, initial_delay], [:max_delay, max_delay], [:max_retry_after, max_retry_after]].each do |name, value|
        raise ArgumentError, "#{name} must be a number of seconds >= 0, got #{value.inspect}" unless value.is_a?(Numeric) && value >= 0
      end

      @max_retries = max_retries
      @timeout = timeout
      @initial_delay = initial_delay
      @max_delay = max_delay
      @max_retry_after = max_retry_after
      # The credentials live in this closure only, never in an instance variable, so no inspect,
      # pp, YAML or log of the client can show the secret.
      key = api_key.dup.freeze
      secret = api_secret.dup.freeze
      @authenticate = lambda { |headers| headers.merge("X-Api-Key" => key, "X-Api-Secret" => secret) }
      @authenticate.freeze

      @company = Resources::Company.new(self)
      @deposits = Resources::Deposits.new(self)
      @withdrawals = Resources::Withdrawals.new(self)
      @conversions = Resources::Conversions.new(self)
      @webhooks = Resources::Webhooks.new(self)
      freeze
    end

    def inspect
      "#<Cambio::Client base_url=#{@base_url.inspect} max_retries=#{@max_retries} timeout=#{@timeout}>"
    end
    alias to_s inspect

    def pretty_print(printer)
      printer.text(inspect)
    end

    # The base URL, checked before any request carries the key and secret: given explicitly (no
    # default host), http(s), and https unless it is loopback, so the credentials never cross the
    # network in clear text. Returns it without a trailing slash or /v1 (the routes carry /v1).
    def self.normalize_base_url(base_url)
      if base_url.nil? || base_url.to_s.strip.empty?
        raise ArgumentError, "Cambio::Client.new(api_key:, api_secret:, base_url:) needs base_url: #{WHERE_THE_URL_IS}"
      end

      text = base_url.to_s.strip
      uri = begin
        URI.parse(text)
      rescue URI::InvalidURIError
        nil
      end
      unless uri.is_a?(URI::HTTP) && uri.host && !uri.host.empty?
        raise ArgumentError, "base_url must be an http(s) URL, got #{text.inspect}: use #{WHERE_THE_URL_IS}"
      end
      if uri.userinfo || uri.query || uri.fragment
        raise ArgumentError, "base_url must carry no credentials, query or fragment, got #{redact(uri).inspect}"
      end

      scheme = uri.scheme.downcase
      host = uri.host.downcase
      if scheme == "http" && !loopback?(uri.hostname.downcase)
        raise ArgumentError, "base_url #{scheme}://#{host} is plain http, which would send your API key and secret in clear text: " \
                             "use https (#{WHERE_THE_URL_IS}); http is accepted only for loopback (127.0.0.0/8, ::1, localhost)"
      end

      port = uri.port == uri.default_port ? "" : ":#{uri.port}"
      path = uri.path.to_s.sub(%r{/+\z}, "").sub(%r{/v1\z}, "")
      "#{scheme}://#{host}#{port}#{path}"
    end

    # 127.0.0.0/8, ::1 and localhost, written as such (nothing resolved).
    def self.loopback?(hostname)
      return true if hostname == "localhost"
      return false unless hostname.match?(/\A(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+)\z/i)

      IPAddr.new(hostname).loopback?
    rescue IPAddr::InvalidAddressError
      false
    end

    # The URL with its user and password replaced by ***.
    def self.redact(uri)
      return uri.to_s unless uri.userinfo

      uri.to_s.sub("//#{uri.userinfo}@", "//***@")
    end
    private_class_method :redact

    # @api private: one API call, retried as the class comment says. Returns [data, pagination,
    # Cambio::Response]. +gone_on_retry+: a Proc giving the data a 404 to a retry of this call
    # stands for (a DELETE whose earlier try did it, its answer lost).
    def request(method, path, body: nil, query: nil, idempotency_key: nil, gone_on_retry: nil)
      uri = URI("#{@base_url}#{path}")
      uri.query = URI.encode_www_form(query) if query && !query.empty?
      headers = { "Accept" => "application/json", "User-Agent" => USER_AGENT }
      headers["Content-Type"] = "application/json" unless body.nil?
      # One key per call, kept across its retries: the API replays the first answer instead of
      # doing the work again.
      headers["Idempotency-Key"] = idempotency_key.nil? ? SecureRandom.uuid : checked_key(idempotency_key) if method == :post
      payload = body.nil? ? nil : ExactJSON.generate(body)

      attempt = 0
      # An earlier try may have done the work: its answer was lost (the connection dropped or timed
      # out once made) or was a 5xx. A 429 did nothing, and neither did a try that never connected
      # (refused, DNS, connect timeout), so a 404 after only those is the call's own answer.
      may_have_been_done = false
      loop do
        connected = false
        begin
          response, text = perform(method, uri, headers, payload, on_connect: -> { connected = true })
        rescue *TIMEOUT_ERRORS, *CONNECTION_ERRORS => e
          timed_out = TIMEOUT_ERRORS.any? { |klass| e.is_a?(klass) }
          # A certificate that does not verify will not verify on the next try either.
          untrusted = e.is_a?(OpenSSL::SSL::SSLError) && e.message.match?(/certificate|hostname/i)
          what = timed_out ? "No answer within #{@timeout} s" : "Could not reach Cambio"
          what = "Cambio's TLS certificate did not verify (is base_url right? a proxy in between?)" if untrusted
          error = ConnectionError.new("#{what} (#{method.upcase} #{uri}): #{e.class}: #{e.message}",
                                      code: timed_out ? "TIMEOUT" : "CONNECTION_FAILED")
          raise error if attempt >= @max_retries || untrusted

          may_have_been_done ||= connected
          pause(backoff(attempt))
          attempt += 1
          next
        end

        answer = Response.new(status: response.code.to_i, request_id: response["x-request-id"],
                              headers: response.each_header.to_h.freeze)
        outcome = interpret(answer, text)
        return outcome unless outcome.is_a?(CambioError)
        return [gone_on_retry.call, nil, answer] if may_have_been_done && gone_on_retry && outcome.is_a?(NotFoundError)
        raise outcome if attempt >= @max_retries || !retryable?(outcome)

        may_have_been_done ||= outcome.is_a?(ApiServerError)
        pause(retry_after(response["retry-after"]) || backoff(attempt))
        attempt += 1
      end
    end

    private

    def check_credential(name, value)
      if value.nil? || !value.is_a?(String) || value.strip.empty?
        got = value.nil? || value.is_a?(String) ? "" : " (got a #{value.class})"
        raise ArgumentError, "Cambio::Client.new(api_key:, api_secret:, base_url:) needs #{name}, a non-empty String#{got}: " \
                             "the company's API key and secret (dashboard: Integrations -> API keys; locally `npm run company:create`)"
      end
      return unless value.match?(/[\x00-\x1f\x7f]/)

      raise ArgumentError, "#{name} contains a line break or another control character: copy it without them"
    end

    # The contract's Idempotency-Key: 1-255 printable ASCII characters.
    def checked_key(key)
      text = key.to_s
      return text if text.match?(/\A[\x20-\x7e]{1,255}\z/)

      raise ArgumentError, "idempotency_key must be 1 to 255 printable ASCII characters, got #{text.length} characters"
    end

    # One try: [the Net::HTTPResponse, its body]. +timeout+ bounds the whole try, not each step: a
    # server dribbling its answer a few bytes at a time is cut off when the try's time is up. Each
    # step (connect, write, every read of the answer) may wait only what is left of it; no Timeout
    # thread is involved. +on_connect+ is called once the connection (TLS included) is made: from
    # then on the request may reach the API, and a failure may follow work it did.
    def perform(method, uri, headers, payload, on_connect: nil)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + @timeout
      http = Net::HTTP.new(uri.hostname, uri.port)
      http.use_ssl = uri.scheme == "https"
      http.open_timeout = @timeout
      http.read_timeout = @timeout
      http.write_timeout = @timeout
      http.ssl_timeout = @timeout if http.use_ssl?
      # Retries are this client's, with the same Idempotency-Key; Net::HTTP's own would not back off.
      http.max_retries = 0
      klass = { get: Net::HTTP::Get, post: Net::HTTP::Post, put: Net::HTTP::Put, delete: Net::HTTP::Delete }.fetch(method)
      request = klass.new(uri.request_uri, @authenticate.call(headers))
      request.body = payload unless payload.nil?
      body = "".b
      response = http.start do |connection|
        on_connect&.call
        connection.write_timeout = time_left(deadline)
        connection.read_timeout = time_left(deadline)
        connection.request(request) do |answer|
          connection.read_timeout = time_left(deadline)
          answer.read_body do |chunk|
            body << chunk
            connection.read_timeout = time_left(deadline)
          end
        end
      end
      [response, body]
    end

    # Seconds left before +deadline+ (monotonic); Net::ReadTimeout (a TIMEOUT) when none are.
    def time_left(deadline)
      left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      raise Net::ReadTimeout unless left.positive?

      left
    end

    # The data of a success envelope, or the CambioError an answer stands for.
    def interpret(answer, text)
      status = answer.status
      json = parse_json(text)
      if (200..299).cover?(status) && json.is_a?(Hash) && json["success"] == true && json.key?("data")
        return [json["data"], json["pagination"], answer]
      end
      if status >= 400 && json.is_a?(Hash) && json["success"] == false && json["error"].is_a?(Hash)
        return Cambio.error_from_response(status, json, answer.request_id)
      end

      request_id = answer.request_id
      suffix = request_id ? ", request #{request_id}" : ""
      if status == 429
        # A CDN, WAF or proxy in front of the API throttling with its own body: still throttled, and retried.
        return RateLimitError.new("HTTP 429 without the API's JSON envelope (RATE_LIMITED#{suffix})",
                                  code: "RATE_LIMITED", status: status, request_id: request_id)
      end
      if status >= 500
        return ApiServerError.new("HTTP #{status} without the API's JSON envelope (INTERNAL_ERROR#{suffix})",
                                  code: "INTERNAL_ERROR", status: status, request_id: request_id)
      end

      shape = json.nil? ? "not JSON" : "JSON without the API's envelope"
      InvalidResponseError.new("HTTP #{status} answered #{shape} (INVALID_RESPONSE#{suffix}): is base_url the Cambio API? " \
                               "Use #{WHERE_THE_URL_IS}", code: "INVALID_RESPONSE", status: status, request_id: request_id)
    end

    def parse_json(text)
      return nil if text.nil? || text.empty?

      ExactJSON.parse(text.dup.force_encoding(Encoding::UTF_8))
    rescue JSON::ParserError, EncodingError
      nil
    end

    # Network errors, 429, 5xx, and 409 IDEMPOTENCY_KEY_IN_USE (the first try is still running).
    def retryable?(error)
      case error
      when RateLimitError, ApiServerError, ConnectionError then true
      when ConflictError then error.code == "IDEMPOTENCY_KEY_IN_USE"
      else false
      end
    end

    # Before retry n (0-based): between half and all of min(max_delay, initial_delay x 2^n).
    def backoff(attempt)
      ceiling = [@max_delay, @initial_delay * (2**attempt)].min
      (ceiling / 2.0) + (rand * (ceiling / 2.0))
    end

    # A Retry-After (seconds or an HTTP date) of at most max_retry_after seconds, else nil.
    def retry_after(value)
      return nil if value.nil? || value.strip.empty?

      seconds =
        if value.strip.match?(/\A\d+\z/)
          value.strip.to_i
        else
          begin
            Time.httpdate(value.strip) - Time.now
          rescue ArgumentError
            return nil
          end
        end
      seconds = 0 if seconds.negative? && seconds > -1
      seconds >= 0 && seconds <= @max_retry_after ? seconds : nil
    end

    def pause(seconds)
      sleep(seconds) if seconds.positive?
    end
  end
end
