# frozen_string_literal: true

require "json"
require "openssl"

module Cambio
  # Standard Webhooks verification (https://www.standardwebhooks.com/), in two steps as the
  # reference libraries and Stripe's do it: first the signature and the timestamp, then the body.
  # The signature is base64(HMAC-SHA256(key, "#{webhook-id}.#{webhook-timestamp}.#{body}")) over
  # the exact bytes Cambio sent, the key being the secret's base64 (after an optional "whsec_",
  # padded or not). A body that verifies is never reported as a bad signature, whatever it holds.
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

    # Verifies the delivery (verify_signature), then returns its event: a Cambio::WebhookEvent
    # (+id+, +type+, +created_at+, +data+, the record). A verified body that is not a Cambio event
    # (not JSON, or without id, type and data) is returned too, with +type+ nil (+cambio_event?+
    # false, +id+ the webhook-id header), never refused as a bad signature.
    #
    # +raw_body+:: the body's bytes as received: a String (any encoding; its bytes are used) or
    #              an IO such as request.body (read, then rewound).
    # +headers+:: a Hash (names in any case, String or Symbol), a Rack env (HTTP_WEBHOOK_ID),
    #             Rails' request.headers, or anything with each_pair/each yielding name, value.
    # +secret+:: the webhook's "whsec_..." secret, as POST /v1/webhooks answered it, or its raw
    #            base64 key (padded or not).
    # +tolerance+:: seconds, either way; default 300.
    # +now+:: the current time (a Time or unix seconds), for tests.
    def verify(raw_body, headers, secret, tolerance: DEFAULT_TOLERANCE, now: nil)
      body, id = signed_delivery(raw_body, headers, secret, tolerance, now)
      event = parse_json(body)
      return WebhookEvent.construct(event) if cambio_event?(event)

      WebhookEvent.from_api({ "id" => id, "type" => nil, "createdAt" => nil, "data" => nil })
    end

    # The first step of verify alone: raises Cambio::WebhookVerificationError, saying what failed,
    # unless the delivery is signed with +secret+ and fresh; the body is not read. Returns true.
    def verify_signature(raw_body, headers, secret, tolerance: DEFAULT_TOLERANCE, now: nil)
      signed_delivery(raw_body, headers, secret, tolerance, now)
      true
    end

    # [body, webhook-id] of a delivery signed with +secret+ and fresh; raises otherwise.
    def signed_delivery(raw_body, headers, secret, tolerance, now)
      key = signing_key(secret)
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

      check_freshness(Integer(timestamp, 10), tolerance, now)
      candidates = signatures.split(" ").filter_map do |entry|
        next unless entry.start_with?("v1,")

        decode64(entry.delete_prefix("v1,"))
      end
      expected = sign(key, id, timestamp, body)
      unless candidates.any? { |candidate| matches?(candidate, expected) }
        raise WebhookVerificationError, "No matching signature: #{diagnose(body, key, id, timestamp, candidates)}"
      end

      [body, id]
    end

    def check_freshness(seconds, tolerance, now)
      age = (now.nil? ? Time.now : now).to_i - seconds
      beyond = "beyond the #{tolerance} s tolerance (a replayed or delayed delivery, or a wrong clock)"
      raise WebhookVerificationError, "webhook-timestamp is too old: #{age} s before now, #{beyond}" if age > tolerance
      raise WebhookVerificationError, "webhook-timestamp is in the future: #{-age} s after now, #{beyond}" if -age > tolerance
    end

    # An object with a String id and type and an object data: what Cambio sends.
    def cambio_event?(event)
      event.is_a?(Hash) && event["id"].is_a?(String) && event["type"].is_a?(String) && event["data"].is_a?(Hash)
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

    # The secret's base64 after an optional "whsec_", padding optional (as the reference libraries take it).
    def signing_key(secret)
      unless secret.is_a?(String)
        got = secret.nil? ? " (got nil: is the variable holding it set?)" : " (got a #{secret.class})"
        raise WebhookVerificationError, "The secret must be the webhook's signing secret, \"whsec_...\", as POST /v1/webhooks answered it#{got}"
      end
      # A secret read from an env file or pasted keeps a newline or spaces around it: trimmed first,
      # then the prefix comes off (as the other clients do).
      encoded = secret.strip.delete_prefix("whsec_").delete_suffix("=").delete_suffix("=")
      raise WebhookVerificationError, "The secret is empty: pass the webhook's signing secret, \"whsec_...\", as POST /v1/webhooks answered it" if encoded.empty?

      # Lenient "m": keys whose last character carries spare bits (as some encoders write them) decode as elsewhere.
      unless encoded.match?(%r{\A[A-Za-z0-9+/]+\z}) && encoded.length % 4 != 1
        raise WebhookVerificationError, "The secret is not base64 after \"whsec_\": copy it whole, as POST /v1/webhooks answered it"
      end

      encoded.unpack1("m")
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

    # The event, numbers exact (a split's percent a BigDecimal); +as_json_gem+ parses as a plain
    # JSON.parse does (Floats), the way an app that re-serialised the body would have.
    def parse_json(bytes, as_json_gem: false)
      text = bytes.dup.force_encoding(Encoding::UTF_8)
      as_json_gem ? JSON.parse(text) : ExactJSON.parse(text)
    rescue JSON::ParserError, EncodingError
      nil
    end

    # Why no signature matched, as far as it can be known: the mistakes that leave a mark are
    # named, anything else is not guessed at.
    def diagnose(body, key, id, timestamp, candidates)
      return "webhook-signature holds no v1 signature (\"v1,<base64>\"), the only scheme Cambio signs with." if candidates.empty?

      parsed = parse_json(body, as_json_gem: true)
      if parsed.nil? && body.start_with?("{") && body.include?("=>")
        return "the body looks like a Ruby Hash's inspect output (\"=>\"), not JSON: the parsed params were turned into a String. #{RAW_BODY_HINT}"
      end

      # Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
      compact = parsed.nil? ? body : JSON.generate(parsed).b
      if compact != body && candidates.any? { |candidate| matches?(candidate, sign(key, id, timestamp, compact)) }
        return "the body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. #{RAW_BODY_HINT}"
      end

      "the secret is not this webhook's, or the body or webhook-id is not what was signed. #{RAW_BODY_HINT}"
    end
  end
end
