# frozen_string_literal: true

require "json"
require "socket"

# A scripted HTTP/1.1 server on 127.0.0.1 (Ruby 3.1 has no WEBrick): each request is recorded and
# answered by the block, called with the request and its 1-based number. The block returns
# ScriptedServer.json(...) / .raw(...), :drop (close the connection without an answer),
# ScriptedServer.hang(seconds) (answer nothing for that long) or ScriptedServer.trickle(seconds,
# reply) (the reply's body 4 bytes at a time, +seconds+ apart). Each connection has its thread, so
# a hanging answer does not hold the next try.
class ScriptedServer
  Request = Struct.new(:method, :path, :headers, :body, :at, keyword_init: true) do
    # A header by name, case-insensitively.
    def [](name)
      headers.find { |key, _| key.casecmp?(name) }&.last
    end
  end

  Reply = Struct.new(:status, :headers, :body, :hang, :trickle, keyword_init: true)

  REASONS = { 200 => "OK", 201 => "Created", 204 => "No Content", 400 => "Bad Request", 401 => "Unauthorized", 404 => "Not Found",
              409 => "Conflict", 422 => "Unprocessable Entity", 429 => "Too Many Requests", 500 => "Internal Server Error",
              502 => "Bad Gateway", 503 => "Service Unavailable" }.freeze

  def self.json(status, body, headers = {})
    Reply.new(status: status, headers: { "Content-Type" => "application/json" }.merge(headers), body: JSON.generate(body))
  end

  def self.raw(status, body, headers = {})
    Reply.new(status: status, headers: headers, body: body)
  end

  def self.hang(seconds)
    Reply.new(hang: seconds)
  end

  # +reply+ with its body sent 4 bytes at a time, +seconds+ apart: an answer that dribbles in.
  def self.trickle(seconds, reply)
    reply.dup.tap { |slow| slow.trickle = seconds }
  end

  # A port nothing listens on: connections to it are refused.
  def self.closed_port
    server = TCPServer.new("127.0.0.1", 0)
    port = server.addr[1]
    server.close
    port
  end

  attr_reader :port

  # On +port+ when given (e.g. a closed_port that refused a try before), else on a free one.
  def initialize(port: 0, &script)
    @script = script
    @server = TCPServer.new("127.0.0.1", port)
    @port = @server.addr[1]
    @requests = []
    @lock = Mutex.new
    @threads = []
    @acceptor = Thread.new { accept_loop }
  end

  def url
    "http://127.0.0.1:#{@port}"
  end

  def requests
    @lock.synchronize { @requests.dup }
  end

  def stop
    @server.close unless @server.closed?
    @acceptor.kill
    @lock.synchronize { @threads.dup }.each(&:kill)
  end

  private

  def accept_loop
    loop do
      socket = @server.accept
      thread = Thread.new(socket) { |s| serve(s) }
      @lock.synchronize { @threads << thread }
    end
  rescue IOError, Errno::EBADF
    nil
  end

  def serve(socket)
    request = read_request(socket)
    return if request.nil?

    number = @lock.synchronize { @requests << request; @requests.size }
    reply = @script.call(request, number)
    if reply == :drop
      socket.setsockopt(Socket::SOL_SOCKET, Socket::SO_LINGER, [1, 0].pack("ii"))
      return
    end
    if reply.hang
      sleep(reply.hang)
      return
    end
    write_reply(socket, reply, number)
  rescue IOError, SystemCallError
    nil
  ensure
    socket.close unless socket.closed?
  end

  def read_request(socket)
    line = socket.gets("\r\n")
    return nil if line.nil?

    method, path = line.split(" ", 3)
    headers = []
    while (header = socket.gets("\r\n")) && header != "\r\n"
      name, value = header.chomp("\r\n").split(":", 2)
      headers << [name, value.to_s.strip]
    end
    lookup = ->(name) { headers.find { |key, _| key.casecmp?(name) }&.last }
    body =
      if lookup.call("transfer-encoding").to_s.casecmp?("chunked")
        read_chunked(socket)
      else
        socket.read(lookup.call("content-length").to_i).to_s
      end
    Request.new(method: method, path: path, headers: headers, body: body.b, at: Process.clock_gettime(Process::CLOCK_MONOTONIC))
  end

  def read_chunked(socket)
    body = +""
    loop do
      size = socket.gets("\r\n").to_s.split(";").first.to_i(16)
      if size.zero?
        while (trailer = socket.gets("\r\n")) && trailer != "\r\n"; end
        return body
      end
      body << socket.read(size)
      socket.read(2)
    end
  end

  def write_reply(socket, reply, number)
    body = reply.body.to_s.b
    headers = { "X-Request-Id" => "req-#{number}" }.merge(reply.headers || {})
    headers["Content-Length"] = body.bytesize.to_s
    headers["Connection"] = "close"
    head = "HTTP/1.1 #{reply.status} #{REASONS.fetch(reply.status, "Status")}\r\n"
    headers.each { |name, value| head << "#{name}: #{value}\r\n" unless value.nil? }
    socket.write(head + "\r\n")
    return socket.write(body) unless reply.trickle

    body.bytes.each_slice(4) do |piece|
      socket.write(piece.pack("C*"))
      socket.flush
      sleep(reply.trickle)
    end
  end
end
