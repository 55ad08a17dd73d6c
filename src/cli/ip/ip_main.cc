// `brisk OBJECT ...` and `brisk -batch FILE`: parse everything, then run.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/ip/batch_file.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {
namespace {

constexpr int kUsageExit = 255;

int usage_exit(const UsageError& e, const std::string& source) {
  // ip prints a requested usage text to stderr and exits 255 as well.
  if (e.help) {
    std::fputs(e.message.c_str(), stderr);
    return kUsageExit;
  }
  std::fprintf(stderr, "%s\n", format_error(e.message, e.exact).c_str());
  if (!source.empty() && e.line) std::fprintf(stderr, "Command failed %s:%d\n", source.c_str(), e.line);
  return e.exit_code;
}

}  // namespace

int ip_main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  auto inv = parse_globals(args);
  if (!inv) return usage_exit(inv.error(), "");
  const Globals& g = inv->globals;
  if (g.version) {
    std::printf("brisk ip utility, brisk-%s\n", BRISK_VERSION_STRING);
    return 0;
  }
  std::vector<Command> cmds;
  std::string source;
  if (g.batch) {
    source = *g.batch;
    auto text = read_batch(source);
    if (!text) {
      std::fprintf(stderr, "%s\n", format_error(text.error().message).c_str());
      return 1;
    }
    auto lines = split_batch(*text);
    if (!lines) return usage_exit(lines.error(), source);
    // Every line is parsed before anything is sent. A line the parser
    // refuses takes its place in the run, where ip meets it: the lines
    // before it are applied, and then ip either exits or (for an error its
    // parser returns) counts a failed line.
    cmds.reserve(lines->size());  // a Command is large: growing would move them all, again and again
    for (const auto& line : *lines) {
      auto cmd = parse_command(line.args, g);
      if (!cmd) {
        Command failed{.verb = Verb::unparsed, .line = line.line};
        failed.parse_error = std::move(cmd).error();
        failed.parse_error->line = line.line;
        bool fatal = !failed.parse_error->line_failure;
        cmds.push_back(std::move(failed));
        if (fatal) break;  // nothing after it is read
        continue;
      }
      cmd->line = line.line;
      cmds.push_back(std::move(*cmd));
    }
  } else {
    auto cmd = parse_command(inv->args, g);
    if (!cmd) return usage_exit(cmd.error(), "");
    if (cmd->verb == Verb::netns_exec) {
      // Like ip: the CLI becomes the program, with no fork.
      if (auto entered = enter_netns_for_exec(cmd->name); !entered) {
        std::fprintf(stderr, "%s\n", runtime_message(entered.error()).c_str());
        return 1;
      }
      std::vector<char*> exec_argv;
      for (auto& a : cmd->exec_argv) exec_argv.push_back(a.data());
      exec_argv.push_back(nullptr);
      ::execvp(exec_argv[0], exec_argv.data());
      std::fprintf(stderr, "exec of \"%s\" failed: %s\n", exec_argv[0], std::strerror(errno));
      return 1;
    }
    cmds.push_back(std::move(*cmd));
  }
  Runner runner(g, source, /*own_process=*/true);
  int status = runner.run(cmds);
  runner.flush_out();
  return status;
}

}  // namespace brisk::ipcli
