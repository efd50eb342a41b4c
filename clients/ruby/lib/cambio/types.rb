# frozen_string_literal: true

# Generated from openapi.json (Cambio API 1.0.0) by tools/generate_types.rb.
# Do not edit: run `ruby tools/generate_types.rb` in clients/ruby after openapi.json changes
# (test/types_drift_test.rb fails until you do).

module Cambio
  # The API's error codes (error.code in the envelope); the client adds CLIENT_CODES.
  ERROR_CODES = %w[INVALID_JSON VALIDATION_FAILED AUTH_FAILED FORBIDDEN NOT_FOUND DUPLICATE_REFERENCE IDEMPOTENCY_KEY_IN_USE QUOTE_ALREADY_USED PAYLOAD_TOO_LARGE UNSUPPORTED_MEDIA_TYPE INSUFFICIENT_BALANCE QUOTE_EXPIRED AMOUNT_TOO_SMALL LIMIT_REACHED ADDRESS_NOT_ALLOWED IDEMPOTENCY_KEY_REUSED RATE_LIMITED INTERNAL_ERROR PRICE_UNAVAILABLE].freeze

  # What Cambio POSTs to a webhook: +id+ (evt_..., also the webhook-id header: deduplicate on it),
  # +type+, +created_at+ and +data+, the record. webhooks.verify returns the subclass named by
  # EVENT_TYPES for the event's type (its +data+ a Cambio::Deposit, Withdrawal or Conversion), or
  # this class for a type this client does not know (+data+ then a plain Cambio::Record).
  class WebhookEvent < Record
    # The event id; also the `webhook-id` header: deduplicate on it
    field :id, "id", type: :string, required: true
    field :type, "type", type: :string, required: true
    field :created_at, "createdAt", type: :string, required: true
    field :data, "data", type: :any, required: true
  end

  class Balance < Record
    schema "Balance"
    class Entry < Record
      field :currency, "currency", type: :string, required: true, enum: %w[USDT BRL]
      # Spendable now
      field :available, "available", type: :string, required: true
      # Deposits seen on chain, not yet confirmed
      field :pending, "pending", type: :string, required: true
      # Held for withdrawals in flight
      field :locked, "locked", type: :string, required: true
    end

    field :balances, "balances", type: :array, of: "Balance::Entry", required: true
    field :updated_at, "updatedAt", type: :string, required: true
  end

  class Company < Record
    schema "Company"
    field :id, "id", type: :string, required: true
    field :name, "name", type: :string, required: true
    field :environment, "environment", type: :string, required: true, enum: %w[sandbox production]
    field :status, "status", type: :string, required: true, enum: %w[active]
    field :created_at, "createdAt", type: :string, required: true
  end

  class Conversion < Record
    schema "Conversion"
    field :id, "id", type: :string, required: true
    field :quote_id, "quoteId", type: :string, required: true
    field :reference, "reference", type: :string, required: true, nullable: true
    field :source_currency, "sourceCurrency", type: :string, required: true, enum: %w[USDT]
    field :settlement_currency, "settlementCurrency", type: :string, required: true, enum: %w[BRL]
    # USDT amount as a decimal string with all 6 decimals
    field :source_amount, "sourceAmount", type: :string, required: true
    # BRL amount as a decimal string with all 2 decimals
    field :settlement_amount, "settlementAmount", type: :string, required: true
    # BRL per USDT with 8 decimals, Cambio's spread included
    field :rate, "rate", type: :string, required: true
    field :status, "status", type: :string, required: true, enum: %w[completed]
    field :created_at, "createdAt", type: :string, required: true
    field :completed_at, "completedAt", type: :string, required: true
  end

  class ConversionCompletedEvent < WebhookEvent
    schema "ConversionCompletedEvent"
    field :type, "type", type: :string, required: true, enum: %w[conversion.completed]
    field :data, "data", type: :record, of: "Conversion", required: true
  end

  class CreateConversionRequest < Record
    schema "CreateConversionRequest"
    field :quote_id, "quoteId", type: :string, required: true
    field :reference, "reference", type: :string
  end

  class CreateDepositRequest < Record
    schema "CreateDepositRequest"
    # Forwards a share of every confirmed transfer to `address`: either `percent` of it or a fixed `amount`, not both
    class Split < Record
      # TRON address (base58check, starting with T)
      field :address, "address", type: :string, required: true
      # Percentage of every confirmed transfer, at most 2 decimals
      field :percent, "percent", type: :number
      # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
      field :amount, "amount", type: :string
    end

    field :method, "method", type: :string, required: true, enum: %w[usdt]
    field :reference, "reference", type: :string, required: true
    field :network, "network", type: :string, required: true, enum: %w[tron]
    # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
    field :amount, "amount", type: :string
    # Forwards a share of every confirmed transfer to `address`: either `percent` of it or a fixed `amount`, not both
    field :split, "split", type: :record, of: "CreateDepositRequest::Split"
  end

  class CreateQuoteRequest < Record
    schema "CreateQuoteRequest"
    field :source_currency, "sourceCurrency", type: :string, required: true, enum: %w[USDT]
    field :settlement_currency, "settlementCurrency", type: :string, required: true, enum: %w[BRL]
    # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
    field :source_amount, "sourceAmount", type: :string, required: true
  end

  class CreateWithdrawalRequest < Record
    schema "CreateWithdrawalRequest"
    field :method, "method", type: :string, required: true, enum: %w[usdt]
    field :network, "network", type: :string, required: true, enum: %w[tron]
    # TRON address (base58check, starting with T)
    field :address, "address", type: :string, required: true
    # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
    field :amount, "amount", type: :string, required: true
    field :reference, "reference", type: :string, required: true
  end

  class Webhook < Record
    schema "Webhook"
    field :id, "id", type: :string, required: true
    field :url, "url", type: :string, required: true
    field :events, "events", type: :array, of: :string, required: true
    field :description, "description", type: :string, required: true, nullable: true
    field :enabled, "enabled", type: :boolean, required: true
    field :created_at, "createdAt", type: :string, required: true
    field :updated_at, "updatedAt", type: :string, required: true
  end

  class CreatedWebhook < Webhook
    schema "CreatedWebhook"
    # Standard Webhooks signing secret: `whsec_` + base64 of 24 random bytes. Shown once: store it.
    field :secret, "secret", type: :string, required: true
  end

  class DeletedWebhook < Record
    schema "DeletedWebhook"
    field :id, "id", type: :string, required: true
    field :deleted, "deleted", type: :boolean, required: true
  end

  class Deposit < Record
    schema "Deposit"
    class Transaction < Record
      field :tx_hash, "txHash", type: :string, required: true
      # USDT amount as a decimal string with all 6 decimals
      field :amount, "amount", type: :string, required: true
      field :block_number, "blockNumber", type: :integer, required: true
      field :confirmations, "confirmations", type: :integer, required: true
      field :status, "status", type: :string, required: true, enum: %w[confirming confirmed]
    end

    class Split < Record
      field :address, "address", type: :string, required: true
      field :percent, "percent", type: :number, required: true, nullable: true
      # USDT amount as a decimal string with all 6 decimals
      field :amount, "amount", type: :string, required: true, nullable: true
      # USDT amount as a decimal string with all 6 decimals
      field :forwarded_amount, "forwardedAmount", type: :string, required: true
      field :withdrawal_id, "withdrawalId", type: :string, required: true, nullable: true
    end

    field :id, "id", type: :string, required: true
    field :method, "method", type: :string, required: true, enum: %w[usdt]
    field :reference, "reference", type: :string, required: true
    field :network, "network", type: :string, required: true, enum: %w[tron]
    # Fresh TRON address for this deposit only
    field :address, "address", type: :string, required: true
    # USDT amount as a decimal string with all 6 decimals
    field :amount, "amount", type: :string, required: true, nullable: true
    # USDT amount as a decimal string with all 6 decimals
    field :received_amount, "receivedAmount", type: :string, required: true
    # USDT amount as a decimal string with all 6 decimals
    field :credited_amount, "creditedAmount", type: :string, required: true
    field :amount_status, "amountStatus", type: :string, required: true, nullable: true, enum: %w[exact underpaid overpaid]
    field :status, "status", type: :string, required: true, enum: %w[awaiting_payment confirming completed expired]
    field :confirmations, "confirmations", type: :integer, required: true
    field :required_confirmations, "requiredConfirmations", type: :integer, required: true
    field :transactions, "transactions", type: :array, of: "Deposit::Transaction", required: true
    field :split, "split", type: :record, of: "Deposit::Split", required: true, nullable: true
    field :expires_at, "expiresAt", type: :string, required: true
    field :created_at, "createdAt", type: :string, required: true
    field :updated_at, "updatedAt", type: :string, required: true
  end

  class DepositCompletedEvent < WebhookEvent
    schema "DepositCompletedEvent"
    field :type, "type", type: :string, required: true, enum: %w[deposit.completed]
    field :data, "data", type: :record, of: "Deposit", required: true
  end

  class DepositConfirmingEvent < WebhookEvent
    schema "DepositConfirmingEvent"
    field :type, "type", type: :string, required: true, enum: %w[deposit.confirming]
    field :data, "data", type: :record, of: "Deposit", required: true
  end

  class DepositExpiredEvent < WebhookEvent
    schema "DepositExpiredEvent"
    field :type, "type", type: :string, required: true, enum: %w[deposit.expired]
    field :data, "data", type: :record, of: "Deposit", required: true
  end

  class FieldError < Record
    schema "FieldError"
    field :path, "path", type: :string, required: true
    field :message, "message", type: :string, required: true
  end

  class Quote < Record
    schema "Quote"
    field :id, "id", type: :string, required: true
    field :source_currency, "sourceCurrency", type: :string, required: true, enum: %w[USDT]
    field :settlement_currency, "settlementCurrency", type: :string, required: true, enum: %w[BRL]
    # USDT amount as a decimal string with all 6 decimals
    field :source_amount, "sourceAmount", type: :string, required: true
    # sourceAmount × rate, rounded down to the cent
    field :settlement_amount, "settlementAmount", type: :string, required: true
    # BRL per USDT with 8 decimals, Cambio's spread included
    field :rate, "rate", type: :string, required: true
    field :expires_at, "expiresAt", type: :string, required: true
    field :created_at, "createdAt", type: :string, required: true
  end

  class WebhookRequest < Record
    schema "WebhookRequest"
    # `https://` URL resolving to public addresses only (the local runtime also allows `http://` loopback)
    field :url, "url", type: :string, required: true
    # Event types to receive, or `["*"]` alone for all of them
    field :events, "events", type: :array, of: :string, required: true
    field :description, "description", type: :string, nullable: true
    field :enabled, "enabled", type: :boolean
  end

  class WebhookTestEvent < WebhookEvent
    schema "WebhookTestEvent"
    class Data < Record
      field :webhook_id, "webhookId", type: :string, required: true
      field :url, "url", type: :string, required: true
      field :message, "message", type: :string, required: true
    end

    field :type, "type", type: :string, required: true, enum: %w[webhook.test]
    field :data, "data", type: :record, of: "WebhookTestEvent::Data", required: true
  end

  class Withdrawal < Record
    schema "Withdrawal"
    field :id, "id", type: :string, required: true
    field :method, "method", type: :string, required: true, enum: %w[usdt]
    field :reference, "reference", type: :string, required: true
    field :network, "network", type: :string, required: true, enum: %w[tron]
    field :address, "address", type: :string, required: true
    # USDT amount as a decimal string with all 6 decimals
    field :amount, "amount", type: :string, required: true
    # Network fee, held and spent on top of `amount`
    field :fee, "fee", type: :string, required: true
    field :status, "status", type: :string, required: true, enum: %w[pending processing completed failed]
    field :tx_hash, "txHash", type: :string, required: true, nullable: true
    field :failure_reason, "failureReason", type: :string, required: true, nullable: true
    field :created_at, "createdAt", type: :string, required: true
    field :updated_at, "updatedAt", type: :string, required: true
    field :completed_at, "completedAt", type: :string, required: true, nullable: true
  end

  class WithdrawalCompletedEvent < WebhookEvent
    schema "WithdrawalCompletedEvent"
    field :type, "type", type: :string, required: true, enum: %w[withdrawal.completed]
    field :data, "data", type: :record, of: "Withdrawal", required: true
  end

  class WithdrawalFailedEvent < WebhookEvent
    schema "WithdrawalFailedEvent"
    field :type, "type", type: :string, required: true, enum: %w[withdrawal.failed]
    field :data, "data", type: :record, of: "Withdrawal", required: true
  end

  class WithdrawalProcessingEvent < WebhookEvent
    schema "WithdrawalProcessingEvent"
    field :type, "type", type: :string, required: true, enum: %w[withdrawal.processing]
    field :data, "data", type: :record, of: "Withdrawal", required: true
  end

  # Event type => its class.
  EVENT_TYPES = {
    "conversion.completed" => "ConversionCompletedEvent",
    "deposit.completed" => "DepositCompletedEvent",
    "deposit.confirming" => "DepositConfirmingEvent",
    "deposit.expired" => "DepositExpiredEvent",
    "webhook.test" => "WebhookTestEvent",
    "withdrawal.completed" => "WithdrawalCompletedEvent",
    "withdrawal.failed" => "WithdrawalFailedEvent",
    "withdrawal.processing" => "WithdrawalProcessingEvent",
  }.freeze
end
