# frozen_string_literal: true

# 10,000 calls leave no descriptor and no child behind.
require "minitest/autorun"
require "brisk"

class LeakTest < Minitest::Test
  def open_fds
    Dir.children("/proc/self/fd").size
  end

  def test_no_leaked_fds_or_zombies_after_10_000_calls
    Brisk.run("true") # warm up: anything opened once and kept (e.g. /dev/null)
    before = open_fds
    5_000.times { Brisk.run("true") }
    2_500.times { Brisk.run("echo", "x", stdout: :capture, stderr: :capture) }
    2_500.times do
      Brisk.run("false")
    rescue Brisk::ExecutionFailed
      nil
    end
    assert_equal before, open_fds
    assert_raises(Errno::ECHILD) { Process.wait(-1, Process::WNOHANG) }
    children = Dir.glob("/proc/self/task/*/children").sum { |path| File.read(path).split.size }
    assert_equal 0, children
  end
end
