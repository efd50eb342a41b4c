# frozen_string_literal: true

# Generated from openapi.json (Cambio API 1.0.0) by tools/generate_types.rb.
# Do not edit: run `ruby tools/generate_types.rb` in clients/ruby after openapi.json changes
# (test/types_drift_test.rb fails until you do).

module Cambio
  # The API's error codes (error.code in the envelope); the client adds CLIENT_CODES.
  ERROR_CODES = %w[INVALID_JSON VALIDATION_FAILED AUTH_FAILED FORBIDDEN NOT_FOUND DUPLICATE_REFERENCE IDEMPOTENCY_KEY_IN_USE QUOTE_ALREADY_USED PAYLOAD_TOO_LARGE UNSUPPORTED_MEDIA_TYPE INSUFFICIENT_BALANCE QUOTE_EXPIRED AMOUNT_TOO_SMALL LIMIT_REACHED ADDRESS_NOT_ALLOWED IDEMPOTENCY_KEY_REUSED RATE_LIMITED INTERNAL_ERROR PRICE_UNAVAILABLE NETWORK_UNAVAILABLE SCREENING_UNAVAILABLE].freeze

  class Balance < Record
    schema "Balance"
    class Entry < Record
      string :currency, enum: %w[USDT BRL]
      # Spendable now
      string :available
      # Deposits seen on chain, not yet confirmed
      string :pending
      # Held for withdrawals in flight
      string :locked
    end

    array :balances, of: "Balance::Entry"
    string :updated_at
  end

  class Company < Record
    schema "Company"
    # The company's own rate limit on this stage; past it, requests are answered 429 `RATE_LIMITED` with `Retry-After`
    class RateLimit < Record
      # The rate limit tier the company is at: `standard` for every new company, `growth` or `scale` once Cambio raises it
      string :tier
      # Requests a second the company may send, steadily
      integer :requests_per_second
      # Requests the company may send at once before the steady rate applies
      integer :burst
    end

    string :id
    string :name
    string :environment, enum: %w[sandbox production]
    string :status, const: "active"
    string :created_at
    # The company's own rate limit on this stage; past it, requests are answered 429 `RATE_LIMITED` with `Retry-After`
    record :rate_limit, "Company::RateLimit"
  end

  class Conversion < Record
    schema "Conversion"
    string :id
    string :quote_id
    string :reference, null: true
    string :source_currency, const: "USDT"
    string :settlement_currency, const: "BRL"
    # USDT amount as a decimal string with all 6 decimals
    string :source_amount
    # BRL amount as a decimal string with all 2 decimals
    string :settlement_amount
    # BRL per USDT with 8 decimals, Cambio's spread included
    string :rate
    string :status, const: "completed"
    string :created_at
    string :completed_at
  end

  class ConversionCompletedEvent < WebhookEvent
    schema "ConversionCompletedEvent"
    event "conversion.completed", data: "Conversion"
  end

  class CreateConversionRequest < Record
    schema "CreateConversionRequest"
    string :quote_id
    string :reference, optional: true
  end

  class CreateDepositRequest < Record
    schema "CreateDepositRequest"
    # Forwards a share of every confirmed transfer to `address`: either `percent` of it or a fixed `amount`, not both
    class Split < Record
      # TRON address (base58check, starting with T) or Ethereum, BNB Smart Chain, Polygon PoS or Arbitrum One address (EIP-55 0x followed by 40 hex digits) or Solana address (base58 of 32 bytes: a wallet, or a wallet's USDT associated token account)
      string :address
      # Percentage of every confirmed transfer, at most 2 decimals
      number :percent, optional: true
      # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
      string :amount, optional: true
    end

    string :method, const: "usdt"
    string :reference
    string :network, enum: %w[tron ethereum bsc polygon arbitrum solana]
    # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
    string :amount, optional: true
    # Forwards a share of every confirmed transfer to `address`: either `percent` of it or a fixed `amount`, not both
    record :split, "CreateDepositRequest::Split", optional: true
  end

  class CreateQuoteRequest < Record
    schema "CreateQuoteRequest"
    string :source_currency, const: "USDT"
    string :settlement_currency, const: "BRL"
    # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
    string :source_amount
  end

  class CreateWithdrawalRequest < Record
    schema "CreateWithdrawalRequest"
    string :method, const: "usdt"
    string :network, enum: %w[tron ethereum bsc polygon arbitrum solana]
    # TRON address (base58check, starting with T) or Ethereum, BNB Smart Chain, Polygon PoS or Arbitrum One address (EIP-55 0x followed by 40 hex digits) or Solana address (base58 of 32 bytes: a wallet, or a wallet's USDT associated token account)
    string :address
    # USDT amount: a decimal string greater than zero with at most 6 decimals, never a JSON number
    string :amount
    string :reference
  end

  class Webhook < Record
    schema "Webhook"
    string :id
    string :url
    array :events, of: :string
    string :description, null: true
    boolean :enabled
    string :created_at
    string :updated_at
  end

  class CreatedWebhook < Webhook
    schema "CreatedWebhook"
    # Standard Webhooks signing secret: `whsec_` + base64 of 24 random bytes. Shown once: store it.
    string :secret, hidden: true
  end

  class DeletedWebhook < Record
    schema "DeletedWebhook"
    string :id
    boolean :deleted
  end

  class Deposit < Record
    schema "Deposit"
    class Transaction < Record
      string :tx_hash
      # USDT amount as a decimal string with all 6 decimals
      string :amount
      integer :block_number
      integer :confirmations
      string :status, enum: %w[confirming confirmed]
    end

    class Split < Record
      string :address
      number :percent, null: true
      # USDT amount as a decimal string with all 6 decimals
      string :amount, null: true
      # USDT amount as a decimal string with all 6 decimals
      string :forwarded_amount
      string :withdrawal_id, null: true
    end

    string :id
    string :method, const: "usdt"
    string :reference
    string :network, enum: %w[tron ethereum bsc polygon arbitrum solana]
    # The address to pay, on the deposit's network and for this deposit only: on TRON, Ethereum, BNB Smart Chain, Polygon PoS, Arbitrum One or Solana
    string :address
    # USDT amount as a decimal string with all 6 decimals
    string :amount, null: true
    # USDT amount as a decimal string with all 6 decimals
    string :received_amount
    # USDT amount as a decimal string with all 6 decimals
    string :credited_amount
    string :amount_status, null: true, enum: %w[exact underpaid overpaid]
    # `held`: funds arrived that cannot be credited (see `holdReason`); not in `available` until released
    string :status, enum: %w[awaiting_payment confirming completed expired held]
    # Why a `held` deposit is not credited: `address_frozen` (the token's issuer froze the deposit address; credited once unfrozen) or `sender_sanctioned` (the paying address is on the sanctions list; credited only if Cambio releases it). Null otherwise.
    string :hold_reason, null: true, enum: %w[address_frozen sender_sanctioned]
    integer :confirmations
    integer :required_confirmations
    array :transactions, of: "Deposit::Transaction"
    record :split, "Deposit::Split", null: true
    string :expires_at
    string :created_at
    string :updated_at
  end

  class DepositCompletedEvent < WebhookEvent
    schema "DepositCompletedEvent"
    event "deposit.completed", data: "Deposit"
  end

  class DepositConfirmingEvent < WebhookEvent
    schema "DepositConfirmingEvent"
    event "deposit.confirming", data: "Deposit"
  end

  class DepositExpiredEvent < WebhookEvent
    schema "DepositExpiredEvent"
    event "deposit.expired", data: "Deposit"
  end

  class DepositHeldEvent < WebhookEvent
    schema "DepositHeldEvent"
    event "deposit.held", data: "Deposit"
  end

  class DepositTransferReversedEvent < WebhookEvent
    schema "DepositTransferReversedEvent"
    event "deposit.transfer_reversed", data: "Deposit"
  end

  class FieldError < Record
    schema "FieldError"
    string :path
    string :message
  end

  class Quote < Record
    schema "Quote"
    string :id
    string :source_currency, const: "USDT"
    string :settlement_currency, const: "BRL"
    # USDT amount as a decimal string with all 6 decimals
    string :source_amount
    # sourceAmount × rate, rounded down to the cent
    string :settlement_amount
    # BRL per USDT with 8 decimals, Cambio's spread included
    string :rate
    string :expires_at
    string :created_at
  end

  class WebhookRequest < Record
    schema "WebhookRequest"
    # `https://` URL resolving to public addresses only (the local runtime also allows `http://` loopback)
    string :url
    # Event types to receive, or `["*"]` alone for all of them
    array :events, of: :string
    string :description, optional: true, null: true
    boolean :enabled, optional: true
  end

  class WebhookTestEvent < WebhookEvent
    schema "WebhookTestEvent"
    class Data < Record
      string :webhook_id
      string :url
      string :message
    end

    event "webhook.test", data: "WebhookTestEvent::Data"
  end

  class Withdrawal < Record
    schema "Withdrawal"
    class NetworkCost < Record
      # The network's own coin the hot wallet paid in (its fee asset): TRX, ETH (ethereum and arbitrum), BNB, POL or SOL on today's networks
      string :asset
      # What the hot wallet paid in the final transaction, a decimal string with all the coin's decimals (TRX: 6, SOL: 9, ETH, BNB and POL: 18): its fee (TRX burnt for the energy and bandwidth the hot wallet had not staked; gas used at its effective price), plus the rent of the destination's token account when the payout created it (Solana)
      string :amount
      # The payout created the destination's token account (Solana), its rent included in `amount`; always false on the other networks, whose token keeps its balances itself
      boolean :token_account_created
    end

    string :id
    string :method, const: "usdt"
    string :reference
    string :network, enum: %w[tron ethereum bsc polygon arbitrum solana]
    string :address
    # USDT amount as a decimal string with all 6 decimals
    string :amount
    # Network fee, held and spent on top of `amount`
    string :fee
    string :status, enum: %w[pending processing completed failed]
    string :tx_hash, null: true
    # What the destination received per the token's Transfer event, once completed: below `amount` only when the token's issuer charges a transfer fee. Null until completed.
    string :delivered_amount, null: true
    # What the payout cost Cambio on the network, in the network's own coin, once its transaction is final (completed, or failed after it landed: a failed transaction still pays its fee). Cambio's cost, not charged to the company: the withdrawal's `fee` covers it. Null until then, for a payout that never landed (but one whose nonce another transaction filled, after the node refused it for good, shows that transaction's cost), and on withdrawals settled before their network reported it.
    record :network_cost, "Withdrawal::NetworkCost", null: true
    string :failure_reason, null: true
    string :created_at
    string :updated_at
    string :completed_at, null: true
  end

  class WithdrawalCompletedEvent < WebhookEvent
    schema "WithdrawalCompletedEvent"
    event "withdrawal.completed", data: "Withdrawal"
  end

  class WithdrawalFailedEvent < WebhookEvent
    schema "WithdrawalFailedEvent"
    event "withdrawal.failed", data: "Withdrawal"
  end

  class WithdrawalProcessingEvent < WebhookEvent
    schema "WithdrawalProcessingEvent"
    event "withdrawal.processing", data: "Withdrawal"
  end

  # Event type => its class.
  EVENT_TYPES = {
    "conversion.completed" => "ConversionCompletedEvent",
    "deposit.completed" => "DepositCompletedEvent",
    "deposit.confirming" => "DepositConfirmingEvent",
    "deposit.expired" => "DepositExpiredEvent",
    "deposit.held" => "DepositHeldEvent",
    "deposit.transfer_reversed" => "DepositTransferReversedEvent",
    "webhook.test" => "WebhookTestEvent",
    "withdrawal.completed" => "WithdrawalCompletedEvent",
    "withdrawal.failed" => "WithdrawalFailedEvent",
    "withdrawal.processing" => "WithdrawalProcessingEvent",
  }.freeze
end
