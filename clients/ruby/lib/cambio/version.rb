# frozen_string_literal: true

module Cambio
  # The client's version: the gemspec and the User-Agent read it from here.
  VERSION = "0.4.0"
end
