# frozen_string_literal: true

require "minitest"

# A JUnit XML report for minitest, which has none built in: `--junit PATH` on the command line or
# JUNIT_XML=PATH in the environment. The conformance bridge (test/clients/ruby.test.ts) passes
# --junit and reads the file: <testsuite><testcase classname name time><failure message>...
module Minitest
  def self.plugin_junit_options(opts, options)
    opts.on("--junit PATH", "Write a JUnit XML report to PATH") { |path| options[:junit] = path }
  end

  def self.plugin_junit_init(options)
    path = options[:junit] || ENV.fetch("JUNIT_XML", nil)
    reporter << JunitReporter.new(path) if path && !path.empty?
  end

  # Collects every result and writes the report when the run ends.
  class JunitReporter < AbstractReporter
    def initialize(path)
      super()
      @path = path
      @results = []
      @started = nil
    end

    def start
      @started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    def record(result)
      @results << result
    end

    def report
      elapsed = @started ? Process.clock_gettime(Process::CLOCK_MONOTONIC) - @started : 0
      failures = @results.count { |r| !r.skipped? && r.failures.any? { |f| !f.is_a?(UnexpectedError) } }
      errors = @results.count { |r| r.failures.any? { |f| f.is_a?(UnexpectedError) } }
      skipped = @results.count(&:skipped?)
      xml = +%(<?xml version="1.0" encoding="UTF-8"?>\n)
      xml << %(<testsuites>\n)
      xml << %(<testsuite name="cambio-ruby" tests="#{@results.size}" failures="#{failures}" errors="#{errors}" skipped="#{skipped}" time="#{format("%.3f", elapsed)}">\n)
      @results.each { |result| xml << testcase(result) }
      xml << %(</testsuite>\n</testsuites>\n)
      File.write(@path, xml)
    end

    private

    def testcase(result)
      name = result.name.sub(/\Atest_/, "").tr("_", " ")
      open = %(  <testcase classname="#{escape(result.klass)}" name="#{escape(name)}" time="#{format("%.3f", result.time)}")
      failure = result.failures.first
      return "#{open}/>\n" if failure.nil?
      return "#{open}>\n    <skipped message=\"#{escape(failure.message)}\"/>\n  </testcase>\n" if result.skipped?

      tag = failure.is_a?(UnexpectedError) ? "error" : "failure"
      message = failure.is_a?(UnexpectedError) ? "#{failure.error.class}: #{failure.error.message}" : failure.message
      trace = Minitest.filter_backtrace(failure.backtrace || []).first(15).join("\n")
      "#{open}>\n    <#{tag} message=\"#{escape(message)}\">#{escape("#{message}\n#{trace}")}</#{tag}>\n  </testcase>\n"
    end

    def escape(text)
      text.to_s.dup.force_encoding(Encoding::UTF_8).scrub("?")
          .gsub(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/, "?")
          .gsub("&", "&amp;").gsub("<", "&lt;").gsub(">", "&gt;").gsub('"', "&quot;").gsub("'", "&apos;")
    end
  end
end
