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
      class << self
        # The group's route, the record class its calls answer, the request class its create (and
        # update) take and the class create answers: what the operations below work on.
        attr_reader :path, :record, :request, :created

        private

        # Declares the group's route and classes (see +path+ and the others).
        def resource(path, record, request: nil, created: record)
          @path = path
          @record = record
          @request = request
          @created = created
        end
      end

      def initialize(client)
        @client = client
        freeze
      end

      def inspect
        "#<#{self.class.name}>"
      end

      private

      def one(klass, method, path, body: nil, idempotency_key: nil, gone_on_retry: nil)
        data, _pagination, response = @client.request(method, path, body: body, idempotency_key: idempotency_key, gone_on_retry: gone_on_retry)
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
        Page.new(data: data.map { |each| klass.from_api(each, response) }, next_cursor: next_cursor, last_response: response,
                 cursor: cursor&.to_s) do |following|
          page(klass, path, limit, following)
        end
      end

      # The keyword arguments of +call+ (+deposits.create+ in messages) as +klass+'s JSON object.
      def params(klass, values, call)
        klass.to_api_params(values, "#{self.class.name.split("::").last.downcase}.#{call}")
      end

      # The route of one record of the group: its path and the id as one path segment.
      def member(id)
        raise ArgumentError, "id must be a non-empty String, got #{Record.kind_of_value(id)}" unless id.is_a?(String) && !id.empty?

        "#{self.class.path}/#{id.b.gsub(/[^A-Za-z0-9\-._~]/) { |byte| format("%%%02X", byte.ord) }}"
      end
    end

    # @api private: the calls that work the same in every group that has them (as Stripe's
    # APIOperations), on the group's +resource+.
    module Create
      # POST to the group's route, the keyword arguments checked against its request class first.
      def create(idempotency_key: nil, **values)
        one(self.class.created, :post, self.class.path, body: params(self.class.request, values, "create"), idempotency_key: idempotency_key)
      end
    end

    module Retrieve
      # GET one record by its id.
      def get(id)
        one(self.class.record, :get, member(id))
      end
    end

    module List
      # One Cambio::Page of the group's records, newest first (+limit+ 1-100, default 20; +cursor+ a
      # page's next_cursor). page.auto_paging_each walks every page.
      def list(limit: nil, cursor: nil)
        page(self.class.record, self.class.path, limit, cursor)
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

    # POST /v1/deposits, GET /v1/deposits/:id.
    # create(method: "usdt", network: "tron", reference:, amount: nil, split: nil, idempotency_key: nil)
    # (+network+ one of tron, ethereum, bsc, polygon, arbitrum, solana) -> Cambio::Deposit, with a fresh
    # +address+ on that network to pay; get(id) -> Cambio::Deposit.
    class Deposits < Group
      resource "/v1/deposits", Cambio::Deposit, request: Cambio::CreateDepositRequest
      include Create
      include Retrieve
    end

    # POST /v1/withdrawals, GET /v1/withdrawals/:id.
    # create(method: "usdt", network: "tron", address:, amount:, reference:, idempotency_key: nil)
    # (+network+ one of tron, ethereum, bsc, polygon, arbitrum, solana; +address+ on it: EIP-55
    # "0x…" on ethereum, bsc, polygon and arbitrum, a wallet's base58 address on solana) -> Cambio::Withdrawal. Raises Cambio::RefusedError (INSUFFICIENT_BALANCE)
    # when the available balance does not cover amount + fee. get(id) -> Cambio::Withdrawal.
    class Withdrawals < Group
      resource "/v1/withdrawals", Cambio::Withdrawal, request: Cambio::CreateWithdrawalRequest
      include Create
      include Retrieve
    end

    # POST /v1/conversions/quote, POST /v1/conversions, GET /v1/conversions, GET /v1/conversions/:id.
    # create(quote_id:, reference: nil, idempotency_key: nil) -> Cambio::Conversion: executes the
    # quote; list(limit: nil, cursor: nil) -> a Cambio::Page of them; get(id) -> Cambio::Conversion.
    class Conversions < Group
      resource "/v1/conversions", Cambio::Conversion, request: Cambio::CreateConversionRequest
      include Create
      include List
      include Retrieve

      # quote(source_currency: "USDT", settlement_currency: "BRL", source_amount:, idempotency_key: nil)
      # -> Cambio::Quote, valid 30 s.
      def quote(idempotency_key: nil, **values)
        one(Cambio::Quote, :post, "/v1/conversions/quote",
            body: params(Cambio::CreateQuoteRequest, values, "quote"), idempotency_key: idempotency_key)
      end
    end

    # The five /v1/webhooks routes, and +verify+ (local).
    # list(limit: nil, cursor: nil) -> a Cambio::Page of Cambio::Webhook;
    # create(url:, events:, description: nil, enabled: nil, idempotency_key: nil) ->
    # Cambio::CreatedWebhook, whose +secret+ (whsec_...) is shown only this once: store it;
    # get(id) -> Cambio::Webhook.
    class Webhooks < Group
      resource "/v1/webhooks", Cambio::Webhook, request: Cambio::WebhookRequest, created: Cambio::CreatedWebhook
      include List
      include Create
      include Retrieve

      # update(id, url:, events:, description: nil, enabled: nil) -> Cambio::Webhook. Replaces the
      # webhook (PUT): omitted optional fields take their defaults; the secret is kept.
      def update(id, **values)
        one(Cambio::Webhook, :put, member(id), body: params(Cambio::WebhookRequest, values, "update"))
      end

      # -> Cambio::DeletedWebhook (+id+, +deleted+ true). Retried like any call: when a retry is
      # answered 404, the try whose answer was lost deleted the webhook, and the call returns the
      # same DeletedWebhook as a delete answered 200. A 404 to the first try raises
      # Cambio::NotFoundError.
      def delete(id)
        one(Cambio::DeletedWebhook, :delete, member(id), gone_on_retry: -> { { "id" => id, "deleted" => true } })
      end

      # Verifies a delivery over its raw body and returns its Cambio::WebhookEvent; raises
      # Cambio::WebhookVerificationError when it is forged, altered or stale. See
      # Cambio::WebhookSignature.verify.
      def verify(raw_body, headers, secret, tolerance: WebhookSignature::DEFAULT_TOLERANCE, now: nil)
        WebhookSignature.verify(raw_body, headers, secret, tolerance: tolerance, now: now)
      end

      # The first step of verify alone: raises Cambio::WebhookVerificationError unless the delivery
      # is signed and fresh; the body is not read. See Cambio::WebhookSignature.verify_signature.
      def verify_signature(raw_body, headers, secret, tolerance: WebhookSignature::DEFAULT_TOLERANCE, now: nil)
        WebhookSignature.verify_signature(raw_body, headers, secret, tolerance: tolerance, now: now)
      end
    end
  end
end
