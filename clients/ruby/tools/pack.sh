#!/usr/bin/env bash
# The Ruby client's release artifact: the .gem that `gem build cambio.gemspec` makes, written into
# the folder given ($1) under the name RubyGems gives it (cambio-usdt-<version>.gem). Run by
# `npm run clients:pack` (clients/release/pack.ts) from clients/ruby.
set -euo pipefail
out="${1:?usage: tools/pack.sh <absolute output folder>}"
file="$(ruby -e 'print Gem::Specification.load("cambio.gemspec").file_name')"
gem build cambio.gemspec --output "$out/$file"
