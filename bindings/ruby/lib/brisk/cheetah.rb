# frozen_string_literal: true

# Drop-in for code written against the Cheetah gem: `require "brisk/cheetah"`
# instead of `require "cheetah"`, and Cheetah.run runs on brisk. The classes
# are Brisk's own, so `rescue Cheetah::ExecutionFailed` and
# `rescue Brisk::ExecutionFailed` catch the same errors, and
# Cheetah.default_options and Brisk.default_options are one setting. Once
# this is loaded, `require "cheetah"` (as yast2/execute.rb does) finds
# brisk's lib/cheetah.rb first and loads nothing more.
require "brisk"
require_relative "../cheetah/version"

module Cheetah
  ExecutionFailed = Brisk::ExecutionFailed
  Recorder = Brisk::Recorder
  NullRecorder = Brisk::NullRecorder
  DefaultRecorder = Brisk::DefaultRecorder
  BUILTIN_DEFAULT_OPTIONS = Brisk::BUILTIN_DEFAULT_OPTIONS
  # Cheetah's indexes into an IO.pipe pair; public constants there too.
  READ = 0
  WRITE = 1

  class << self
    def run(*args)
      Brisk.run(*args)
    end

    def default_options
      Brisk.default_options
    end

    def default_options=(options)
      Brisk.default_options = options
    end
  end
end
