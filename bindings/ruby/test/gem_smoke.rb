# frozen_string_literal: true

# Run by gem_install_test.sh with GEM_HOME set: the installed gem, and not a
# build tree's copy, captures, fails, pipes and chroots.
require "tmpdir"
require_relative "minimal_root"

gem "brisk"
require "brisk/cheetah"

def check(what, expected, actual)
  abort "smoke #{what}: expected #{expected.inspect}, got #{actual.inspect}" unless expected == actual
end

home = File.realpath(ENV.fetch("GEM_HOME"))
ext = $LOADED_FEATURES.grep(%r{/brisk_ext\.so\z}).first
check "extension under GEM_HOME", true, ext.to_s.start_with?(home)

check "capture", "hi\n", Cheetah.run("echo", "hi", stdout: :capture)

begin
  Cheetah.run("sh", "-c", "echo bad >&2; exit 3")
  abort "smoke ExecutionFailed: nothing raised"
rescue Cheetah::ExecutionFailed => e
  check "ExecutionFailed", ['Execution of "sh -c echo\\ bad\\ \\>\\&2\\;\\ exit\\ 3" failed with status 3: bad.', 3, "bad\n"],
        [e.message, e.status.exitstatus, e.stderr]
end

check "pipeline", "a\nb\n", Cheetah.run(%w[printf b\na\n], %w[sort], stdout: :capture)

Dir.mktmpdir do |root|
  MinimalRoot.fill(root)
  File.write(File.join(root, "marker"), "inside\n")
  script = ["/bin/sh", "-c", "read line < /marker; echo $line"]
  if Process.euid.zero?
    check "chroot", "inside\n", Cheetah.run(*script, chroot: root, stdout: :capture)
  else
    # Unprivileged, chroot(2) fails, and that is an ExecutionFailed.
    failed = begin
      Cheetah.run(*script, chroot: root)
    rescue Cheetah::ExecutionFailed
      :failed
    end
    check "chroot refused", :failed, failed
  end
end
puts "smoke: #{ext}: ok"
