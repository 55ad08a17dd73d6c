// `brisk OBJECT ...` and `brisk -batch FILE`: parse everything, then run.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/ip/batch_file.h"
#include "cli/ip/batch_parse.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/objects.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {
namespace {

constexpr int kUsageExit = 255;

// A usage error as ip prints it (a requested usage text as is), then, with
// `failed_line`, "Command failed FILE:LINE".
void print_usage_error(const UsageError& e, const std::string& source, bool failed_line) {
  if (e.help) {
    std::fputs(e.message.c_str(), stderr);
    return;
  }
  std::fprintf(stderr, "%s\n", format_error(e.message, e.exact).c_str());
  if (failed_line) std::fprintf(stderr, "Command failed %s:%d\n", source.c_str(), e.line);
}

int usage_exit(const UsageError& e, const std::string& source) {
  print_usage_error(e, source, !source.empty() && e.line);
  return e.help ? kUsageExit : e.exit_code;  // ip exits 255 after a usage text too
}

// The syntax errors of a batch, which is then not run at all: the status is
// that of the last (a line failure's 1, or the exit of the error ip's
// parser ends on).
int refuse_batch(const std::vector<UsageError>& errors, const std::string& source) {
  int status = 1;
  for (const auto& e : errors) {
    print_usage_error(e, source, e.line_failure);
    status = e.line_failure ? 1 : e.exit_code;
  }
  return status;
}

}  // namespace

int ip_main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  // -n is entered as the options are read, before the batch is, and 255
  // if it cannot be (ip's option loop).
  auto inv = parse_globals(args, switch_netns);
  if (!inv) return usage_exit(inv.error(), "");
  Globals& g = inv->globals;
  if (g.version) {
    std::printf("brisk ip utility, brisk-%s\n", BRISK_VERSION_STRING);
    return 0;
  }
  std::vector<BatchCommand> cmds;
  std::string source;
  Parsed<std::string> text{std::string()};  // the batch's, which its plain changes are views of
  if (g.batch) {
    source = *g.batch;
    text = read_batch(source);
    if (!text) {
      std::fprintf(stderr, "%s\n", format_error(text.error().message).c_str());
      return 1;
    }
    auto parsed = parse_batch(*text, g);
    if (!parsed) return usage_exit(parsed.error(), source);
    // Every line is parsed before anything is sent, and a syntax error
    // anywhere refuses the whole file: nothing of it is applied. (ip, which
    // parses as it goes, has applied the lines before it by then.) The
    // errors are reported as ip meets them: a line ip's parser fails gets
    // "Command failed" and -force reads on; one it exits on ends the report.
    // A line whose refusal is the kernel's in ip fails in its place instead.
    cmds = std::move(parsed->cmds);
    std::vector<UsageError> errors;
    auto next_error = parsed->errors.begin();
    for (std::size_t k = 0; k < cmds.size(); ++k) {
      if (next_error != parsed->errors.end() && next_error->first == k) {
        UsageError* error = &(next_error++)->second;
        if (error->kernel_refusal) {
          cmds[k].held = std::make_unique<IpCommand>(IpCommand{.verb = &kRefusedLine, .line = error->line});
          cmds[k].held->parse_error = std::move(*error);
          continue;
        }
        errors.push_back(std::move(*error));
        if (!errors.back().line_failure || !g.force) break;  // ip reads no further
        continue;
      }
      if (!cmds[k].verb || !cmds[k].verb->reads_rest_of_batch) continue;
      // The rest is its input (ip's stdin), no line of the batch.
      cmds[k].held->restore_input() = {.from_batch = true, .text = text->substr(parsed->ends[k])};
      cmds.resize(k + 1);
      break;
    }
    if (!errors.empty()) return refuse_batch(errors, source);
  } else {
    auto cmd = parse_command(inv->args, g);
    if (!cmd) return usage_exit(cmd.error(), "");
    // A command ip runs in its own process (netns exec): this one becomes it.
    if (cmd->verb->replace_process)
      if (auto failed = cmd->verb->replace_process(*cmd)) return *failed;
    const Verb* verb = cmd->verb;
    cmds.push_back(BatchCommand{.verb = verb, .held = std::make_unique<IpCommand>(std::move(*cmd))});
  }
  Runner runner(g, source, /*own_process=*/true);
  int status = runner.run(cmds);
  runner.flush_out();
  return status;
}

}  // namespace brisk::ipcli
