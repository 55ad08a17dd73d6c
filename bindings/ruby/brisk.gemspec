# frozen_string_literal: true

require "fileutils"

# `gem build brisk.gemspec` in a brisk checkout packs libbrisk's sources
# (vendor/libbrisk, staged afresh from the tree at each build and ignored by
# git), so that the gem installs anywhere: ext/brisk/extconf.rb links an
# installed libbrisk found through pkg-config, or builds the packed one.
# BRISK_ROOT names the tree when this directory is a copy outside it.
module BriskGemSources
  # What libbrisk's library-only CMake build reads.
  PATTERNS = ["CMakeLists.txt", "cmake/*", "include/**/*.h", "src/CMakeLists.txt",
              "src/{sys,spawn,command,netlink}/**/*.{cc,h,S}"].freeze

  def self.stage(tree, into)
    FileUtils.rm_rf(into)
    Dir.chdir(tree) { Dir.glob(PATTERNS) }.each do |path|
      FileUtils.mkdir_p(File.join(into, File.dirname(path)))
      FileUtils.cp(File.join(tree, path), File.join(into, path))
    end
  end
end

Gem::Specification.new do |spec|
  spec.name = "brisk"
  spec.version = File.read(File.join(__dir__, "lib/brisk.rb"))[/VERSION = "([^"]+)"/, 1]
  spec.summary = "Run commands with Cheetah's interface on brisk's vfork-speed spawn engine"
  spec.description = "Brisk.run is a drop-in for Cheetah.run (require \"brisk/cheetah\") that spawns " \
                     "through clone3(CLONE_VM|CLONE_VFORK) and pidfds, as fast as root as unprivileged, " \
                     "and releases the GVL while the command runs."
  spec.authors = ["brisk authors"]
  spec.required_ruby_version = ">= 3.0"

  tree = ENV["BRISK_ROOT"] || File.expand_path("../..", __dir__)
  vendor = File.join(__dir__, "vendor/libbrisk")
  BriskGemSources.stage(tree, vendor) if File.exist?(File.join(tree, "src/CMakeLists.txt"))

  spec.files = Dir.chdir(__dir__) do
    Dir["lib/**/*.rb", "ext/brisk/*.{cc,h,rb}", "test/*.rb", "bench/*.rb", "brisk.gemspec", "README.md"] +
      Dir["vendor/libbrisk/**/*"].select { |path| File.file?(path) }
  end
  spec.require_paths = ["lib"]
  spec.extensions = ["ext/brisk/extconf.rb"]
end
