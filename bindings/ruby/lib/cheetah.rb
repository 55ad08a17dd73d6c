# frozen_string_literal: true

# `require "cheetah"` for code written against the Cheetah gem (YaST's
# yast2/execute.rb among it): with brisk's gem on the load path first, the
# Cheetah module is brisk's drop-in.
require "brisk/cheetah"
