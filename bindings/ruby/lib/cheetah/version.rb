# frozen_string_literal: true

# Where Cheetah keeps its VERSION: the release whose interface brisk's
# drop-in mirrors.
module Cheetah
  VERSION = "1.0.0"
end
