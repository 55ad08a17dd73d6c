# frozen_string_literal: true

# Side-by-side timings of Brisk.run against Ruby's own ways, in one process:
#
#   ruby -I build/bindings/ruby/lib -I bindings/ruby/lib bindings/ruby/bench/bench.rb [spawns] [captures]
#
# 1. Bare spawns: Brisk.run("/bin/true") against system("/bin/true"). Ruby
#    forks as root and vforks otherwise, so run it as root and as nobody.
# 2. Captured calls: Brisk.run("ls", "-l", "/", stdout: :capture, stderr: :capture)
#    against fork + exec + pipes + select, the algorithm of the Cheetah gem
#    (written here from its description: the gem is not installable offline).
#
# 3. YaST's workload (the seed write-up's cheetah_vs_scr.rb), as root: SCR_CALLS
#    (1000) calls listing systemd targets with both streams captured, LANG=C,
#    in a chroot: Brisk.run against the same fork+pipes+select loop and
#    against SCR's way, system() through /bin/sh with the outputs redirected
#    to temporary files and read back. The command comes from TARGETS_COMMAND
#    (systemctl's list-units --all --type=target by default) and runs in the
#    chroot CHROOT; where it cannot (no CHROOT, or no systemd there), `cat` of
#    a file of the size of that listing in a minimal root stands in, and the
#    report says so.
#
# The first two workloads also have an "engine alone" contender: the same spawns made by
# brisk's C++ engine in a loop inside the extension, with no Ruby per call
# (Brisk::Native.bench_engine). Its ratio to the baseline is the ceiling: the
# speed-up a binding that cost nothing would reach.
#
# HEAP_MB=200 first grows this process's heap by that much, as a long-running
# program such as YaST has one: fork() copies the page tables of the whole
# heap, vfork-style spawning does not.
#
# Rounds alternate between the contenders so that load from other processes
# hits both alike; the best round of each is reported with the total.
require "etc"
require "tmpdir"
require "brisk"
require_relative "../test/minimal_root"

SPAWNS = Integer(ARGV[0] || 10_000)
CAPTURES = Integer(ARGV[1] || 1000)
SCR_CALLS = Integer(ENV["SCR_CALLS"] || 1000)
ROUNDS = 5

# Cheetah's way: pipes for the three streams, fork, reopen them in the child
# (chroot and set the environment, as Cheetah's child does) and exec; the
# parent feeds stdin and drains both outputs with select, then waits.
def fork_pipes_select(*argv, chroot: nil, env: nil)
  in_r, in_w = IO.pipe
  out_r, out_w = IO.pipe
  err_r, err_w = IO.pipe
  pid = fork do
    in_w.close
    out_r.close
    err_r.close
    $stdin.reopen(in_r)
    $stdout.reopen(out_w)
    $stderr.reopen(err_w)
    if chroot
      Dir.chroot(chroot)
      Dir.chdir("/")
    end
    ENV.update(env) if env
    exec([argv[0], argv[0]], *argv[1..])
  rescue SystemCallError => e
    err_w.puts(e.message)
    exit!(127)
  end
  [in_r, out_w, err_w].each(&:close)
  in_w.close # Cheetah writes "" and closes
  outputs = { out_r => +"", err_r => +"" }
  readable = outputs.keys
  until readable.empty?
    ready, = IO.select(readable)
    ready.each do |io|
      outputs[io] << io.readpartial(4096)
    rescue EOFError
      io.close
      readable.delete(io)
    end
  end
  _, status = Process.wait2(pid)
  raise "#{argv.inspect} failed" unless status.success?

  [outputs[out_r], outputs[err_r]]
end

def clock
  Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

# The engine alone, as a contender that makes a whole round's calls at once.
class EngineLoop
  def initialize(argv, capture)
    @argv = argv
    @capture = capture
  end

  def call_times(count)
    Brisk::Native.bench_engine(@argv, count, @capture)
  end
end

# Runs each contender `count` times per round, alternating; returns seconds
# per contender: [total, best round scaled to the whole count].
def race(count, contenders)
  per_round = (count + ROUNDS - 1) / ROUNDS
  times = contenders.transform_values { [] }
  ROUNDS.times do
    contenders.each do |name, body|
      started = clock
      if body.is_a?(EngineLoop)
        body.call_times(per_round)
      else
        per_round.times { body.call }
      end
      times[name] << clock - started
    end
  end
  times.transform_values { |list| [list.sum, list.min * ROUNDS] }
end

def report(title, count, results, baseline)
  puts title
  base_total = results[baseline][0]
  results.each do |name, (total, best)|
    printf("  %-28s %8.2f s total  %7.3f ms/call (best round %.3f)  %5.2fx\n",
           name, total, total * 1000 / (ROUNDS * ((count + ROUNDS - 1) / ROUNDS)),
           best * 1000 / (ROUNDS * ((count + ROUNDS - 1) / ROUNDS)), base_total / total)
  end
  return unless results.key?(ENGINE)

  engine_total = results[ENGINE][0]
  printf("  ceiling any binding could reach (%s over %s): %.2fx\n", baseline, ENGINE, base_total / engine_total)
end

ENGINE = "engine alone (no Ruby)"


user = Process.euid.zero? ? "root" : (ENV["USER"] || Process.euid.to_s)
puts "Ruby #{RUBY_VERSION}, euid #{Process.euid} (#{user}), #{Etc.respond_to?(:nprocessors) ? Etc.nprocessors : "?"} cpus, " \
     "load #{File.read("/proc/loadavg").split.first(3).join(" ")}"

heap_mb = Integer(ENV["HEAP_MB"] || 0)
# Live strings of 1 MiB each, touched so the pages are really there.
HEAP = Array.new(heap_mb) { "x" * (1 << 20) }
puts "heap grown by #{heap_mb} MiB (rss #{File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i / 1024} MiB)"

Brisk.run("/bin/true")
spawns = race(SPAWNS,
              "system(\"/bin/true\")" => -> { system("/bin/true") },
              "Brisk.run(\"/bin/true\")" => -> { Brisk.run("/bin/true") },
              ENGINE => EngineLoop.new(["/bin/true"], false))
report("#{SPAWNS} x /bin/true (speed-up against system)", SPAWNS, spawns, "system(\"/bin/true\")")

captures = race(CAPTURES,
                "fork+pipes+select" => -> { fork_pipes_select("ls", "-l", "/") },
                "Brisk.run capture" => -> { Brisk.run("ls", "-l", "/", stdout: :capture, stderr: :capture) },
                ENGINE => EngineLoop.new(["ls", "-l", "/"], true))
report("#{CAPTURES} x ls -l / with both streams captured (speed-up against fork+pipes+select)", CAPTURES,
       captures, "fork+pipes+select")

# SCR's .target.bash_output: /bin/sh runs the command line with both outputs
# redirected to temporary files, which are read back.
def scr_bash_output(line, dir)
  out = File.join(dir, "scr.out")
  err = File.join(dir, "scr.err")
  system("#{line} >#{out} 2>#{err}")
  [File.read(out), File.read(err)]
end

# The listing command and the root it runs in: TARGETS_COMMAND in CHROOT
# when it works there, else `cat` of a stand-in listing in a minimal root.
def targets_workload(dir)
  command = (ENV["TARGETS_COMMAND"] ||
             "/usr/bin/systemctl --plain --full --no-legend --no-pager --no-ask-password list-units --all --type=target").split
  root = ENV["CHROOT"]
  if root
    begin
      Brisk.run(*command, chroot: root, env: { "LANG" => "C" })
      return [command, root, "#{command.join(" ")} in #{root}"]
    rescue Brisk::ExecutionFailed => e
      puts "  #{e.message}"
    end
  end
  root = File.join(dir, "root")
  MinimalRoot.fill(root, ["/bin/cat"])
  # 36 lines of list-units' shape (3.6 kB): an estimate of a full target listing, not measured here.
  listing = Array.new(36) { |i| format("%-40s loaded active   active  Target number %-20d\n", "target-#{i}.target", i) }.join
  File.write(File.join(root, "targets.txt"), listing)
  [["/bin/cat", "/targets.txt"], root, "cat of a #{listing.bytesize}-byte list-units stand-in in a minimal root"]
end

if Process.euid.zero?
  Dir.mktmpdir do |dir|
    command, root, what = targets_workload(dir)
    env = { "LANG" => "C" }
    line = "LANG=C /usr/sbin/chroot #{root} #{command.join(" ")}"
    scr = race(SCR_CALLS,
               "SCR system()+files" => -> { scr_bash_output(line, dir) },
               "fork+pipes+select" => -> { fork_pipes_select(*command, chroot: root, env: env) },
               "Brisk.run capture" => -> { Brisk.run(*command, stdout: :capture, stderr: :capture, chroot: root, env: env) })
    report("#{SCR_CALLS} x #{what}, LANG=C, chroot, both streams (speed-up against SCR's way)", SCR_CALLS, scr,
           "SCR system()+files")
    cheetah_total = scr["fork+pipes+select"][0]
    printf("  Brisk.run capture against fork+pipes+select: %.2fx\n", cheetah_total / scr["Brisk.run capture"][0])
  end
else
  puts "YaST's workload (chroot) needs root: skipped"
end
