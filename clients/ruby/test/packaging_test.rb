# frozen_string_literal: true

require_relative "test_helper"
require "open3"
require "rbconfig"
require "tmpdir"

# The gem builds offline from cambio.gemspec, installs from the .gem alone, and loads from there
# with nothing else on the load path (standard library only).
class PackagingTest < Minitest::Test
  ROOT = File.expand_path("..", __dir__)

  def test_gem_build_and_install_offline_then_require
    Dir.mktmpdir("cambio-gem-") do |dir|
      gem = File.join(dir, "cambio-#{Cambio::VERSION}.gem")
      output, status = Open3.capture2e(Gem.ruby, "-S", "gem", "build", "cambio.gemspec", "--output", gem, chdir: ROOT)
      assert status.success?, output
      output, status = Open3.capture2e(Gem.ruby, "-S", "gem", "install", "--local", "--no-document", "--install-dir", File.join(dir, "gems"), gem)
      assert status.success?, output

      environment = { "GEM_HOME" => File.join(dir, "gems"), "GEM_PATH" => File.join(dir, "gems"), "RUBYOPT" => nil }
      script = 'require "cambio"; print Cambio::VERSION, " ", $LOADED_FEATURES.grep(%r{cambio/client}).first'
      output, status = Open3.capture2e(environment, Gem.ruby, "-e", script, chdir: dir)
      assert status.success?, output
      version, path = output.split(" ")
      assert_equal Cambio::VERSION, version
      assert path.start_with?(File.join(dir, "gems")), "loaded from the installed gem: #{path}"
    end
    assert_empty Gem::Specification.load(File.join(ROOT, "cambio.gemspec")).runtime_dependencies, "standard library only"
    assert_empty Dir.glob("*.gem", base: ROOT), "nothing left in the client's folder"
  end
end
