# frozen_string_literal: true

# Cheetah 1.0.0's contract, as its lib/cheetah.rb documents and implements
# it, held against `require "cheetah"` resolving to brisk's drop-in: the
# recorder calls a run makes, the logger calls DefaultRecorder makes, the
# options, the return shapes and ExecutionFailed. Each expected sequence is
# what Cheetah 1.0.0 produces for the same call.
require "minitest/autorun"
require "stringio"
require "cheetah"

# Records every call with its arguments, as Cheetah 1.0.0 makes them.
class EventRecorder < Cheetah::Recorder
  attr_reader :events

  def initialize
    super
    @events = []
  end

  %i[commands stdin stdout stderr].each do |what|
    define_method(:"record_#{what}") { |data| @events << [what, data] }
  end

  def record_status(status, allowed_status) = @events << [:status, status.exitstatus, allowed_status]
end

# A logger that has only the two levels Cheetah's DefaultRecorder uses: a
# call of any other (debug, warn, add, level...) is a failure.
class StrictLogger
  attr_reader :lines

  def initialize
    @lines = []
  end

  def info(message) = @lines << [:info, message]
  def error(message) = @lines << [:error, message]

  def method_missing(name, *)
    raise NoMethodError, "DefaultRecorder called #{name} on the logger"
  end

  def respond_to_missing?(*) = false
end

def events_of(*args, **options)
  recorder = EventRecorder.new
  begin
    Cheetah.run(*args, **options, recorder: recorder)
  rescue Cheetah::ExecutionFailed
    nil
  end
  recorder.events
end

class RecorderSequenceTest < Minitest::Test
  def test_success
    assert_equal [[:commands, [["true"]]], [:status, 0, true]], events_of("true")
  end

  def test_failure
    assert_equal [[:commands, [%w[sh -c exit\ 3]]], [:status, 3, false]], events_of("sh", "-c", "exit 3")
  end

  def test_allowed_non_zero_status
    assert_equal [[:commands, [%w[false]]], [:status, 1, true]], events_of("false", allowed_exitstatus: 1)
  end

  def test_zero_outside_the_allowed_set_is_not_allowed_but_does_not_raise
    recorder = EventRecorder.new
    assert_equal 0, Cheetah.run("true", allowed_exitstatus: 1..2, recorder: recorder)
    assert_equal [:status, 0, false], recorder.events.last
  end

  def test_stdin_string
    assert_equal [[:commands, [["cat"]]], [:stdin, "in\n"], [:stdout, "in\n"], [:status, 0, true]],
                 events_of("cat", stdin: "in\n")
  end

  def test_empty_stdin_is_not_recorded
    assert_equal [[:commands, [["cat"]]], [:status, 0, true]], events_of("cat", stdin: "")
    assert_equal [[:commands, [["cat"]]], [:status, 0, true]], events_of("cat", stdin: StringIO.new(""))
  end

  def test_stdin_io
    assert_equal [[:commands, [["cat"]]], [:stdin, "from io"], [:stdout, "from io"], [:status, 0, true]],
                 events_of("cat", stdin: StringIO.new("from io"))
  end

  def test_the_exact_bytes_of_a_partial_line
    assert_equal [[:commands, [%w[echo -n output]]], [:stdout, "output"], [:status, 0, true]],
                 events_of("echo", "-n", "output")
  end

  def test_chunks_as_written
    assert_equal [[:commands, [["sh", "-c", "printf 'a\\nb'; sleep 0.2; printf 'c\\n'"]]],
                  [:stdout, "a\nb"], [:stdout, "c\n"], [:status, 0, true]],
                 events_of("sh", "-c", "printf 'a\\nb'; sleep 0.2; printf 'c\\n'")
  end

  def test_both_streams
    events = events_of("sh", "-c", "printf out; sleep 0.2; printf err >&2; exit 2")
    assert_equal [[:commands, [["sh", "-c", "printf out; sleep 0.2; printf err >&2; exit 2"]]],
                  [:stdout, "out"], [:stderr, "err"], [:status, 2, false]], events
  end

  def test_streamed_output_is_recorded_too
    out = StringIO.new(+"")
    assert_equal [[:commands, [%w[echo x]]], [:stdout, "x\n"], [:status, 0, true]], events_of("echo", "x", stdout: out)
    assert_equal "x\n", out.string
  end

  def test_pipeline
    events = events_of(%w[printf a\nb], ["sh", "-c", "cat; echo e >&2; sleep 0.2"], %w[tr a-z A-Z])
    assert_equal [[:commands, [%w[printf a\nb], ["sh", "-c", "cat; echo e >&2; sleep 0.2"], %w[tr a-z A-Z]]],
                  [:stderr, "e\n"], [:stdout, "A\nB"], [:status, 0, true]], events
  end

  def test_missing_program
    assert_equal [[:commands, [["/nonexistent/cheetah-prog"]]],
                  [:stderr, "No such file or directory - /nonexistent/cheetah-prog\n"], [:status, 127, false]],
                 events_of("/nonexistent/cheetah-prog")
  end

  def test_status_is_recorded_before_the_error_propagates
    recorder = EventRecorder.new
    error = assert_raises(Cheetah::ExecutionFailed) { Cheetah.run("false", recorder: recorder) }
    assert_equal 1, error.status.exitstatus
    assert_equal [:status, 1, false], recorder.events.last
  end

  def test_a_one_argument_record_status_gets_the_status_alone
    recorder = Class.new(Cheetah::Recorder) do
      attr_reader :statuses

      def record_status(status) = (@statuses ||= []) << status.exitstatus
    end.new
    Cheetah.run("true", recorder: recorder)
    assert_equal [0], recorder.statuses
  end

  def test_a_null_recorder_subclass_is_called
    recorder = Class.new(Cheetah::NullRecorder) do
      attr_reader :out

      def record_stdout(stdout) = (@out ||= +"") << stdout
    end.new
    Cheetah.run("echo", "seen", recorder: recorder)
    assert_equal "seen\n", recorder.out
  end

  def test_recorder_wins_over_logger
    logger = StrictLogger.new
    assert_equal [[:commands, [["true"]]], [:status, 0, true]], events_of("true", logger: logger)
    assert_empty logger.lines
  end
end

class DefaultRecorderTest < Minitest::Test
  def setup
    @logger = StrictLogger.new
    @recorder = Cheetah::DefaultRecorder.new(@logger)
  end

  def status(code)
    Cheetah.run("sh", "-c", "exit #{code}", allowed_exitstatus: 0..255)
    $?
  end

  def test_commands_quoted_and_piped
    @recorder.record_commands([["one", "a b"], ["two", "$x|y"]])
    assert_equal [[:info, 'Executing "one a\\ b | two \\$x\\|y".']], @logger.lines
  end

  def test_lines_as_they_complete
    @recorder.record_stdout("one")
    assert_empty @logger.lines
    @recorder.record_stdout("\ntwo\nthr")
    @recorder.record_stdout("ee\n")
    assert_equal [[:info, "Standard output: one"], [:info, "Standard output: two"], [:info, "Standard output: three"]],
                 @logger.lines
  end

  def test_stderr_at_error_and_stdin_at_info
    @recorder.record_stderr("bad\n")
    @recorder.record_stdin("in\n")
    assert_equal [[:error, "Error output: bad"], [:info, "Standard input: in"]], @logger.lines
  end

  def test_status_flushes_tails_in_stream_order
    @recorder.record_stderr("e")
    @recorder.record_stdout("o")
    @recorder.record_stdin("i")
    @recorder.record_status(status(0), true)
    assert_equal [[:info, "Standard input: i"], [:info, "Standard output: o"], [:error, "Error output: e"],
                  [:info, "Status: 0"]], @logger.lines
  end

  def test_status_level_follows_allowed_status
    @recorder.record_status(status(1), true)
    @recorder.record_status(status(0), false)
    assert_equal [[:info, "Status: 1"], [:error, "Status: 0"]], @logger.lines
  end

  def test_a_run_logs_exactly_cheetahs_lines
    Cheetah.run("sh", "-c", "printf 'a\\nb'; echo e >&2", stdin: "x", recorder: @recorder)
    lines = @logger.lines
    assert_equal [:info, 'Executing "sh -c printf\\ \\\'a\\\\nb\\\'\\;\\ echo\\ e\\ \\>\\&2".'], lines.first
    assert_equal [[:info, "Standard input: x"], [:info, "Standard output: b"], [:info, "Status: 0"]], lines.last(3)
    assert_equal [[:info, "Standard output: a"], [:error, "Error output: e"]].sort, lines[1..-4].sort
  end

  def test_allowed_non_zero_exit_is_not_logged_as_an_error
    assert_equal ["", 1], Cheetah.run("false", stdout: :capture, logger: @logger, allowed_exitstatus: 1)
    assert_equal [[:info, 'Executing "false".'], [:info, "Status: 1"]], @logger.lines
  end

  def test_failure_logged_at_error
    assert_raises(Cheetah::ExecutionFailed) { Cheetah.run("false", logger: @logger) }
    assert_equal [[:info, 'Executing "false".'], [:error, "Status: 1"]], @logger.lines
  end

  def test_stream_info_table
    assert_equal({ name: "Error output", method: :error }, Cheetah::DefaultRecorder::STREAM_INFO[:stderr])
    assert_predicate Cheetah::DefaultRecorder::STREAM_INFO, :frozen?
  end
end

# A DefaultRecorder subclass that silences chosen streams per instance, in
# the manner of YaST's ReducedRecorder, and a chaining wrapper that merges
# its options into the call's last Hash, in the manner of Yast::Execute.
class YastStyleTest < Minitest::Test
  class QuietRecorder < Cheetah::DefaultRecorder
    SILENCED = { stdin: :record_stdin, stdout: :record_stdout, stderr: :record_stderr, args: :record_commands }.freeze

    def initialize(logger, skip: [])
      super(logger)
      Array(skip).each { |what| define_singleton_method(SILENCED.fetch(what)) { |_data| } }
    end
  end

  class Runner
    def initialize(options = {}) = @options = options
    def with(extra) = Runner.new(@options.merge(extra))

    def run(*args)
      return self if args.empty?

      args << {} unless args.last.is_a?(Hash)
      args.last.merge!(@options)
      Cheetah.run(*args)
    end
  end

  def setup
    @logger = StrictLogger.new
    @saved = Cheetah.default_options
    Cheetah.default_options = { logger: @logger }
  end

  def teardown
    Cheetah.default_options = @saved
  end

  def logged = @logger.lines.map(&:last).join("\n")

  def test_default_options_logger_is_used
    Cheetah.run("echo", "hello")
    assert_equal "Executing \"echo hello\".\nStandard output: hello\nStatus: 0", logged
  end

  def test_skipped_stdin
    Cheetah.run("cat", stdin: "secret", recorder: QuietRecorder.new(@logger, skip: :stdin), stdout: :capture)
    refute_match(/Standard input/, logged)
    assert_includes logged, "Standard output: secret"
  end

  def test_skipped_stdout_and_args
    Cheetah.run("echo", "secret", recorder: QuietRecorder.new(@logger, skip: %i[stdout args]))
    refute_match(/secret/, logged)
    assert_equal "Status: 0", logged
  end

  def test_skipped_stderr_with_an_allowed_failure
    recorder = QuietRecorder.new(@logger, skip: %i[stderr args])
    assert_equal 1, Cheetah.run("cat", "/nonexistent/supersecret", recorder: recorder, allowed_exitstatus: 1)
    assert_equal [[:info, "Status: 1"]], @logger.lines
  end

  def test_chained_options_reach_the_run
    runner = Runner.new.with(stdout: :capture).with(chroot: "/")
    assert_same runner.class, runner.run.class
    assert_equal "x\n", runner.run("echo", "x")
    assert_equal "y\n", runner.run("echo", "y", {})
  end

  def test_failure_report_fields
    error = assert_raises(Cheetah::ExecutionFailed) { Runner.new.run("sh", "-c", "echo no >&2; exit 4") }
    assert_equal '[["sh", "-c", "echo no >&2; exit 4"]]', error.commands.inspect
    assert_equal 4, error.status.exitstatus
    assert_equal "no\n", error.stderr
  end
end

class OptionsContractTest < Minitest::Test
  def teardown
    Cheetah.default_options = {}
  end

  def test_builtin_defaults_and_version
    assert_equal "1.0.0", Cheetah::VERSION
    # Cheetah's own file for it is brisk's, already loaded by the drop-in.
    assert_equal false, require("cheetah/version")
    assert_equal({ stdin: "", stdout: nil, stderr: nil, logger: nil, env: {}, chroot: "/" }, Cheetah::BUILTIN_DEFAULT_OPTIONS)
    assert_predicate Cheetah::BUILTIN_DEFAULT_OPTIONS, :frozen?
    assert_equal [0, 1], [Cheetah::READ, Cheetah::WRITE]
    assert_equal({}, Cheetah.default_options)
  end

  def test_default_options_replace_and_merge_per_key
    Cheetah.default_options = { stdin: "global", stdout: :capture }
    assert_equal "global", Cheetah.run("cat")
    assert_equal "passed", Cheetah.run("cat", stdin: "passed")
    assert_equal "", Cheetah.run("cat", stdin: nil)
    assert_nil Cheetah.run("cat", stdout: nil)
    Cheetah.default_options = { stderr: :capture }
    assert_equal "e\n", Cheetah.run("sh", "-c", "echo o; echo e >&2")
  end

  def test_the_getter_returns_the_hash_that_was_set
    options = { stdout: :capture }
    Cheetah.default_options = options
    assert_same options, Cheetah.default_options
  end

  def test_output_object_with_only_shovel
    sink = Object.new
    def sink.<<(data) = (@data ||= +"") << data
    def sink.data = @data
    Cheetah.run("echo", "shovelled", stdout: sink)
    assert_equal "shovelled\n", sink.data
  end

  def test_return_shapes_with_allowed_exitstatus
    assert_equal 1, Cheetah.run("false", allowed_exitstatus: [1, 2])
    assert_equal ["", 1], Cheetah.run("false", stdout: :capture, allowed_exitstatus: 1)
    assert_equal ["", "", 1], Cheetah.run("false", stdout: :capture, stderr: :capture, allowed_exitstatus: 1..1)
    assert_raises(Cheetah::ExecutionFailed) { Cheetah.run("false", allowed_exitstatus: nil) }
  end

  def test_error_message_and_fields
    error = assert_raises(Cheetah::ExecutionFailed) { Cheetah.run(%w[true], %w[false]) }
    assert_equal 'Execution of "true | false" failed with status 1 (no error output).', error.message
    assert_equal [%w[true], %w[false]], error.commands
    assert_equal ["", ""], [error.stdout, error.stderr]
  end

  def test_captured_text_is_utf8_and_recorded_chunks_binary
    recorder = EventRecorder.new
    out = Cheetah.run("printf", "gr\u00fc\u00df", stdout: :capture, recorder: recorder)
    assert_equal "gr\u00fc\u00df", out
    assert_equal Encoding::UTF_8, out.encoding
    assert_equal Encoding::BINARY, recorder.events[1][1].encoding
    error = assert_raises(Cheetah::ExecutionFailed) { Cheetah.run("sh", "-c", "printf \u00fc >&2; exit 1") }
    assert_equal "\u00fc", error.stderr
  end

  def test_execution_failed_constructor
    error = Cheetah::ExecutionFailed.new([["x"]], nil, "o", "e", "message")
    assert_equal [[["x"]], nil, "o", "e", "message"], [error.commands, error.status, error.stdout, error.stderr, error.message]
    assert_kind_of StandardError, error
  end
end
