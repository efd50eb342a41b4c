# frozen_string_literal: true

require "json"
require "openssl"

module Cambio
  # Standard Webhooks verification (https://www.standardwebhooks.com/): the signature is
  # base64(HMAC-SHA256(key, "#{webhook-id}.#{webhook-timestamp}.#{body}")) over the exact bytes
  # Cambio sent, the key being the base64-decoded part of the secret after "whsec_".
  #
  # +client.webhooks.verify+ calls this; a receiver that holds no API key can call it directly:
  #
  #   event = Cambio::WebhookSignature.verify(request.raw_post, request.headers, ENV["CAMBIO_WEBHOOK_SECRET"])
  module WebhookSignature
    # How far webhook-timestamp may be from now, in seconds (replay protection).
    DEFAULT_TOLERANCE = 300

    RAW_BODY_HINT =
      "Pass the raw request body exactly as received (Rails: request.raw_post; Sinatra or Rack: " \
      "request.body.read), not params or a parsed Hash serialised again with to_json or JSON.generate."

    module_function

    # Returns the event (a Cambio::WebhookEvent: +id+, +type+, +created_at+, +data+, the record)
    # when the delivery is authentic and fresh; raises Cambio::WebhookVerificationError otherwise.
    #
    # +raw_body+:: the body's bytes as received: a String (any encoding; its bytes are used) or
    #              an IO such as request.body (read, then rewound).
    # +headers+:: a Hash (names in any case, String or Symbol), a Rack env (HTTP_WEBHOOK_ID),
    #             Rails' request.headers, or anything with each_pair/each yielding name, value.
    # +secret+:: the webhook's "whsec_..." secret, as POST /v1/webhooks answered it.
    # +tolerance+:: seconds; default 300.
    # +now+:: the current time (a Time or unix seconds), for tests.
    def verify(raw_body, headers, secret, tolerance: DEFAULT_TOLERANCE, now: nil)
      body = body_bytes(raw_body)
      id = header(headers, "webhook-id")
      timestamp = header(headers, "webhook-timestamp")
      signatures = header(headers, "webhook-signature", join: true)
      if blank?(id) || blank?(timestamp) || blank?(signatures)
        absent = { "webhook-id" => id, "webhook-timestamp" => timestamp, "webhook-signature" => signatures }.select { |_, v| blank?(v) }.keys
        raise WebhookVerificationError, "Missing #{absent.join(", ")} header: is this a Cambio delivery? Pass the request's headers " \
                                        "(Rails: request.headers; Sinatra or Rack: request.env)"
      end
      raise WebhookVerificationError, "webhook-timestamp is not unix seconds: #{timestamp[0, 40].inspect}" unless timestamp.match?(/\A\d{1,15}\z/)

      seconds = Integer(timestamp, 10)
      current = (now.nil? ? Time.now : now).to_i
      unless (current - seconds).abs <= tolerance
        raise WebhookVerificationError, "webhook-timestamp is #{current - seconds} s from now, beyond the #{tolerance} s tolerance: " \
                                        "a replayed or delayed delivery, or a wrong clock"
      end

      key = signing_key(secret)
      candidates = signatures.split(" ").filter_map do |entry|
        next unless entry.start_with?("v1,")

        decode64(entry.delete_prefix("v1,"))
      end
      expected = sign(key, id, timestamp, body)
      unless candidates.any? { |candidate| matches?(candidate, expected) }
        raise WebhookVerificationError, "No signature matches. #{diagnose(body, key, id, timestamp, candidates)}"
      end

      event = parse_json(body)
      raise WebhookVerificationError, "The signature matches but the body is not a JSON object" unless event.is_a?(Hash)

      WebhookEvent.construct(event)
    end

    # The body's bytes, from a String or an IO.
    def body_bytes(raw_body)
      case raw_body
      when String then raw_body.b
      when Hash, Array
        raise WebhookVerificationError, "raw_body is a #{raw_body.class}, not the request body: a parsed body cannot be verified. #{RAW_BODY_HINT}"
      when nil
        raise WebhookVerificationError, "raw_body is nil, not the request body. #{RAW_BODY_HINT}"
      else
        if raw_body.respond_to?(:read)
          bytes = raw_body.read.to_s.b
          raw_body.rewind if raw_body.respond_to?(:rewind)
          bytes
        else
          raise WebhookVerificationError, "raw_body is a #{raw_body.class}, not the request body. #{RAW_BODY_HINT}"
        end
      end
    end

    # A header by name, matched case-insensitively; Rack's HTTP_WEBHOOK_ID spelling too.
    def header(headers, name, join: false)
      found = []
      each_pair(headers) do |key, value|
        next unless normalise(key) == name

        found.concat(Array(value).map(&:to_s))
      end
      return nil if found.empty?

      join ? found.join(" ") : found.first
    end

    def each_pair(headers, &block)
      if headers.respond_to?(:each_pair)
        headers.each_pair(&block)
      elsif headers.respond_to?(:each)
        headers.each { |key, value| block.call(key, value) }
      else
        raise WebhookVerificationError, "headers is a #{headers.class}, not the request's headers (a Hash, Rails' request.headers or a Rack env)"
      end
    end

    def normalise(key)
      key.to_s.downcase.delete_prefix("http_").tr("_", "-")
    end

    def blank?(value)
      value.nil? || value.strip.empty?
    end

    def signing_key(secret)
      unless secret.is_a?(String) && secret.start_with?("whsec_")
        got = secret.nil? ? " (got nil: is the variable holding it set?)" : ""
        raise WebhookVerificationError, "The secret must be the webhook's signing secret, \"whsec_...\", as POST /v1/webhooks answered it#{got}"
      end
      key = decode64(secret.delete_prefix("whsec_"))
      raise WebhookVerificationError, "The secret is not \"whsec_\" followed by base64: copy it whole, as POST /v1/webhooks answered it" if key.nil? || key.empty?

      key
    end

    def decode64(text)
      text.unpack1("m0")
    rescue ArgumentError
      nil
    end

    def sign(key, id, timestamp, body)
      OpenSSL::HMAC.digest("SHA256", key, "#{id}.#{timestamp}.".b + body)
    end

    def matches?(candidate, expected)
      !candidate.nil? && candidate.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(candidate, expected)
    end

    def parse_json(bytes)
      JSON.parse(bytes.dup.force_encoding(Encoding::UTF_8))
    rescue JSON::ParserError, EncodingError
      nil
    end

    # Names the usual mistake when the body looks like it was parsed and serialised again.
    def diagnose(body, key, id, timestamp, candidates)
      parsed = parse_json(body)
      if parsed.nil?
        if body.start_with?("{") && body.include?("=>")
          return "The body looks like a Ruby Hash's inspect output (\"=>\"), not JSON: the parsed params were turned into a String. #{RAW_BODY_HINT}"
        end

        return "Check that the secret is this webhook's and that the body is unchanged. #{RAW_BODY_HINT}"
      end
      # Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
      compact = JSON.generate(parsed).b
      if compact != body && candidates.any? { |candidate| matches?(candidate, sign(key, id, timestamp, compact)) }
        return "The body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. #{RAW_BODY_HINT}"
      end
      if compact != body
        return "The body looks like re-serialised JSON (re-indented or re-ordered), not the bytes Cambio signed. #{RAW_BODY_HINT}"
      end

      "The body is JSON: if your framework parsed it and you serialised it again, its bytes may differ from what Cambio " \
        "signed (key order, escapes). #{RAW_BODY_HINT} Otherwise check that the secret is this webhook's."
    end
  end
end
