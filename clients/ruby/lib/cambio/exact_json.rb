# frozen_string_literal: true

require "json"
begin
  require "bigdecimal"
rescue LoadError
  # Ruby 3.4 made bigdecimal a bundled gem: under Bundler it loads only when the Gemfile names it.
  # Without it a JSON number with a fraction reads as its decimal String: still exact, never a Float.
end

module Cambio
  # @api private: the client's JSON, with numbers kept exact. A JSON number with a fraction (a
  # deposit split's percent) reads as a BigDecimal, never a Float; a BigDecimal is written back as
  # a JSON number of exactly its digits (JSON.generate would write it as a String, "0.45e1").
  module ExactJSON
    # A JSON number written as exactly this text.
    class Number
      def initialize(text)
        @text = text.frozen? ? text : text.dup.freeze
        freeze
      end

      def to_json(*)
        @text
      end

      def to_s
        @text
      end
    end

    module_function

    def parse(text)
      JSON.parse(text, decimal_class: defined?(::BigDecimal) ? ::BigDecimal : ::String)
    end

    def generate(value)
      JSON.generate(writable(value))
    end

    # +value+ with each BigDecimal (in Hashes and Arrays too) as a Number of its exact digits.
    def writable(value)
      case value
      when Hash then value.transform_values { |each| writable(each) }
      when Array then value.map { |each| writable(each) }
      else big_decimal?(value) ? Number.new(decimal_text(value)) : value
      end
    end

    def big_decimal?(value)
      defined?(::BigDecimal) && value.is_a?(::BigDecimal)
    end

    # "12.5", "10" (no ".0"), "0.1000000000000000055511151231257827": no exponent, every digit kept.
    def decimal_text(value)
      raise ArgumentError, "a JSON number must be finite, got #{value}" unless value.finite?

      value.to_s("F").sub(/\.0\z/, "")
    end
  end
end
