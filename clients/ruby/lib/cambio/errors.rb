# frozen_string_literal: true

module Cambio
  # Every failure the client reports is a CambioError. The subclass tells the family (what to do
  # about it), +code+ the contract's reason (+INSUFFICIENT_BALANCE+, ... or a client-side one such
  # as +CONNECTION_FAILED+), +status+ the HTTP status (nil when no answer came back) and
  # +request_id+ the answer's X-Request-Id, to quote to support. Match on the class or on +code+,
  # never on +message+.
  class CambioError < StandardError
    # The contract's code (see Cambio::ERROR_CODES) or one of CLIENT_CODES.
    attr_reader :code
    # HTTP status; nil when no answer came back.
    attr_reader :status
    # The answer's X-Request-Id.
    attr_reader :request_id
    # +error.details+ from the answer: for VALIDATION_FAILED an Array of {"path", "message"};
    # for some codes a Hash (e.g. "existingId"); otherwise nil.
    attr_reader :details

    def initialize(message = nil, code: nil, status: nil, request_id: nil, details: nil)
      super(message)
      @code = code
      @status = status
      @request_id = request_id
      @details = details
    end
  end

  # Codes the client itself gives, beside the API's (Cambio::ERROR_CODES).
  CLIENT_CODES = %w[CONNECTION_FAILED TIMEOUT INVALID_RESPONSE WEBHOOK_VERIFICATION_FAILED].freeze

  # 400, 403, 413, 415: the request itself is wrong (see +details+), or production's firewall
  # refused it (403 FORBIDDEN); retrying it will not help.
  class InvalidRequestError < CambioError; end
  # 401: the key or secret is missing or wrong.
  class AuthenticationError < CambioError; end
  # 404: unknown id (or another company's).
  class NotFoundError < CambioError; end
  # 409: a duplicate reference, a quote already used, or the same Idempotency-Key still running.
  class ConflictError < CambioError; end
  # 422: refused on its merits: INSUFFICIENT_BALANCE, QUOTE_EXPIRED, AMOUNT_TOO_SMALL,
  # LIMIT_REACHED, ADDRESS_NOT_ALLOWED, IDEMPOTENCY_KEY_REUSED.
  class RefusedError < CambioError; end
  # 429: throttled; the client already retried with backoff.
  class RateLimitError < CambioError; end
  # 5xx: Cambio failed or a dependency is unavailable (e.g. PRICE_UNAVAILABLE); the client already
  # retried.
  class ApiServerError < CambioError; end
  # No answer: the connection failed (code CONNECTION_FAILED) or timed out (TIMEOUT); the client
  # already retried.
  class ConnectionError < CambioError; end
  # An answer that is not the API's JSON envelope (code INVALID_RESPONSE): often a base_url that
  # is not Cambio's API, or a proxy in between.
  class InvalidResponseError < CambioError; end

  # webhooks.verify refused a delivery: do not trust its body.
  class WebhookVerificationError < CambioError
    def initialize(message = nil)
      super(message, code: "WEBHOOK_VERIFICATION_FAILED")
    end
  end

  # The one mapping from an error answer (status and parsed envelope) to its family, as the Node
  # client's errorFromResponse.
  def self.error_from_response(status, body, request_id)
    error = body.is_a?(Hash) && body["error"].is_a?(Hash) ? body["error"] : {}
    code = error["code"].is_a?(String) ? error["code"] : (status >= 500 ? "INTERNAL_ERROR" : "INVALID_RESPONSE")
    text = error["message"].is_a?(String) ? error["message"] : "HTTP #{status}"
    message = "#{text} (#{code}#{", request #{request_id}" if request_id})"
    klass =
      case status
      when 401 then AuthenticationError
      when 404 then NotFoundError
      when 409 then ConflictError
      when 422 then RefusedError
      when 429 then RateLimitError
      when 500..599 then ApiServerError
      when 400..499 then InvalidRequestError
      else CambioError
      end
    klass.new(message, code: code, status: status, request_id: request_id, details: error["details"])
  end
end
