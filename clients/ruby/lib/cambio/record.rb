# frozen_string_literal: true

module Cambio
  # The base of every record the API returns (Cambio::Deposit, Cambio::Withdrawal, ...; generated
  # from openapi.json into types.rb) and of the request bodies' field lists.
  #
  # A record is immutable and reads like a Struct: one snake_case reader per field of the API
  # (+deposit.received_amount+ for "receivedAmount"), +to_h+ (snake_case Symbol keys, nested
  # records as Hashes), +[]+ with either spelling (+deposit[:received_amount]+,
  # +deposit["receivedAmount"]+), pattern matching (+case event in {type: "deposit.completed"}+)
  # and +to_json+ in the API's own camelCase. Money stays the API's decimal String, never a
  # Float. Fields the API adds after this client was generated are kept and readable the same way.
  class Record
    # One field of a schema: +name+ the Ruby reader, +key+ the API's name, +type+ one of :string,
    # :integer, :number, :boolean, :record, :array, :any; +of+ the record class's name (for
    # :record) or the element's type (for :array).
    # +hidden+: a secret (CreatedWebhook#secret), readable but shown as [hidden] by inspect and pp.
    Field = Struct.new(:name, :key, :type, :of, :required, :nullable, :enum, :hidden, keyword_init: true)

    # What inspect and pp show for a hidden field's value.
    HIDDEN = "[hidden]"

    class << self
      # The openapi.json schema this class was generated from (nil for a plain Record).
      attr_reader :schema_name

      # Fields by Ruby name, in the schema's order.
      def fields
        @fields ||= {}
      end

      # Builds a record from the API's JSON object (String keys in camelCase).
      def from_api(values, last_response = nil)
        unless values.is_a?(Hash)
          raise InvalidResponseError.new("Expected #{describe} object in the answer, got #{Record.kind_of_value(values)}",
                                         code: "INVALID_RESPONSE", status: last_response&.status,
                                         request_id: last_response&.request_id)
        end
        record = allocate
        record.send(:load_api, values, last_response)
        record
      end

      # Turns keyword arguments (snake_case, or the API's own names) into the API's JSON object,
      # checking them against the schema: an unknown or missing keyword is an ArgumentError
      # before any request. Money given as a BigDecimal becomes its decimal String; a Float is
      # refused, since it cannot carry money exactly.
      def to_api_params(params, where)
        raise ArgumentError, "#{where} takes keyword arguments (#{field_list}), got #{Record.kind_of_value(params)}" unless params.is_a?(Hash)

        out = {}
        params.each do |name, value|
          field = fields[name.to_s.to_sym] || by_key[name.to_s]
          raise ArgumentError, "unknown keyword: #{name.inspect} for #{where}, which takes #{field_list}" unless field
          next if value.nil?

          out[field.key] = Record.request_value(field, value, "#{where} #{field.name}")
        end
        missing = fields.values.select { |field| field.required && !out.key?(field.key) }
        unless missing.empty?
          raise ArgumentError, "missing keyword#{"s" if missing.size > 1}: #{missing.map { |f| f.name.inspect }.join(", ")} for #{where}, which takes #{field_list}"
        end
        out
      end

      # Field lookup by the API's name.
      def by_key
        @by_key ||= {}
      end

      def snake(key)
        key.to_s.gsub(/([A-Z]+)([A-Z][a-z])/, '\1_\2').gsub(/([a-z\d])([A-Z])/, '\1_\2').downcase
      end

      def camel(name)
        name.to_s.gsub(/_([a-z\d])/) { Regexp.last_match(1).upcase }
      end

      # @api private
      def kind_of_value(value)
        value.nil? ? "nil" : "#{value.class} #{value.inspect[0, 80]}"
      end

      # @api private: a Ruby value as the API's JSON wants it, for one field of a request.
      def request_value(field, value, where)
        return value.to_api if value.is_a?(Record)

        case field.type
        when :string then string_value(value, where)
        when :number then number_value(value, where)
        when :record
          value.is_a?(Hash) ? Cambio.const_get(field.of).to_api_params(value, where) : value
        when :array
          return value unless value.is_a?(Array)

          element = Field.new(name: field.name, key: field.key, type: field.of.is_a?(Symbol) ? field.of : :record,
                              of: field.of.is_a?(Symbol) ? nil : field.of)
          value.map { |each| request_value(element, each, where) }
        else plain_value(value)
        end
      end

      # @api private
      def plain_value(value)
        case value
        when Record then value.to_api
        when Hash then value.to_h { |k, v| [k.is_a?(Symbol) ? camel(k) : k, plain_value(v)] }
        when Array then value.map { |v| plain_value(v) }
        when Symbol then value.to_s
        else value
        end
      end

      # The schema's fields, for messages.
      def field_list
        fields.empty? ? "no fields" : fields.keys.map(&:inspect).join(", ")
      end

      # A subclass starts with its parent's fields (an event class, WebhookEvent's id and
      # created_at) and may declare one again to narrow it (its type, its data's class).
      def inherited(subclass)
        super
        subclass.instance_variable_set(:@fields, fields.dup)
        subclass.instance_variable_set(:@by_key, by_key.dup)
      end

      private

      def describe
        name ? "a #{name.sub(/\ACambio::/, "")}" : "an"
      end

      def string_value(value, where)
        case value
        when String then value
        when Float
          raise ArgumentError, "#{where}: #{value} is a Float, which cannot carry money exactly: pass a String (\"#{value}\") or a BigDecimal"
        when Integer, Symbol then value.to_s
        else
          if defined?(::BigDecimal) && value.is_a?(::BigDecimal)
            value.to_s("F").sub(/\.0\z/, "")
          else
            value
          end
        end
      end

      # A BigDecimal stays one: the body is written by ExactJSON, as a JSON number of its exact digits.
      def number_value(value, where)
        raise ArgumentError, "#{where} must be a finite number, got #{value}" if ExactJSON.big_decimal?(value) && !value.finite?

        value
      end

      # Declares the schema (generated code).
      def schema(name)
        @schema_name = name
      end

      # Declares one field and its reader (generated code).
      def field(name, key, type: :any, of: nil, required: false, nullable: false, enum: nil, hidden: false)
        spec = Field.new(name: name, key: key, type: type, of: of, required: required, nullable: nullable, enum: enum, hidden: hidden).freeze
        fields[name] = spec
        by_key[key] = spec
        if method_defined?(name) || private_method_defined?(name)
          # A field named like a method every object has (Deposit#method): the reader answers
          # the field without arguments, and stays the usual method with them (d.method(:to_h)).
          define_method(name) { |*args, &block| args.empty? && block.nil? ? @values[name] : super(*args, &block) }
        else
          define_method(name) { @values[name] }
        end
        define_method(:"#{name}?") { @values[name] == true } if type == :boolean
      end

      # The generated declarations, one per JSON type, read like a migration's columns
      # (+string :id+, +record :split, "Deposit::Split", null: true+, +array :events, of: :string+):
      # a field is required unless +optional: true+, may be null with +null: true+, and is the
      # API's camelCase name of its reader unless +key:+ says otherwise; +const: "usdt"+ is the
      # one value it has (its +enum+ then that value alone); +hidden: true+ keeps a secret out of
      # inspect and pp.
      %i[string integer number boolean any].each do |type|
        define_method(type) do |name, key: camel(name), optional: false, null: false, enum: nil, const: nil, hidden: false|
          field(name, key, type: type, required: !optional, nullable: null, enum: const.nil? ? enum : [const], hidden: hidden)
        end
        private type
      end

      def record(name, of, key: camel(name), optional: false, null: false)
        field(name, key, type: :record, of: of, required: !optional, nullable: null)
      end

      def array(name, of:, key: camel(name), optional: false, null: false)
        field(name, key, type: :array, of: of, required: !optional, nullable: null)
      end
    end

    # A record from keyword arguments in snake_case (for tests and fixtures); records from the API
    # come from +from_api+.
    def initialize(**attributes)
      fields = self.class.fields
      unless fields.empty?
        unknown = attributes.keys.reject { |name| fields.key?(name) }
        raise ArgumentError, "unknown keyword#{"s" if unknown.size > 1}: #{unknown.map(&:inspect).join(", ")} for #{self.class.name}, which takes #{self.class.field_list}" unless unknown.empty?
      end
      @values = attributes.transform_keys(&:to_sym).freeze
      @last_response = nil
      freeze
    end

    # The HTTP answer this record came in (a Cambio::Response: +status+, +request_id+,
    # +idempotent_replayed?+, +headers+), or nil for a record that did not come from a request.
    attr_reader :last_response

    # The fields as a Hash with snake_case Symbol keys (nested records as Hashes too).
    def to_h
      @values.transform_values { |value| export(value, :to_h) }
    end

    # The record as the API sent it: String keys in camelCase.
    def to_api
      @values.each_with_object({}) do |(name, value), out|
        field = self.class.fields[name]
        out[field ? field.key : self.class.camel(name)] = export(value, :to_api)
      end
    end
    alias as_json to_api

    def to_json(*args)
      ExactJSON.writable(to_api).to_json(*args)
    end

    # A field's value by its Ruby name or the API's: record[:received_amount], record["receivedAmount"].
    def [](key)
      @values[self.class.snake(key).to_sym]
    end

    def key?(key)
      @values.key?(self.class.snake(key).to_sym)
    end

    def dig(key, *rest)
      value = self[key]
      rest.empty? || value.nil? ? value : value.dig(*rest)
    end

    def deconstruct_keys(_keys)
      @values
    end

    def ==(other)
      other.class == self.class && other.to_h == to_h
    end
    alias eql? ==

    def hash
      [self.class, @values].hash
    end

    # Every field, a secret (CreatedWebhook#secret) as [hidden]: a record can be logged as is.
    def inspect
      shown = @values.map { |name, value| "#{name}: #{hidden?(name) ? HIDDEN : value.inspect}" }.join(", ")
      "#<#{self.class.name || "Cambio::Record"}#{" " unless shown.empty?}#{shown}>"
    end
    alias to_s inspect

    def pretty_print(printer)
      printer.group(1, "#<#{self.class.name || "Cambio::Record"}", ">") do
        @values.each_with_index do |(name, value), index|
          printer.text(",") if index.positive?
          printer.breakable
          printer.text("#{name}: ")
          hidden?(name) ? printer.text(HIDDEN) : printer.pp(value)
        end
      end
    end

    # Fields the API sent beyond this class's schema (added after the client was generated) read
    # the same way.
    def method_missing(name, *args, &block)
      return @values[name] if args.empty? && block.nil? && @values.key?(name)

      super
    end

    def respond_to_missing?(name, include_private = false)
      @values.key?(name) || super
    end

    private

    def hidden?(name)
      self.class.fields[name]&.hidden ? true : false
    end

    def load_api(values, last_response)
      klass = self.class
      loaded = {}
      values.each do |key, value|
        field = klass.by_key[key.to_s]
        if field
          loaded[field.name] = convert(field.type, field.of, value, last_response)
        else
          loaded[klass.snake(key).to_sym] = generic(value, last_response)
        end
      end
      @values = loaded.freeze
      @last_response = last_response
      freeze
    end

    def convert(type, of, value, last_response)
      case type
      when :record
        value.is_a?(Hash) ? Cambio.const_get(of).from_api(value, last_response) : value
      when :array
        return value unless value.is_a?(Array)

        if of.is_a?(Symbol)
          value.map { |each| convert(of, nil, each, last_response) }
        else
          value.map { |each| convert(:record, of, each, last_response) }
        end
      when :any then generic(value, last_response)
      else value
      end
    end

    def generic(value, last_response)
      case value
      when Hash then Record.from_api(value, last_response)
      when Array then value.map { |each| generic(each, last_response) }
      else value
      end
    end

    # A value with its records (also inside arrays) turned by +to+: :to_h or :to_api.
    def export(value, to)
      case value
      when Record then value.public_send(to)
      when Array then value.map { |each| export(each, to) }
      else value
      end
    end
  end
end
