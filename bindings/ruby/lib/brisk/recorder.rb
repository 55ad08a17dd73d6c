# frozen_string_literal: true

module Brisk
  # The recorder interface, Cheetah 1.0.0's: a run calls record_commands
  # once, then record_stdin, record_stdout and record_stderr with each piece
  # of data as it is written or read (exactly the command's bytes, partial
  # lines included, never an empty piece), then record_status once, after
  # any ExecutionFailed has been built but before it propagates. Subclass it
  # and pass an instance as recorder:. The methods here do nothing, so a
  # subclass overrides only what it wants.
  class Recorder
    # @param commands [Array<Array<String>>]
    def record_commands(_commands); end

    # @param stdin [String] a piece of the input, as fed to the command
    def record_stdin(_stdin); end

    # @param stdout [String] a piece of stdout, as the command wrote it
    def record_stdout(_stdout); end

    # @param stderr [String] a piece of stderr, as the command wrote it
    def record_stderr(_stderr); end

    # A recorder whose record_status takes one argument (Cheetah before
    # 1.0.0) is called with the status alone.
    # @param status [Process::Status]
    # @param allowed_status [Boolean] whether the status counts as success
    def record_status(_status, _allowed_status = nil); end
  end

  # Records nothing: the recorder when there is neither logger nor recorder.
  class NullRecorder < Recorder; end

  # Logs to a Logger as Cheetah does: "Executing ..." at INFO; input and
  # output line by line, as each line completes, at INFO (error output at
  # ERROR); at the status, each stream's unterminated last line, then
  # "Status: N" at INFO, or ERROR when the status is not allowed.
  class DefaultRecorder < Recorder
    # Cheetah's table of stream labels and log levels; subclasses may read it.
    STREAM_INFO = {
      stdin: { name: "Standard input", method: :info },
      stdout: { name: "Standard output", method: :info },
      stderr: { name: "Error output", method: :error }
    }.freeze

    def initialize(logger)
      super()
      @logger = logger
      @stream_used = { stdin: false, stdout: false, stderr: false }
      @stream_buffer = { stdin: +"", stdout: +"", stderr: +"" }
    end

    def record_commands(commands)
      @logger.info("Executing #{format_commands(commands)}.")
    end

    def record_stdin(stdin)
      log_stream_increment(:stdin, stdin)
    end

    def record_stdout(stdout)
      log_stream_increment(:stdout, stdout)
    end

    def record_stderr(stderr)
      log_stream_increment(:stderr, stderr)
    end

    def record_status(status, allowed_status = status.success?)
      STREAM_INFO.each_key { |stream| log_stream_remainder(stream) }
      @logger.send(allowed_status ? :info : :error, "Status: #{status.exitstatus || Brisk.describe_signal(status)}")
    end

    protected

    def format_commands(commands)
      Brisk.format_commands(commands)
    end

    # Logs the lines data completes; keeps an unterminated tail for later.
    def log_stream_increment(stream, data)
      @stream_used[stream] = true
      buffer = @stream_buffer[stream] << data
      last_newline = buffer.rindex("\n")
      return unless last_newline

      buffer.slice!(0, last_newline + 1).each_line { |line| log_stream_line(stream, line) }
    end

    # The tail is logged once: unlike Cheetah's, a reused recorder does not
    # carry one run's last line into the next run's log.
    def log_stream_remainder(stream)
      buffer = @stream_buffer[stream]
      return if !@stream_used[stream] || buffer.empty?

      log_stream_line(stream, buffer.dup)
      buffer.clear
    end

    def log_stream_line(stream, line)
      info = STREAM_INFO[stream]
      @logger.send(info[:method], "#{info[:name]}: #{line.chomp}")
    end
  end
end
