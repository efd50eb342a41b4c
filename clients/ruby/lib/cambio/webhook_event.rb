# frozen_string_literal: true

module Cambio
  # What Cambio POSTs to a webhook: +id+ (evt_..., also the webhook-id header: deduplicate on it),
  # +type+, +created_at+ and +data+, the record. webhooks.verify returns the subclass named by
  # EVENT_TYPES for the event's type (its +data+ a Cambio::Deposit, Withdrawal or Conversion), or
  # this class for a type this client does not know (+data+ then a plain Cambio::Record). The
  # subclasses are generated from openapi.json into types.rb.
  class WebhookEvent < Record
    # The event id; also the `webhook-id` header: deduplicate on it
    string :id
    string :type
    string :created_at
    any :data

    # False for a verified body that is not a Cambio event (its +type+ is nil).
    def cambio_event?
      !type.nil?
    end

    class << self
      # The event as its type's class (Cambio::DepositCompletedEvent, ...), or a plain WebhookEvent
      # for a type this client does not know yet.
      def construct(values, last_response = nil)
        name = EVENT_TYPES[values["type"]] if values.is_a?(Hash)
        (name ? Cambio.const_get(name) : WebhookEvent).from_api(values, last_response)
      end

      private

      # Declares an event type's class (generated code): the one +type+ it has and the record class
      # of its +data+; it keeps the envelope's other fields.
      def event(type, data:)
        string :type, const: type
        record :data, data
      end
    end
  end
end
