// `brisk run --batch FILE|-`: one command per line, at most -j at once.
//
// Every line is parsed before anything runs, so a malformed line stops the
// batch with its line number and no side effects.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "brisk/shell_words.h"
#include "cli/commands.h"
#include "cli/run_batch_parse.h"
#include "cli/run_common.h"

namespace brisk::cli {

int run_batch(const RunArgs& args, const Template& base) {
  std::vector<BatchLine> lines;
  std::optional<std::string> error;
  if (args.batch == "-") {
    error = parse_batch(std::cin, "<stdin>", lines);
  } else {
    struct stat st {};
    if (::stat(args.batch.c_str(), &st) != 0) {
      error = "--batch '" + args.batch + "': " + std::strerror(errno);
    } else if (S_ISDIR(st.st_mode)) {
      error = "--batch '" + args.batch + "': is a directory";
    } else {
      std::ifstream in(args.batch);
      if (!in) {
        error = "--batch '" + args.batch + "': cannot open";
      } else {
        error = parse_batch(in, args.batch, lines);
      }
    }
  }
  if (error) {
    std::cerr << "brisk run: " << *error << "\n";
    return 2;
  }

  std::vector<Command> commands;
  commands.reserve(lines.size());
  for (auto& line : lines) {
    Command command(base.spawn, base.run);
    command.spawn_options().argv = line.argv;
    RunOptions& run = command.run_options();
    run.check = false;
    // Commands read no stdin: with several at once it could not be shared.
    run.input = Input::null();
    run.out = args.json ? Sink::capture() : Sink::inherit();
    run.err = args.json ? Sink::capture() : Sink::inherit();
    commands.push_back(std::move(command));
  }
  auto started = std::chrono::steady_clock::now();
  auto results = run_all(
      commands, {.max_parallel = static_cast<std::size_t>(args.jobs), .stop_on_failure = !args.keep_going});
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::size_t succeeded = 0, failed = 0, not_run = 0;
  nlohmann::json per_command = nlohmann::json::array();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& result = results[i];
    bool cancelled =
        !result && result.error().code == ECANCELED && result.error().step == SpawnStep::validate;
    if (cancelled) {
      ++not_run;
    } else if (result && result->status.success()) {
      ++succeeded;
    } else {
      ++failed;
      if (!args.json) {
        std::string why = result ? result->status.to_string() : result.error().message();
        std::cerr << "brisk run: line " << lines[i].number << ": " << join_quoted(lines[i].argv) << ": "
                  << why << "\n";
      }
    }
    if (args.json) {
      nlohmann::json j = cancelled ? nlohmann::json{{"argv", lines[i].argv}, {"not_run", true}}
                                   : result_json(lines[i].argv, result);
      j["line"] = lines[i].number;
      per_command.push_back(std::move(j));
    }
  }
  if (args.json) {
    nlohmann::json report{{"commands", per_command},
                          {"summary",
                           {{"total", results.size()},
                            {"succeeded", succeeded},
                            {"failed", failed},
                            {"not_run", not_run},
                            {"wall_s", wall},
                            {"jobs", args.jobs}}}};
    std::cout << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cerr << "brisk run: " << results.size() << " commands: " << succeeded << " succeeded, " << failed
              << " failed, " << not_run << " not run\n";
  }
  return failed == 0 && not_run == 0 ? 0 : 1;
}

}  // namespace brisk::cli
