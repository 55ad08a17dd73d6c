# frozen_string_literal: true

# Brisk: run external commands with Cheetah's interface, on brisk's spawn
# engine (clone3 with CLONE_VM|CLONE_VFORK and pidfds), so a call costs the
# same as root as it does unprivileged, and other Ruby threads keep running
# while the command does.
#
#   files = Brisk.run("ls", "-la", stdout: :capture)
#   Brisk.run(["ps", "aux"], ["grep", "ruby"], stdout: :capture)
#   out, code = Brisk.run("grep", "x", "/etc/hosts", stdout: :capture, allowed_exitstatus: 1)
require "shellwords"
require "brisk/brisk_ext"
require "brisk/recorder"

module Brisk
  VERSION = "0.1.0"

  # Raised when a command cannot be started or ends with a status that is
  # not allowed (including a death by signal).
  class ExecutionFailed < StandardError
    # @return [Array<Array<String>>] every command of the run, in pipeline order
    attr_reader :commands
    # @return [Process::Status] the status that decided the run
    attr_reader :status
    # @return [String, nil] stdout, or nil when it was streamed to an IO
    attr_reader :stdout
    # @return [String, nil] stderr, or nil when it was streamed to an IO
    attr_reader :stderr

    def initialize(commands, status, stdout, stderr, message = nil)
      super(message)
      @commands = commands
      @status = status
      @stdout = stdout
      @stderr = stderr
    end
  end

  # Raised when the timeout: option expired; the command was signalled.
  class TimedOut < ExecutionFailed; end

  # Cheetah's defaults; Brisk.default_options are merged over them, and the
  # options of each call over those.
  BUILTIN_DEFAULT_OPTIONS = {
    stdin: "",
    stdout: nil,
    stderr: nil,
    logger: nil,
    env: {},
    chroot: "/"
  }.freeze

  # Options beyond Cheetah's: cwd:, timeout: (seconds; SIGTERM, then SIGKILL
  # after kill_after: seconds, 2 by default), umask:, user:/group: (names or
  # ids), netns: (a name under /run/netns or a path), pipefail:.
  OPTIONS = (BUILTIN_DEFAULT_OPTIONS.keys +
             %i[recorder allowed_exitstatus cwd timeout kill_after umask user group netns pipefail]).freeze

  OPTION_SET = OPTIONS.to_h { |key| [key, true] }.freeze

  SINK_MODES = { nil => 0, :capture => 1 }.freeze

  class << self
    # Options applied to every call (Cheetah.default_options).
    attr_reader :default_options

    def default_options=(options)
      raise ArgumentError, "default_options must be a Hash" unless options.is_a?(Hash)

      check_options(options)
      @default_options = options
    end

    # Runs a command, or a pipeline of commands, and returns what Cheetah's
    # run returns: nil, the captured String, or an Array of the captured
    # Strings followed by the exit status when allowed_exitstatus: is given.
    def run(*args)
      plain = plain_call?(args)
      if plain
        options = BUILTIN_DEFAULT_OPTIONS
        commands = [args]
      else
        options = args.last.is_a?(Hash) ? args.pop : {}
        check_options(options)
        options = BUILTIN_DEFAULT_OPTIONS.merge(@default_options).merge(options)
        commands = build_commands(args)
      end

      allowed = options[:allowed_exitstatus]
      allowed = Array(allowed) unless allowed.respond_to?(:include?)
      recorder = options[:recorder] || (options[:logger] ? DefaultRecorder.new(options[:logger]) : nil)
      stdin = options[:stdin] || ""
      streamed_out = !SINK_MODES.key?(options[:stdout])
      streamed_err = !SINK_MODES.key?(options[:stderr])

      recorder&.record_commands(commands)
      recorder&.record_stdin(stdin) if stdin.is_a?(String) && !stdin.empty?

      native = plain ? PLAIN_NATIVE_OPTIONS : native_options(options, stdin, recorder, streamed_out, streamed_err)
      result = Native.run(commands, native)
      if result.key?(:spawn_error)
        status, stdout, stderr = spawn_failure(result)
        # Cheetah's child writes this to its stderr, wherever that goes, and
        # its parent records it.
        options[:stderr].send(writer(options[:stderr]), stderr) if streamed_err
        recorder&.record_stderr(stderr)
        timed_out = false
      else
        status = deciding_status(result[:statuses], options[:pipefail], allowed)
        stdout = result[:stdout]
        stderr = result[:stderr]
        timed_out = result[:timed_out]
      end

      begin
        if timed_out || !allowed?(status, allowed)
          raise failure(commands, status, streamed_out ? nil : stdout, streamed_err ? nil : stderr,
                        streamed_err, timed_out && options[:timeout])
        end
      ensure
        record_status(recorder, status, allowed) if recorder
      end

      build_result(options, stdout, stderr, status, allowed)
    end

    # "ls -l / | grep x", quoted, as Cheetah's messages show commands.
    def format_commands(commands)
      "\"#{commands.map { |c| Shellwords.join(c) }.join(" | ")}\""
    end

    # "signal 9 (SIGKILL)" for a status that is a death by signal.
    def describe_signal(status)
      "signal #{status.termsig} (SIG#{Signal.signame(status.termsig)})"
    end

    private

    # A call of String words only, with no options and no default options:
    # what build_commands and native_options would make of it is known, so
    # the option hashes are neither merged nor built. Against the same call
    # through the general path (an explicit {}), alternated in one process as
    # nobody, this saved 6-14 µs of a 0.9 ms /bin/true (medians of 3 runs):
    # Ruby's code runs with cold caches after every exec, so each step costs.
    def plain_call?(args)
      @default_options.empty? && !args.empty? && args.all? { |word| word.instance_of?(String) && !word.include?("\0") }
    end

    def check_options(options)
      return if options.empty?

      unknown = options.each_key.reject { |key| OPTION_SET.key?(key) }
      return if unknown.empty?

      raise ArgumentError, "unknown option#{"s" if unknown.size > 1}: #{unknown.map(&:inspect).join(", ")}"
    end

    # run("c", "a"), run(["c", "a"]) and run(["c1"], ["c2"]) all become
    # [[program, arg...], ...]; arguments other than nil become Strings.
    def build_commands(args)
      raise ArgumentError, "no command given" if args.empty?

      commands = args.all?(Array) ? args : [args]
      commands.map do |command|
        raise ArgumentError, "empty command" if command.empty?

        command.map do |word|
          raise ArgumentError, "nil in command #{command.inspect}" if word.nil?

          word = word.to_s
          raise ArgumentError, "NUL byte in argument #{word.inspect}" if word.include?("\0")

          word
        end
      end
    end

    def native_options(options, stdin, recorder, streamed_out, streamed_err)
      native = {
        stdin: stdin,
        stdout: streamed_out ? options[:stdout] : nil,
        stderr: streamed_err ? options[:stderr] : nil,
        stdout_mode: streamed_out ? 2 : SINK_MODES[options[:stdout]],
        stderr_mode: streamed_err ? 2 : SINK_MODES[options[:stderr]],
        stdout_writer: streamed_out ? writer(options[:stdout]) : nil,
        stderr_writer: streamed_err ? writer(options[:stderr]) : nil,
        # The native side skips the calls only for a recorder that does nothing.
        recorder: recorder.instance_of?(NullRecorder) ? nil : recorder
      }
      env = options[:env]
      unless env.nil? || env.empty?
        native[:env] = env.map do |key, value|
          raise ArgumentError, "NUL byte in env #{key.inspect}" if key.to_s.include?("\0") || value.to_s.include?("\0")

          [key.to_s, value&.to_s]
        end
      end
      chroot = options[:chroot]
      native[:chroot] = chroot.to_s unless chroot.nil? || chroot.to_s == "/"
      %i[cwd netns user group].each { |key| native[key] = options[key].to_s unless options[key].nil? }
      %i[umask timeout kill_after].each { |key| native[key] = options[key] unless options[key].nil? }
      native
    end

    # Cheetah's child prints the exec error to stderr and exits 127; brisk
    # reports it from the parent, and this makes the same result of it.
    def spawn_failure(result)
      status = Native.status(127 << 8, -1) # no process ever ran: pid -1
      message = if result[:exec_failed]
                  SystemCallError.new(result[:program], result[:spawn_error]).message
                else
                  result[:message]
                end
      [status, +"", "#{message}\n"]
    end

    # The last command's status, as Cheetah and a shell decide; with
    # pipefail: the first one that is not allowed.
    def deciding_status(statuses, pipefail, allowed)
      return statuses.last unless pipefail

      statuses.find { |status| !allowed?(status, allowed) } || statuses.last
    end

    # Cheetah's second argument to record_status: with allowed_exitstatus:
    # whether the code is in it (so a 0 outside it is logged as an error,
    # though it does not raise), without it whether the code is 0.
    def record_status(recorder, status, allowed)
      if recorder.method(:record_status).arity == 1
        recorder.record_status(status)
      else
        code = status.exitstatus
        counted = allowed_given?(allowed) ? !code.nil? && allowed.include?(code) : code == 0
        recorder.record_status(status, counted)
      end
    end

    # Cheetah calls << on an output object; one with write only gets write.
    def writer(io)
      io.respond_to?(:<<) ? :<< : :write
    end

    # Cheetah treats allowed_exitstatus: as given unless it is nil (which
    # became []) or an empty Array.
    def allowed_given?(allowed)
      !(allowed.is_a?(Array) && allowed.empty?)
    end

    def allowed?(status, allowed)
      status.success? || (!status.exitstatus.nil? && allowed.include?(status.exitstatus))
    end

    def failure(commands, status, stdout, stderr, streamed_err, timeout)
      stderr_part = if streamed_err
                      " (error output streamed away)"
                    elsif stderr.empty?
                      " (no error output)"
                    else
                      lines = stderr.split("\n")
                      ": #{lines.first}#{" (...)" if lines.size > 1}"
                    end
      how = if timeout
              "timed out after #{timeout} s (#{status.signaled? ? describe_signal(status) : "status #{status.exitstatus}"})"
            elsif status.signaled?
              "failed with #{describe_signal(status)}"
            else
              "failed with status #{status.exitstatus}"
            end
      (timeout ? TimedOut : ExecutionFailed).new(
        commands, status, stdout, stderr, "Execution of #{format_commands(commands)} #{how}#{stderr_part}."
      )
    end

    def build_result(options, stdout, stderr, status, allowed)
      out = options[:stdout] == :capture
      err = options[:stderr] == :capture
      result = if out && err then [stdout, stderr]
               elsif out then stdout
               elsif err then stderr
               end
      return result unless allowed_given?(allowed)

      result.nil? ? status.exitstatus : [*result, status.exitstatus]
    end
  end

  self.default_options = {}

  # What native_options makes of BUILTIN_DEFAULT_OPTIONS.
  PLAIN_NATIVE_OPTIONS = send(:native_options, BUILTIN_DEFAULT_OPTIONS, "", nil, false, false).freeze
end
