# frozen_string_literal: true

require_relative "test_helper"
require "openssl"
require "socket"

# https is verified (a certificate that does not verify is a ConnectionError, not retried), and a
# client is shared safely between threads.
class TransportTest < Minitest::Test
  include CambioTest::Scripted

  # A TLS server on 127.0.0.1 with a self-signed certificate, counting the connections it accepts.
  def self_signed_server
    key = OpenSSL::PKey::EC.generate("prime256v1")
    cert = OpenSSL::X509::Certificate.new
    cert.version = 2
    cert.serial = 1
    cert.subject = cert.issuer = OpenSSL::X509::Name.parse("/CN=127.0.0.1")
    cert.public_key = key
    cert.not_before = Time.now - 60
    cert.not_after = Time.now + 3600
    cert.sign(key, OpenSSL::Digest.new("SHA256"))
    context = OpenSSL::SSL::SSLContext.new
    context.cert = cert
    context.key = key
    tcp = TCPServer.new("127.0.0.1", 0)
    server = OpenSSL::SSL::SSLServer.new(tcp, context)
    accepted = Queue.new
    thread = Thread.new do
      loop do
        socket = tcp.accept
        accepted << 1
        Thread.new(socket) do |raw|
          ssl = OpenSSL::SSL::SSLSocket.new(raw, context)
          ssl.accept
        rescue OpenSSL::SSL::SSLError, SystemCallError, IOError
          nil
        ensure
          raw.close
        end
      end
    rescue IOError, Errno::EBADF
      nil
    end
    [tcp.addr[1], accepted, -> { server.close; thread.kill }]
  end

  def test_an_untrusted_certificate_is_a_connection_error_and_not_retried
    port, accepted, stop = self_signed_server
    cambio = Cambio::Client.new(api_key: "k", api_secret: "s", base_url: "https://127.0.0.1:#{port}/v1", **CambioTest::FAST)

    error = assert_raises(Cambio::ConnectionError) { cambio.company.get }

    assert_equal "CONNECTION_FAILED", error.code
    assert_match(/TLS certificate did not verify/, error.message)
    assert_kind_of OpenSSL::SSL::SSLError, error.cause
    sleep 0.05
    assert_equal 1, accepted.size, "one try only"
  ensure
    stop&.call
  end

  def test_one_client_is_shared_by_many_threads
    serve { |request, n| ok({ "id" => "wdr_#{n}", "reference" => JSON.parse(request.body)["reference"] }, status: 201) }
    cambio = client

    results = Array.new(8) do |t|
      Thread.new do
        Array.new(5) do |i|
          cambio.withdrawals.create(**CambioTest::WITHDRAWAL_PARAMS, reference: "t#{t}-#{i}").reference
        end
      end
    end.flat_map(&:value)

    assert_equal 40, results.size
    assert_equal 40, results.uniq.size
    assert_equal 40, @server.requests.map { |r| r["Idempotency-Key"] }.uniq.size, "a key per call"
    assert_predicate cambio, :frozen?
  end
end
