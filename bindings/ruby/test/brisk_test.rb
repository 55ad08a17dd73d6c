# frozen_string_literal: true

# The Brisk suite. With BRISK_TEST_MODULE=Cheetah the same tests run through
# `require "brisk/cheetah"` and the Cheetah module, as code written for the
# Cheetah gem would call it.
require "minitest/autorun"
require "logger"
require "stringio"
require "tmpdir"
require "fileutils"
require_relative "minimal_root"

if ENV["BRISK_TEST_MODULE"] == "Cheetah"
  require "brisk/cheetah"
  M = Cheetah
else
  require "brisk"
  M = Brisk
end

def root?
  Process.euid.zero?
end

class RunFormsTest < Minitest::Test
  def test_program_and_arguments
    assert_equal "a b\n", M.run("echo", "a", "b", stdout: :capture)
  end

  def test_one_array
    assert_equal "a b\n", M.run(%w[echo a b], stdout: :capture)
  end

  def test_options_as_a_trailing_hash
    assert_equal "a\n", M.run("echo", "a", { stdout: :capture })
  end

  def test_pipeline
    assert_equal "B\n", M.run(%w[echo b], %w[tr a-z A-Z], stdout: :capture)
  end

  def test_pipeline_of_three
    assert_equal "3\n", M.run(%w[printf a\nb\nc\n], %w[cat], %w[wc -l], stdout: :capture)
  end

  def test_non_string_arguments_use_to_s
    assert_equal "1 x 2.5\n", M.run("echo", 1, :x, 2.5, stdout: :capture)
  end

  def test_nil_argument_is_an_argument_error
    assert_raises(ArgumentError) { M.run("echo", nil) }
    assert_raises(ArgumentError) { M.run(["echo", nil]) }
  end

  def test_nul_byte_is_an_argument_error
    assert_raises(ArgumentError) { M.run("echo", "a\0b") }
    assert_raises(ArgumentError) { M.run("echo", env: { "A" => "x\0y" }) }
  end

  def test_unknown_options_are_named
    error = assert_raises(ArgumentError) { M.run("true", stdot: :capture, bogus: 1) }
    assert_includes error.message, ":stdot"
    assert_includes error.message, ":bogus"
  end

  def test_no_command
    assert_raises(ArgumentError) { M.run }
  end
end

class ReturnValueTest < Minitest::Test
  SCRIPT = ["sh", "-c", "echo out; echo err >&2; exit ${CODE:-0}"].freeze

  def test_nothing_captured_returns_nil
    assert_nil M.run(*SCRIPT)
  end

  def test_stdout_captured
    assert_equal "out\n", M.run(*SCRIPT, stdout: :capture)
  end

  def test_stderr_captured
    assert_equal "err\n", M.run(*SCRIPT, stderr: :capture)
  end

  def test_both_captured
    assert_equal ["out\n", "err\n"], M.run(*SCRIPT, stdout: :capture, stderr: :capture)
  end

  def test_allowed_exitstatus_integer_alone_returns_the_status
    assert_equal 3, M.run(*SCRIPT, allowed_exitstatus: 3, env: { "CODE" => "3" })
    assert_equal 0, M.run(*SCRIPT, allowed_exitstatus: 3)
  end

  def test_allowed_exitstatus_range_appends_the_status
    assert_equal ["out\n", 4], M.run(*SCRIPT, stdout: :capture, allowed_exitstatus: 1..5, env: { "CODE" => "4" })
  end

  def test_allowed_exitstatus_array_with_both_streams
    assert_equal ["out\n", "err\n", 7],
                 M.run(*SCRIPT, stdout: :capture, stderr: :capture, allowed_exitstatus: [7, 9], env: { "CODE" => "7" })
  end

  def test_empty_array_appends_nothing
    assert_equal "out\n", M.run(*SCRIPT, stdout: :capture, allowed_exitstatus: [])
  end

  def test_status_outside_the_allowed_set_fails
    error = assert_raises(M::ExecutionFailed) { M.run(*SCRIPT, allowed_exitstatus: 1..2, env: { "CODE" => "3" }) }
    assert_equal 3, error.status.exitstatus
  end

  def test_sets_last_status
    M.run("sh", "-c", "exit 0")
    assert_instance_of Process::Status, $?
    assert_equal 0, $?.exitstatus
  end
end

class StreamsTest < Minitest::Test
  def test_stdin_string
    assert_equal "hello", M.run("cat", stdin: "hello", stdout: :capture)
  end

  def test_stdin_nil_is_empty
    assert_equal "", M.run("cat", stdin: nil, stdout: :capture)
  end

  def test_stdin_stringio
    assert_equal "from io\n", M.run("cat", stdin: StringIO.new("from io\n"), stdout: :capture)
  end

  def test_stdin_file
    Dir.mktmpdir do |dir|
      path = File.join(dir, "in")
      File.write(path, "x" * 200_000)
      File.open(path) { |file| assert_equal "200000\n", M.run(%w[wc -c], stdin: file, stdout: :capture) }
    end
  end

  def test_stdout_and_stderr_to_io
    out = StringIO.new(+"")
    err = StringIO.new(+"")
    assert_nil M.run("sh", "-c", "echo o; echo e >&2", stdout: out, stderr: err)
    assert_equal "o\n", out.string
    assert_equal "e\n", err.string
  end

  def test_stdout_to_file
    Dir.mktmpdir do |dir|
      path = File.join(dir, "out")
      File.open(path, "w") { |file| M.run("echo", "to file", stdout: file) }
      assert_equal "to file\n", File.read(path)
    end
  end

  def test_big_outputs_on_both_streams
    script = "head -c 8000000 /dev/zero; head -c 9000000 /dev/zero >&2; head -c 7000000 /dev/zero"
    out, err = M.run("sh", "-c", script, stdout: :capture, stderr: :capture)
    assert_equal 15_000_000, out.bytesize
    assert_equal 9_000_000, err.bytesize
  end

  def test_big_stdin_and_stdout_together
    data = "y" * 5_000_000
    assert_equal data, M.run("cat", stdin: data, stdout: :capture)
  end

  def test_raising_io_propagates_and_leaves_no_child
    sink = Object.new
    def sink.write(_data) = raise(IOError, "sink broke")
    error = assert_raises(IOError) { M.run("yes", stdout: sink) }
    assert_equal "sink broke", error.message
    assert_raises(Errno::ECHILD) { Process.wait(-1, Process::WNOHANG) }
  end
end

class ExecutionFailedTest < Minitest::Test
  def test_no_error_output
    error = assert_raises(M::ExecutionFailed) { M.run("false") }
    assert_equal 'Execution of "false" failed with status 1 (no error output).', error.message
    assert_equal [["false"]], error.commands
    assert_instance_of Process::Status, error.status
    assert_equal 1, error.status.exitstatus
    assert_equal "", error.stdout
    assert_equal "", error.stderr
  end

  def test_first_stderr_line
    error = assert_raises(M::ExecutionFailed) { M.run("sh", "-c", "echo out; echo bad >&2; exit 2") }
    assert_equal %(Execution of "sh -c echo\\ out\\;\\ echo\\ bad\\ \\>\\&2\\;\\ exit\\ 2" failed with status 2: bad.),
                 error.message
    assert_equal "out\n", error.stdout
    assert_equal "bad\n", error.stderr
  end

  def test_several_stderr_lines
    error = assert_raises(M::ExecutionFailed) { M.run("sh", "-c", "echo one >&2; echo two >&2; exit 1") }
    assert_match(/failed with status 1: one \(\.\.\.\)\.\z/, error.message)
  end

  def test_stderr_streamed_away
    err = StringIO.new(+"")
    out = StringIO.new(+"")
    error = assert_raises(M::ExecutionFailed) { M.run("sh", "-c", "echo e >&2; exit 1", stderr: err, stdout: out) }
    assert_match(/failed with status 1 \(error output streamed away\)\.\z/, error.message)
    assert_nil error.stdout
    assert_nil error.stderr
    assert_equal "e\n", err.string
  end

  def test_missing_program
    error = assert_raises(M::ExecutionFailed) { M.run("/nonexistent/brisk-prog", "a") }
    assert_equal 'Execution of "/nonexistent/brisk-prog a" failed with status 127: ' \
                 "No such file or directory - /nonexistent/brisk-prog.", error.message
    assert_equal 127, error.status.exitstatus
    assert_instance_of Process::Status, error.status
  end

  def test_missing_program_with_stderr_to_an_io
    err = StringIO.new(+"")
    error = assert_raises(M::ExecutionFailed) { M.run("/nonexistent/brisk-prog", stderr: err) }
    assert_match(/failed with status 127 \(error output streamed away\)\.\z/, error.message)
    assert_equal "No such file or directory - /nonexistent/brisk-prog\n", err.string
  end

  def test_uncaptured_output_is_kept_whole_for_the_error
    error = assert_raises(M::ExecutionFailed) { M.run("sh", "-c", "head -c 3000000 /dev/zero; exit 1") }
    assert_equal 3_000_000, error.stdout.bytesize
  end

  def test_signal_death
    error = assert_raises(M::ExecutionFailed) { M.run("sh", "-c", "kill -9 $$") }
    assert error.status.signaled?
    assert_equal 9, error.status.termsig
    assert_match(/failed with signal 9 \(SIGKILL\)/, error.message)
  end

  def test_signal_death_with_allowed_exitstatus
    assert_raises(M::ExecutionFailed) { M.run("sh", "-c", "kill -TERM $$", allowed_exitstatus: 0..255) }
  end

  def test_pipeline_error_in_the_middle
    # The last command decides, as in Cheetah and a shell.
    assert_equal "x\n", M.run(%w[echo x], ["sh", "-c", "cat; echo mid >&2; exit 3"], %w[cat], stdout: :capture)
    error = assert_raises(M::ExecutionFailed) do
      M.run(%w[echo x], ["sh", "-c", "cat; echo mid >&2; exit 3"], %w[cat], stdout: :capture, pipefail: true)
    end
    assert_equal 3, error.status.exitstatus
    assert_equal [%w[echo x], ["sh", "-c", "cat; echo mid >&2; exit 3"], %w[cat]], error.commands
    assert_equal "x\n", error.stdout
    assert_match(/ \| cat" failed with status 3: mid\.\z/, error.message)
  end

  def test_pipeline_last_command_fails
    error = assert_raises(M::ExecutionFailed) { M.run(%w[echo x], ["sh", "-c", "exit 5"]) }
    assert_equal 5, error.status.exitstatus
  end
end

class LoggingTest < Minitest::Test
  def log_of
    io = StringIO.new(+"")
    logger = Logger.new(io)
    logger.formatter = ->(severity, _time, _prog, message) { "#{severity} #{message}\n" }
    yield logger
    io.string.lines.map(&:chomp)
  end

  def test_success
    lines = log_of { |logger| M.run("sh", "-c", "echo a; echo b; echo e >&2", stdin: "in\n", logger: logger) }
    assert_equal ['INFO Executing "sh -c echo\\ a\\;\\ echo\\ b\\;\\ echo\\ e\\ \\>\\&2".',
                  "INFO Standard input: in"], lines.first(2)
    assert_includes lines, "INFO Standard output: a"
    assert_includes lines, "INFO Standard output: b"
    assert_includes lines, "ERROR Error output: e"
    assert_equal "INFO Status: 0", lines.last
    assert_operator lines.index("INFO Standard output: a"), :<, lines.index("INFO Standard output: b")
  end

  def test_failure
    lines = log_of do |logger|
      assert_raises(M::ExecutionFailed) { M.run("sh", "-c", "printf partial; exit 2", logger: logger) }
    end
    assert_equal ['INFO Executing "sh -c printf\\ partial\\;\\ exit\\ 2".', "INFO Standard output: partial",
                  "ERROR Status: 2"], lines
  end

  def test_default_recorder_reused
    lines = log_of do |logger|
      recorder = M::DefaultRecorder.new(logger)
      2.times { M.run("cat", stdin: "tail", recorder: recorder) }
    end
    assert_equal 2, lines.count("INFO Standard input: tail")
  end

  def test_default_options_logger
    lines = log_of do |logger|
      M.default_options = { logger: logger }
      M.run("true")
    ensure
      M.default_options = {}
    end
    assert_equal ['INFO Executing "true".', "INFO Status: 0"], lines
  end

  def test_custom_recorder
    recorder = Class.new(M::Recorder) do
      attr_reader :events

      def initialize
        super
        @events = []
      end

      def record_commands(commands) = @events << [:commands, commands]
      def record_stdin(stdin) = @events << [:stdin, stdin]
      def record_stdout(stdout) = @events << [:stdout, stdout]
      def record_stderr(stderr) = @events << [:stderr, stderr]
      def record_status(status) = @events << [:status, status.exitstatus]
    end.new
    M.run("cat", stdin: "x\ny\n", recorder: recorder)
    # cat writes what it read in one piece, and the recorder sees that piece
    # as Cheetah's does, not brisk's lines.
    assert_equal [[:commands, [["cat"]]], [:stdin, "x\ny\n"], [:stdout, "x\ny\n"], [:status, 0]],
                 recorder.events
  end
end

# A call of String words and no options takes a shorter path in run (no
# option hashes built); it must behave exactly as the general path does,
# which an explicit empty options hash forces.
class PlainCallTest < Minitest::Test
  def failure_of(*args)
    M.run(*args)
  rescue M::ExecutionFailed => e
    [e.class, e.message, e.commands, e.status.exitstatus, e.stdout, e.stderr]
  end

  def test_success_is_the_same
    assert_nil M.run("true")
    assert_nil M.run("true", {})
  end

  def test_failure_is_the_same
    script = "echo out; echo err >&2; exit 3"
    plain = failure_of("sh", "-c", script)
    assert_equal [M::ExecutionFailed, "Execution of #{Brisk.format_commands([["sh", "-c", script]])} failed with status 3: err.",
                  [["sh", "-c", script]], 3, "out\n", "err\n"], plain
    assert_equal failure_of("sh", "-c", script, {}), plain
  end

  def test_missing_program_is_the_same
    plain = failure_of("/nonexistent/brisk-plain")
    assert_equal 127, plain[3]
    assert_equal failure_of("/nonexistent/brisk-plain", {}), plain
  end

  def test_nul_byte_is_the_same_argument_error
    plain = assert_raises(ArgumentError) { M.run("echo", "a\0b") }
    general = assert_raises(ArgumentError) { M.run("echo", "a\0b", {}) }
    assert_equal general.message, plain.message
  end

  def test_string_subclass_words_take_the_general_path
    word = Class.new(String) { def to_s = "converted" }.new("raw")
    assert_equal "converted\n", M.run("echo", word, stdout: :capture)
    assert_nil M.run("sh", "-c", 'test "$0" = converted', word)
  end
end

class OptionsTest < Minitest::Test
  def test_env_sets_and_nil_unsets
    ENV["BRISK_RB_GONE"] = "present"
    out = M.run("sh", "-c", 'echo "${BRISK_RB_NEW}-${BRISK_RB_GONE:-unset}"',
                env: { "BRISK_RB_NEW" => "new", "BRISK_RB_GONE" => nil }, stdout: :capture)
    assert_equal "new-unset\n", out
    assert_equal "present", ENV["BRISK_RB_GONE"]
  ensure
    ENV.delete("BRISK_RB_GONE")
  end

  def test_default_options_merge_under_call_options
    M.default_options = { stdout: :capture, env: { "X" => "default" } }
    assert_equal "default\n", M.run("sh", "-c", "echo $X")
    assert_equal "call\n", M.run("sh", "-c", "echo $X", env: { "X" => "call" })
  ensure
    M.default_options = {}
  end

  def test_unknown_default_option
    assert_raises(ArgumentError) { M.default_options = { nope: 1 } }
  end

  def test_chroot_into_a_minimal_root
    skip "chroot needs root" unless root?
    Dir.mktmpdir do |root|
      MinimalRoot.fill(root)
      File.write(File.join(root, "marker"), "inside\n")
      out = M.run("/bin/sh", "-c", "read line < /marker; echo $line; echo $PWD", chroot: root, stdout: :capture)
      assert_equal "inside\n/\n", out
    end
  end

  def test_chroot_slash_is_no_chroot
    assert_equal "/\n", M.run("pwd", chroot: "/", cwd: "/", stdout: :capture)
  end

  def test_cwd
    Dir.mktmpdir do |dir|
      assert_equal "#{File.realpath(dir)}\n", M.run("pwd", cwd: dir, stdout: :capture)
    end
  end

  def test_bad_cwd_fails
    assert_raises(M::ExecutionFailed) { M.run("pwd", cwd: "/nonexistent/dir") }
  end

  def test_timeout_terminates
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    error = assert_raises(Brisk::TimedOut) { M.run("sleep", "30", timeout: 0.2) }
    assert_kind_of M::ExecutionFailed, error
    assert_equal 15, error.status.termsig
    assert_match(/timed out after 0\.2 s \(signal 15 \(SIGTERM\)\)/, error.message)
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, 10
  end

  def test_timeout_then_kill
    # The shell must ignore SIGTERM before the deadline: a generous one, so a
    # loaded machine does not turn this into a plain SIGTERM death.
    script = "trap '' TERM; echo ready; sleep 30"
    error = assert_raises(Brisk::TimedOut) { M.run("sh", "-c", script, timeout: 1.5, kill_after: 0.2) }
    assert_equal 9, error.status.termsig
    assert_equal "ready\n", error.stdout
  end

  def test_umask
    assert_equal "0027\n", M.run("sh", "-c", "umask", umask: 0o027, stdout: :capture)
  end

  def test_user_and_group
    skip "changing user needs root" unless root?
    assert_equal "65534 65534\n", M.run("sh", "-c", 'echo "$(id -u) $(id -g)"', user: "nobody", group: 65_534,
                                                                             stdout: :capture)
  end

  def test_group_only
    skip "changing group needs root" unless root?
    assert_equal "0 65534\n", M.run("sh", "-c", 'echo "$(id -u) $(id -g)"', group: "65534", stdout: :capture)
  end

  def test_unknown_user
    assert_raises(ArgumentError) { M.run("true", user: "no-such-user-brisk") }
  end

  def test_netns
    skip "netns needs root and ip" unless root? && system("ip netns add brisk-rb-test", err: File::NULL)
    begin
      ours = File.readlink("/proc/self/ns/net")
      theirs = M.run("readlink", "/proc/self/ns/net", netns: "brisk-rb-test", stdout: :capture).chomp
      refute_equal ours, theirs
      assert_equal File.stat("/run/netns/brisk-rb-test").ino.to_s, theirs[/\d+/]
    ensure
      system("ip netns delete brisk-rb-test")
    end
  end

  def test_pipefail_with_all_allowed_takes_the_last
    assert_nil M.run(%w[echo x], %w[cat], pipefail: true)
  end
end

class ThreadsTest < Minitest::Test
  def test_other_threads_run_while_a_child_runs
    ticks = 0
    stop = false
    ticker = Thread.new do
      until stop
        ticks += 1
        sleep 0.01
      end
    end
    M.run("sleep", "0.5")
    stop = true
    ticker.join
    # Holding the GVL for 0.5 s would allow at most a tick or two.
    assert_operator ticks, :>, 10
  end

  def test_thread_raise_interrupts_the_command_and_leaves_no_child
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    worker = Thread.new do
      M.run("sleep", "30")
      :finished
    rescue RuntimeError => e
      e.message
    end
    sleep 0.1
    worker.raise(RuntimeError, "interrupted")
    assert_equal "interrupted", worker.value
    # Far below sleep's 30 s: the child was killed, not waited for.
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, 20
    assert_raises(Errno::ECHILD) { Process.wait(-1, Process::WNOHANG) }
  end

  def test_timeout_module_interrupts_the_command
    require "timeout"
    assert_raises(Timeout::Error) { Timeout.timeout(0.2) { M.run("sleep", "30") } }
    assert_raises(Errno::ECHILD) { Process.wait(-1, Process::WNOHANG) }
  end

  def test_a_trap_that_raises_nothing_does_not_disturb_the_command
    trapped = 0
    old = trap("USR1") { trapped += 1 }
    signaller = Thread.new do
      sleep 0.1
      Process.kill("USR1", Process.pid)
    end
    out = M.run("sh", "-c", "sleep 0.4; echo done", stdout: :capture)
    signaller.join
    assert_equal "done\n", out
    assert_equal 1, trapped
  ensure
    trap("USR1", old || "DEFAULT")
  end

  def test_callbacks_survive_gc_stress
    out = StringIO.new(+"")
    GC.stress = true
    M.run("printf", "a\\nb\\n", stdout: out, stdin: StringIO.new("in"), recorder: M::Recorder.new)
    GC.stress = false
    assert_equal "a\nb\n", out.string
  ensure
    GC.stress = false
  end

  def test_runs_from_many_threads
    results = 4.times.map { |i| Thread.new { M.run("echo", i.to_s, stdout: :capture) } }.map(&:value)
    assert_equal %W[0\n 1\n 2\n 3\n], results
  end

  # Each run in progress needs a Wakeup of its own: a run started from a
  # callback of another, and interrupted, must not leave the outer one
  # waiting for ever nor be woken by it.
  def test_a_run_inside_a_callback_of_another
    inner = Object.new
    def inner.write(chunk)
      (@seen ||= +"") << M.run("tr", "a-z", "A-Z", stdin: chunk, stdout: :capture)
      chunk.bytesize
    end
    def inner.seen = @seen
    M.run("sh", "-c", "echo one; sleep 0.1; echo two", stdout: inner)
    assert_equal "ONE\nTWO\n", inner.seen
    worker = Thread.new { M.run("sh", "-c", "echo x; exec sleep 30", stdout: inner) }
    sleep 0.3
    worker.raise(RuntimeError, "stop")
    assert_raises(RuntimeError) { worker.join }
    assert_equal "ONE\nTWO\nX\n", inner.seen
    assert_equal "y\n", M.run("echo", "y", stdout: :capture)
  end
end

# A program with only its main thread takes another path through Ruby: the
# signal handler itself calls the unblocking function. Each test runs in a
# fresh Ruby, where no thread of another test can be alive.
class MainThreadOnlyTest < Minitest::Test
  LOAD_DIRS = $LOADED_FEATURES.grep(%r{/brisk(/brisk_ext\.so|\.rb)\z}).map { |path| File.dirname(path).delete_suffix("/brisk") }.uniq

  def run_alone(script)
    prelude = "require 'brisk'; abort 'not alone' unless Thread.list.size == 1\n"
    M.run(RbConfig.ruby, *LOAD_DIRS.flat_map { |dir| ["-I", dir] }, "-e", prelude + script, stdout: :capture)
  end

  def test_ctrl_c_stops_the_command_at_once
    out = run_alone(<<~RUBY)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      begin
        Brisk.run("sh", "-c", "kill -INT $PPID; exec sleep 10")
        puts "finished"
      rescue Interrupt
        puts "interrupted"
      end
      puts Process.clock_gettime(Process::CLOCK_MONOTONIC) - started < 5
      puts Dir.glob("/proc/self/task/*/children").sum { |path| File.read(path).split.size }
    RUBY
    assert_equal "interrupted\ntrue\n0\n", out
  end

  def test_a_trap_that_raises_nothing_does_not_disturb_the_command
    out = run_alone(<<~RUBY)
      trapped = 0
      trap("USR1") { trapped += 1 }
      print Brisk.run("sh", "-c", "kill -USR1 $PPID; sleep 0.3; echo done", stdout: :capture)
      puts trapped
    RUBY
    assert_equal "done\n1\n", out
  end
end

class DropInTest < Minitest::Test
  def test_cheetah_names
    require "brisk/cheetah"
    assert_same Brisk::ExecutionFailed, Cheetah::ExecutionFailed
    assert_same Brisk::DefaultRecorder, Cheetah::DefaultRecorder
    assert_same Brisk::NullRecorder, Cheetah::NullRecorder
    assert_same Brisk::Recorder, Cheetah::Recorder
    assert_equal({ stdin: "", stdout: nil, stderr: nil, logger: nil, env: {}, chroot: "/" },
                 Cheetah::BUILTIN_DEFAULT_OPTIONS)
    assert_kind_of String, Cheetah::VERSION
    Cheetah.default_options = { stdout: :capture }
    assert_equal({ stdout: :capture }, Brisk.default_options)
    assert_equal "shared\n", Cheetah.run("echo", "shared")
  ensure
    Cheetah.default_options = {}
  end
end
