#!/usr/bin/env ruby
# frozen_string_literal: true

# Generates lib/cambio/types.rb from the repository's openapi.json: one small record class per
# schema of components.schemas (Cambio::Deposit, Cambio::CreateDepositRequest, ...), each field
# declared by its JSON type with its snake_case reader (`string :received_amount`; see
# Cambio::Record: required unless `optional: true`, the API's camelCase name unless `key:`);
# inline objects become nested classes (Cambio::Deposit::Transaction); the event schemas become
# subclasses of Cambio::WebhookEvent (lib/cambio/webhook_event.rb) declared by their type and
# data's class (`event "deposit.completed", data: "Deposit"`), looked up by their type in
# Cambio::EVENT_TYPES; the Error schema's codes become Cambio::ERROR_CODES.
#
#   ruby tools/generate_types.rb            # writes lib/cambio/types.rb
#   ruby tools/generate_types.rb --check    # exits 1 when lib/cambio/types.rb is not what openapi.json gives
#
# test/types_drift_test.rb runs the check in the suite.

require "json"

module CambioTypes
  ROOT = File.expand_path("..", __dir__)
  OPENAPI = File.expand_path("../../openapi.json", ROOT)
  OUTPUT = File.join(ROOT, "lib", "cambio", "types.rb")

  # One class to write: its Ruby name (relative to Cambio), superclass, schema name, doc and fields.
  Klass = Struct.new(:name, :superclass, :schema, :doc, :fields, :nested, :event, keyword_init: true)
  Spec = Struct.new(:name, :key, :type, :of, :required, :nullable, :enum, :doc, keyword_init: true)

  class Generator
    def self.render(openapi = JSON.parse(File.read(OPENAPI)))
      new(openapi).render
    end

    # The fields every event has, declared once on WebhookEvent (lib/cambio/webhook_event.rb).
    ENVELOPE = %w[id created_at].freeze
    # The JSON types declared by their own name (`string :id`); records and arrays name their class.
    SCALARS = %i[string integer number boolean any].freeze
    # Fields shown as [hidden] by a record's inspect and pp (CreatedWebhook's signing secret), as
    # Java's and .NET's generated records do in toString.
    HIDDEN = %w[secret].freeze

    def initialize(openapi)
      @openapi = openapi
      @schemas = openapi.fetch("components").fetch("schemas")
    end

    def render
      classes = []
      events = {}
      error_codes = []
      @schemas.each do |name, schema|
        if name == "ErrorResponse"
          error_codes = schema.dig("properties", "error", "properties", "code", "enum") || []
          next
        end
        # The success envelopes (DepositResponse, ConversionList, ...): the client unwraps them.
        next if schema.dig("properties", "success")
        event_type = schema.dig("properties", "type", "const") if name.end_with?("Event")
        events[event_type] = name if event_type
        klass = object_class(name, schema, event_type ? "WebhookEvent" : "Record")
        klass.event = event_type
        # An event class inherits the envelope's fields; it declares only what is its own (its
        # type's value, its data's class).
        klass.fields.reject! { |field| ENVELOPE.include?(field.name) } if event_type
        classes << klass
      end
      classes.each { |klass| extend_base(klass, classes) }

      out = +""
      out << "# frozen_string_literal: true\n\n"
      out << "# Generated from openapi.json (#{@openapi.dig("info", "title")} #{@openapi.dig("info", "version")}) by tools/generate_types.rb.\n"
      out << "# Do not edit: run `ruby tools/generate_types.rb` in clients/ruby after openapi.json changes\n"
      out << "# (test/types_drift_test.rb fails until you do).\n\n"
      out << "module Cambio\n"
      out << "  # The API's error codes (error.code in the envelope); the client adds CLIENT_CODES.\n"
      out << "  ERROR_CODES = #{words(error_codes)}.freeze\n"
      written = {}
      classes.each { |klass| write_in_order(klass, classes, written, out) }
      out << "\n  # Event type => its class.\n"
      out << "  EVENT_TYPES = {\n"
      events.each { |type, name| out << "    #{type.inspect} => #{name.inspect},\n" }
      out << "  }.freeze\n"
      out << "end\n"
      out
    end

    private

    # A record whose fields begin with all of another record's is its subclass (CreatedWebhook is a
    # Webhook plus its secret): it declares only the fields it adds.
    def extend_base(klass, classes)
      return unless klass.superclass == "Record"

      base = classes.find do |other|
        other != klass && other.superclass == "Record" && other.nested.empty? && other.fields.any? &&
          other.fields.size < klass.fields.size && klass.fields.first(other.fields.size) == other.fields
      end
      return unless base

      klass.superclass = base.name
      klass.fields = klass.fields.drop(base.fields.size)
    end

    # Writes +klass+, after its superclass when that is generated too (Ruby needs it defined first).
    def write_in_order(klass, classes, written, out)
      return if written[klass.name]

      base = classes.find { |other| other.name == klass.superclass }
      write_in_order(base, classes, written, out) if base
      written[klass.name] = true
      out << "\n" << write_class(klass, "  ")
    end

    def words(list)
      "%w[#{list.join(" ")}]"
    end

    def object_class(name, schema, superclass)
      klass = Klass.new(name: name, superclass: superclass, schema: name, doc: schema["description"] || schema["title"], fields: [], nested: [])
      properties, required = object_properties(schema)
      properties.each do |key, property|
        klass.fields << field_spec(klass, key, property, required.include?(key))
      end
      klass
    end

    # Properties and required names of an object schema, or of the objects a oneOf/anyOf offers
    # (merged: every property of any, required when all require it; consts become an enum).
    def object_properties(schema)
      return [schema["properties"], schema["required"] || []] if schema["properties"]

      variants = object_variants(schema)
      properties = {}
      variants.each do |variant|
        variant["properties"].each do |key, property|
          next if property == false # a field this variant forbids (split: percent or amount, not both)

          properties[key] = properties.key?(key) ? merge_property(properties[key], property) : property
        end
      end
      required = variants.map { |variant| variant["required"] || [] }.reduce { |a, b| a & b } || []
      [properties, required]
    end

    def object_variants(schema)
      (schema["oneOf"] || schema["anyOf"] || []).map { |variant| resolve(variant) }.select { |variant| variant["properties"] }
    end

    def merge_property(first, second)
      consts = [first, second].map { |p| p.key?("const") ? [p["const"]] : p["enum"] }
      return { "type" => "string", "enum" => consts.flatten.uniq } if consts.all?

      first
    end

    def resolve(schema)
      ref = schema["$ref"]
      ref ? @schemas.fetch(ref.split("/").last) : schema
    end

    def field_spec(owner, key, property, required)
      type, of, nullable, enum = kind(owner, key, property)
      Spec.new(name: snake(key), key: key, type: type, of: of, required: required, nullable: nullable, enum: enum,
               doc: property["description"] || non_null(property).filter_map { |v| v["description"] }.first)
    end

    def non_null(property)
      variants = property["anyOf"] || property["oneOf"]
      variants ? variants.reject { |v| v["type"] == "null" } : [property]
    end

    # [type, of, nullable, enum] for one property; inline objects become nested classes of +owner+.
    def kind(owner, key, property, array_item: false)
      variants = property["anyOf"] || property["oneOf"]
      if variants && !property["properties"] && !property["type"]
        others = variants.reject { |v| v["type"] == "null" }
        nullable = others.size < variants.size
        if others.size == 1
          type, of, _, enum = kind(owner, key, others.first, array_item: array_item)
          return [type, of, nullable, enum]
        end
        if others.all? { |v| resolve(v)["properties"] }
          return [:record, nested(owner, key, property.merge("oneOf" => others).tap { |p| p.delete("anyOf") }, array_item), nullable, nil]
        end
        if others.all? { |v| v["type"] == "array" }
          type, of, = kind(owner, key, others.first, array_item: array_item)
          return [type, of, nullable, nil]
        end
        enum = others.flat_map { |v| v.key?("const") ? [v["const"]] : Array(v["enum"]) }
        return [:string, nil, nullable, enum.empty? ? nil : enum] if others.all? { |v| v.key?("const") || v["type"] == "string" }

        return [:any, nil, nullable, nil]
      end
      return [:record, property["$ref"].split("/").last, false, nil] if property["$ref"]
      return [json_type(property["const"]), nil, false, [property["const"]]] if property.key?("const")

      case property["type"]
      when "object"
        return [:record, nested(owner, key, property, array_item), false, nil] if property["properties"]

        [:any, nil, false, nil]
      when "array"
        items = property["items"]
        return [:array, :any, false, nil] unless items.is_a?(Hash)

        type, of, = kind(owner, key, items, array_item: true)
        [:array, type == :record ? of : type, false, nil]
      when "string", "integer", "number", "boolean"
        [property["type"].to_sym, nil, false, property["enum"]]
      else
        [:any, nil, false, nil]
      end
    end

    def json_type(value)
      case value
      when String then :string
      when Integer then :integer
      when Float then :number
      when true, false then :boolean
      else :any
      end
    end

    # A nested class for an inline object: Deposit::Split; an array's items by the singular
    # (Deposit::Transaction), or Entry when that is the owner's own name (Balance::Entry).
    def nested(owner, key, schema, array_item)
      base = pascal(key)
      if array_item
        base = base.sub(/ies\z/, "y").sub(/s\z/, "")
        base = "Entry" if base == owner.name.split("::").last
      end
      name = "#{owner.name}::#{base}"
      existing = owner.nested.find { |klass| klass.name == name }
      return name if existing

      klass = object_class(name, schema, "Record")
      klass.schema = nil
      owner.nested << klass
      name
    end

    def write_class(klass, indent)
      short = klass.name.split("::").last
      out = +""
      doc(klass.doc).each { |line| out << "#{indent}# #{line}\n" }
      out << "#{indent}class #{short} < #{klass.superclass}\n"
      out << "#{indent}  schema #{klass.schema.inspect}\n" if klass.schema
      klass.nested.each { |nested| out << write_class(nested, "#{indent}  ") << "\n" }
      fields = klass.fields
      event = event_declaration(klass)
      if event
        out << "#{indent}  #{event}\n"
        fields = fields.reject { |spec| %w[type data].include?(spec.name) }
      end
      fields.each do |spec|
        doc(spec.doc).each { |line| out << "#{indent}  # #{line}\n" }
        out << "#{indent}  #{declaration(spec)}\n"
      end
      out << "#{indent}end\n"
      out
    end

    # One field's line: its JSON type's declaration (see Cambio::Record), then only what differs
    # from the usual: another API name than the reader's camelCase, optional, null, its one value
    # (a const, or an enum of one) or its enum.
    def declaration(spec)
      args =
        if SCALARS.include?(spec.type)
          ["#{spec.type} #{spec.name.to_sym.inspect}"]
        elsif spec.type == :record
          ["record #{spec.name.to_sym.inspect}", spec.of.inspect]
        else
          ["array #{spec.name.to_sym.inspect}", "of: #{spec.of.inspect}"]
        end
      args << "key: #{spec.key.inspect}" unless camel(spec.name) == spec.key
      args << "optional: true" unless spec.required
      args << "null: true" if spec.nullable
      args << "hidden: true" if HIDDEN.include?(spec.name)
      if spec.enum&.all? { |v| v.is_a?(String) && v.match?(/\A\S+\z/) }
        args << (spec.enum.size == 1 ? "const: #{spec.enum.first.inspect}" : "enum: #{words(spec.enum)}")
      end
      args.join(", ")
    end

    # `event "deposit.completed", data: "Deposit"` for an event class whose type is its one const
    # and whose data is a record (Cambio::WebhookEvent.event declares both), else nil.
    def event_declaration(klass)
      return unless klass.event

      type = klass.fields.find { |spec| spec.name == "type" }
      data = klass.fields.find { |spec| spec.name == "data" }
      return unless type&.enum == [klass.event] && data&.type == :record && data.required && !data.nullable

      "event #{klass.event.inspect}, data: #{data.of.inspect}"
    end

    def doc(text)
      return [] if text.nil? || text.strip.empty?

      text.split("\n").map(&:rstrip).reject(&:empty?)
    end

    def snake(key)
      key.gsub(/([A-Z]+)([A-Z][a-z])/, '\1_\2').gsub(/([a-z\d])([A-Z])/, '\1_\2').downcase
    end

    # The API's name Cambio::Record gives a reader when its declaration names no +key:+.
    def camel(name)
      name.to_s.gsub(/_([a-z\d])/) { Regexp.last_match(1).upcase }
    end

    def pascal(key)
      key.sub(/\A[a-z]/, &:upcase).gsub(/_([a-z\d])/) { Regexp.last_match(1).upcase }
    end
  end
end

if $PROGRAM_NAME == __FILE__
  rendered = CambioTypes::Generator.render
  if ARGV.include?("--check")
    current = File.exist?(CambioTypes::OUTPUT) ? File.read(CambioTypes::OUTPUT) : ""
    if current == rendered
      puts "lib/cambio/types.rb matches openapi.json"
    else
      warn "lib/cambio/types.rb is not what openapi.json gives: run `ruby tools/generate_types.rb`"
      exit 1
    end
  else
    File.write(CambioTypes::OUTPUT, rendered)
    puts "wrote #{CambioTypes::OUTPUT}"
  end
end
