# frozen_string_literal: true

require_relative "test_helper"
require_relative "../tools/generate_types"

# lib/cambio/types.rb is generated from the repository's openapi.json by tools/generate_types.rb
# and committed: this fails when openapi.json changed and the types were not regenerated.
class TypesDriftTest < Minitest::Test
  OPENAPI = JSON.parse(File.read(CambioTypes::OPENAPI))

  def test_lib_cambio_types_rb_is_what_openapi_json_gives
    expected = CambioTypes::Generator.render(OPENAPI)
    actual = File.read(CambioTypes::OUTPUT)

    assert expected == actual,
           "lib/cambio/types.rb is not what openapi.json gives: run `ruby tools/generate_types.rb` in clients/ruby and commit it"
  end

  def test_every_schema_has_its_record_class_with_the_apis_fields
    OPENAPI.dig("components", "schemas").each do |name, schema|
      # The envelopes: ErrorResponse becomes ERROR_CODES, the success ones are unwrapped by the client.
      next if name == "ErrorResponse" || schema.dig("properties", "success")

      klass = Cambio.const_get(name)
      assert_operator klass, :<, Cambio::Record, name
      assert_equal name, klass.schema_name
      next unless schema["properties"]

      assert_equal schema["properties"].keys, klass.fields.values.map(&:key), name
      assert_equal (schema["required"] || []).sort, klass.fields.values.select(&:required).map(&:key).sort, name
    end
  end

  def test_the_error_codes_and_event_types_come_from_openapi_json
    assert_equal OPENAPI.dig("components", "schemas", "ErrorResponse", "properties", "error", "properties", "code", "enum"), Cambio::ERROR_CODES
    assert_equal OPENAPI.fetch("webhooks").keys.sort, Cambio::EVENT_TYPES.keys.sort
  end

  def test_the_envelopes_are_not_records
    %w[DepositResponse ConversionList ErrorResponse].each do |envelope|
      assert OPENAPI.dig("components", "schemas", envelope), envelope
      refute Cambio.const_defined?(envelope, false), envelope
    end
  end

  def test_a_changed_schema_changes_the_output
    changed = JSON.parse(JSON.generate(OPENAPI))
    changed.dig("components", "schemas", "Deposit", "properties")["memo"] = { "type" => "string" }
    changed.dig("components", "schemas", "Deposit", "properties")["memo_id"] = { "type" => "string" }

    refute_equal CambioTypes::Generator.render(OPENAPI), CambioTypes::Generator.render(changed)
    assert_includes CambioTypes::Generator.render(changed), "string :memo, optional: true"
    # A name that is not the reader's camelCase is given as it is.
    assert_includes CambioTypes::Generator.render(changed), 'string :memo_id, key: "memo_id", optional: true'
  end
end
