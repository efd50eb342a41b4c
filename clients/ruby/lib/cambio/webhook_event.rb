# frozen_string_literal: true

module Cambio
  class WebhookEvent
    # The event as its type's class (Cambio::DepositCompletedEvent, ...), or a plain WebhookEvent
    # for a type this client does not know yet.
    def self.construct(values, last_response = nil)
      name = EVENT_TYPES[values["type"]] if values.is_a?(Hash)
      (name ? Cambio.const_get(name) : WebhookEvent).from_api(values, last_response)
    end
  end
end
