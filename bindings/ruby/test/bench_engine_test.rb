# frozen_string_literal: true

# Brisk::Native.bench_engine, the engine-alone contender of bench/bench.rb:
# it must really run the program `count` times, in both modes, and refuse
# what it cannot run.
require "minitest/autorun"
require "tmpdir"
require "brisk"

class BenchEngineTest < Minitest::Test
  # A program that leaves one line in `path` per run, and writes to both
  # streams so that the captured mode has output to drain.
  def appender(path)
    ["/bin/sh", "-c", 'echo run >> "$0"; echo out; echo err >&2', path]
  end

  def runs_recorded(capture, count)
    Dir.mktmpdir do |dir|
      path = File.join(dir, "runs")
      seconds = Brisk::Native.bench_engine(appender(path), count, capture)
      assert_kind_of Float, seconds
      assert_operator seconds, :>, 0
      return File.readlines(path).size
    end
  end

  def test_bare_runs_the_program_count_times
    assert_equal 7, runs_recorded(false, 7)
  end

  def test_captured_runs_the_program_count_times
    assert_equal 5, runs_recorded(true, 5)
  end

  def test_leaves_no_descriptor_or_child
    # Warm up: what is opened once and kept (the pooled Wakeup's eventfd, /dev/null).
    Brisk::Native.bench_engine(["true"], 1, false)
    Brisk::Native.bench_engine(["true"], 1, true)
    before = Dir.children("/proc/self/fd").size
    Brisk::Native.bench_engine(["true"], 20, false)
    Brisk::Native.bench_engine(["true"], 20, true)
    assert_equal before, Dir.children("/proc/self/fd").size
    assert_raises(Errno::ECHILD) { Process.wait(-1, Process::WNOHANG) }
  end

  def test_a_program_that_cannot_start_raises_its_errno
    [false, true].each do |capture|
      error = assert_raises(Errno::ENOENT) { Brisk::Native.bench_engine(["/nonexistent/x"], 3, capture) }
      assert_includes error.message, "/nonexistent/x"
    end
  end

  def test_a_failing_run_stops_the_loop_and_raises
    Dir.mktmpdir do |dir|
      path = File.join(dir, "runs")
      [false, true].each do |capture|
        error = assert_raises(RuntimeError) do
          Brisk::Native.bench_engine(["/bin/sh", "-c", 'echo run >> "$0"; exit 3', path], 4, capture)
        end
        assert_includes error.message, "exit code 3"
      end
      assert_equal 2, File.readlines(path).size # one run per mode, then it stopped
    end
  end

  def test_argument_errors
    assert_raises(TypeError) { Brisk::Native.bench_engine("true", 1, false) }
    assert_raises(ArgumentError) { Brisk::Native.bench_engine([], 1, false) }
    assert_raises(TypeError) { Brisk::Native.bench_engine(["true", 1], 1, false) }
    assert_raises(ArgumentError) { Brisk::Native.bench_engine(["tr\0ue"], 1, false) }
    assert_raises(TypeError) { Brisk::Native.bench_engine(["true"], "1", false) }
    assert_raises(TypeError) { Brisk::Native.bench_engine(["true"], 1.5, false) }
    assert_raises(ArgumentError) { Brisk::Native.bench_engine(["true"], 0, false) }
    assert_raises(ArgumentError) { Brisk::Native.bench_engine(["true"], -2, true) }
    assert_raises(TypeError) { Brisk::Native.bench_engine(["true"], 1, nil) }
    assert_raises(TypeError) { Brisk::Native.bench_engine(["true"], 1, :capture) }
  end

  def test_interrupt_stops_the_loop
    thread = Thread.new { Brisk::Native.bench_engine(["sleep", "0.05"], 1_000_000, true) }
    thread.report_on_exception = false
    sleep 0.2
    thread.raise(Interrupt)
    assert_raises(Interrupt) { thread.join(10) } # nil (no raise) if still running
  end
end
