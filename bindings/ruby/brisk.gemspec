# frozen_string_literal: true

# Build and install from a brisk checkout (see ext/brisk/extconf.rb):
#   cd bindings/ruby && gem build brisk.gemspec && gem install --local brisk-*.gem
Gem::Specification.new do |spec|
  spec.name = "brisk"
  spec.version = File.read(File.join(__dir__, "lib/brisk.rb"))[/VERSION = "([^"]+)"/, 1]
  spec.summary = "Run commands with Cheetah's interface on brisk's vfork-speed spawn engine"
  spec.description = "Brisk.run is a drop-in for Cheetah.run (require \"brisk/cheetah\") that spawns " \
                     "through clone3(CLONE_VM|CLONE_VFORK) and pidfds, as fast as root as unprivileged, " \
                     "and releases the GVL while the command runs."
  spec.authors = ["brisk authors"]
  spec.required_ruby_version = ">= 3.0"
  spec.files = Dir["lib/**/*.rb", "ext/brisk/*.{cc,h,rb}", "test/*.rb", "bench/*.rb", "brisk.gemspec"]
  spec.require_paths = ["lib"]
  spec.extensions = ["ext/brisk/extconf.rb"]
end
