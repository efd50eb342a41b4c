# frozen_string_literal: true

module Cambio
  # The client's groups: client.company, client.deposits, client.withdrawals,
  # client.conversions, client.webhooks. Keyword arguments are the API's fields in snake_case
  # (quote_id: for "quoteId"); an unknown or missing one is an ArgumentError before any request.
  # Every POST takes +idempotency_key:+ (default: a fresh UUID per call, reused by its retries):
  # pass your own, e.g. derived from your order id, to make the call safe to repeat across
  # process restarts.
  module Resources
    # @api private
    class Group
      def initialize(client)
        @client = client
        freeze
      end

      def inspect
        "#<#{self.class.name}>"
      end

      private

      def one(klass, method, path, body: nil, idempotency_key: nil)
        data, _pagination, response = @client.request(method, path, body: body, idempotency_key: idempotency_key)
        klass.from_api(data, response)
      end

      def page(klass, path, limit, cursor)
        query = {}
        query["limit"] = Integer(limit) unless limit.nil?
        query["cursor"] = cursor.to_s unless cursor.nil?
        data, pagination, response = @client.request(:get, path, query: query)
        unless data.is_a?(Array)
          raise InvalidResponseError.new("Expected a list in the answer, got #{Record.kind_of_value(data)}",
                                         code: "INVALID_RESPONSE", status: response.status, request_id: response.request_id)
        end
        next_cursor = pagination.is_a?(Hash) ? pagination["nextCursor"] : nil
        Page.new(data: data.map { |each| klass.from_api(each, response) }, next_cursor: next_cursor, last_response: response) do |following|
          page(klass, path, limit, following)
        end
      end

      def params(klass, values, where)
        klass.to_api_params(values, where)
      end

      # An id as one path segment.
      def segment(id)
        raise ArgumentError, "id must be a non-empty String, got #{Record.kind_of_value(id)}" unless id.is_a?(String) && !id.empty?

        id.b.gsub(/[^A-Za-z0-9\-._~]/) { |byte| format("%%%02X", byte.ord) }
      end
    end

    # GET /v1/company, GET /v1/company/balance
    class Company < Group
      # The company the API key belongs to: a Cambio::Company (+id+, +name+, +environment+, ...).
      def get
        one(Cambio::Company, :get, "/v1/company")
      end

      # A Cambio::Balance: +balances+ (one Cambio::Balance::Entry per currency: +currency+,
      # +available+, +pending+, +locked+, decimal Strings) and +updated_at+.
      def balance
        one(Cambio::Balance, :get, "/v1/company/balance")
      end
    end

    # POST /v1/deposits, GET /v1/deposits/:id
    class Deposits < Group
      # create(method: "usdt", network: "tron", reference:, amount: nil, split: nil, idempotency_key: nil)
      # -> Cambio::Deposit, with a fresh +address+ to pay.
      def create(idempotency_key: nil, **values)
        one(Cambio::Deposit, :post, "/v1/deposits",
            body: params(Cambio::CreateDepositRequest, values, "deposits.create"), idempotency_key: idempotency_key)
      end

      def get(id)
        one(Cambio::Deposit, :get, "/v1/deposits/#{segment(id)}")
      end
    end

    # POST /v1/withdrawals, GET /v1/withdrawals/:id
    class Withdrawals < Group
      # create(method: "usdt", network: "tron", address:, amount:, reference:, idempotency_key: nil)
      # -> Cambio::Withdrawal. Raises Cambio::RefusedError (INSUFFICIENT_BALANCE) when the
      # available balance does not cover amount + fee.
      def create(idempotency_key: nil, **values)
        one(Cambio::Withdrawal, :post, "/v1/withdrawals",
            body: params(Cambio::CreateWithdrawalRequest, values, "withdrawals.create"), idempotency_key: idempotency_key)
      end

      def get(id)
        one(Cambio::Withdrawal, :get, "/v1/withdrawals/#{segment(id)}")
      end
    end

    # POST /v1/conversions/quote, POST /v1/conversions, GET /v1/conversions, GET /v1/conversions/:id
    class Conversions < Group
      # quote(source_currency: "USDT", settlement_currency: "BRL", source_amount:, idempotency_key: nil)
      # -> Cambio::Quote, valid 30 s.
      def quote(idempotency_key: nil, **values)
        one(Cambio::Quote, :post, "/v1/conversions/quote",
            body: params(Cambio::CreateQuoteRequest, values, "conversions.quote"), idempotency_key: idempotency_key)
      end

      # create(quote_id:, reference: nil, idempotency_key: nil) -> Cambio::Conversion: executes the quote.
      def create(idempotency_key: nil, **values)
        one(Cambio::Conversion, :post, "/v1/conversions",
            body: params(Cambio::CreateConversionRequest, values, "conversions.create"), idempotency_key: idempotency_key)
      end

      # One Cambio::Page of conversions, newest first (+limit+ 1-100, default 20; +cursor+ a
      # page's next_cursor). page.auto_paging_each walks every page.
      def list(limit: nil, cursor: nil)
        page(Cambio::Conversion, "/v1/conversions", limit, cursor)
      end

      def get(id)
        one(Cambio::Conversion, :get, "/v1/conversions/#{segment(id)}")
      end
    end

    # The five /v1/webhooks routes, and +verify+ (local).
    class Webhooks < Group
      # One Cambio::Page of Cambio::Webhook.
      def list(limit: nil, cursor: nil)
        page(Cambio::Webhook, "/v1/webhooks", limit, cursor)
      end

      # create(url:, events:, description: nil, enabled: nil, idempotency_key: nil) ->
      # Cambio::CreatedWebhook, whose +secret+ (whsec_...) is shown only this once: store it.
      def create(idempotency_key: nil, **values)
        one(Cambio::CreatedWebhook, :post, "/v1/webhooks",
            body: params(Cambio::WebhookRequest, values, "webhooks.create"), idempotency_key: idempotency_key)
      end

      def get(id)
        one(Cambio::Webhook, :get, "/v1/webhooks/#{segment(id)}")
      end

      # update(id, url:, events:, description: nil, enabled: nil) -> Cambio::Webhook. Replaces the
      # webhook (PUT): omitted optional fields take their defaults; the secret is kept.
      def update(id, **values)
        one(Cambio::Webhook, :put, "/v1/webhooks/#{segment(id)}", body: params(Cambio::WebhookRequest, values, "webhooks.update"))
      end

      # -> Cambio::DeletedWebhook (+id+, +deleted+ true).
      def delete(id)
        one(Cambio::DeletedWebhook, :delete, "/v1/webhooks/#{segment(id)}")
      end

      # Verifies a delivery over its raw body and returns its Cambio::WebhookEvent; raises
      # Cambio::WebhookVerificationError when it is forged, altered or stale. See
      # Cambio::WebhookSignature.verify.
      def verify(raw_body, headers, secret, tolerance: WebhookSignature::DEFAULT_TOLERANCE, now: nil)
        WebhookSignature.verify(raw_body, headers, secret, tolerance: tolerance, now: now)
      end
    end
  end
end
