// A program of a libbrisk user, built by consumer_test.sh against the public
// headers and the shared library alone: every out-of-line function it calls
// must be exported (else the link fails), and the exceptions it catches and
// the classes it derives from must share their typeinfo with the library.
// It changes nothing outside the network and mount namespaces of its own
// that consumer_test.sh runs it in.
#include <brisk/cancel.h>
#include <brisk/command.h>
#include <brisk/command_errors.h>
#include <brisk/command_log.h>
#include <brisk/netlink/addr.h>
#include <brisk/netlink/batch.h>
#include <brisk/netlink/connection.h>
#include <brisk/netlink/link.h>
#include <brisk/netlink/netns.h>
#include <brisk/netlink/route.h>
#include <brisk/pipeline.h>
#include <brisk/run_all.h>
#include <brisk/shell_words.h>
#include <brisk/spawn.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

// A Recorder of the program's own: its vtable calls into this program.
class Lines : public brisk::Recorder {
 public:
  void record_commands(std::string_view line) override { commands.emplace_back(line); }
  void record_stdin(std::string_view) override {}
  void record_stdout(std::string_view line) override { out.emplace_back(line); }
  void record_stderr(std::string_view) override {}
  void record_status(const brisk::CommandStatus&) override {}
  std::vector<std::string> commands, out;
};

// A Transport of the program's own, handed to the library.
class Silent : public brisk::netlink::Transport {
 public:
  brisk::netlink::NlResult<void> send(std::span<const iovec>) override { return {}; }
  brisk::netlink::NlResult<std::size_t> receive(std::span<char>, bool) override { return std::size_t{0}; }
  brisk::netlink::NlResult<int> interface_index(const std::string&) override { return 1; }
  int receive_buffer() const override { return 1 << 16; }
  int send_buffer() const override { return 1 << 16; }
};

void spawn_and_commands() {
  auto child = brisk::spawn({.argv = {"true"}});
  check(child && child->wait()->success(), "spawn true");
  auto missing = brisk::spawn({.argv = {"/nonexistent/brisk-abi"}});
  check(!missing && missing.error().kind() == brisk::SpawnError::Kind::program_not_found,
        "spawn a missing program");

  check(brisk::Command("echo").args({"a", "b"}).read() == "a b\n", "Command::read");
  auto lines = std::make_shared<Lines>();
  brisk::Output out = (brisk::Command("printf").arg("x\\ny\\n") | brisk::Command("sort").arg("-r"))
                          .pipefail()
                          .recorder(lines)
                          .stdout_to(brisk::Sink::capture())
                          .output();
  check(out.out == "y\nx\n" && out.processes.size() == 2, "Pipeline::output");
  check(lines->out.size() == 2 && lines->commands.size() == 1, "a Recorder subclass");

  // Thrown inside libbrisk, caught here by base class: shared typeinfo.
  bool caught = false;
  try {
    brisk::Command("false").status();
  } catch (const brisk::ExecutionFailed& e) {
    caught = e.status().exit.code() == 1;
  }
  check(caught, "ExecutionFailed across the library boundary");
  caught = false;
  try {
    brisk::Command("/nonexistent/brisk-abi").status();
  } catch (const brisk::SpawnFailed& e) {
    caught = dynamic_cast<const brisk::ProgramNotFound*>(&e) != nullptr;
  }
  check(caught, "ProgramNotFound caught as SpawnFailed");

  std::vector<brisk::Command> jobs{brisk::Command("true"), brisk::Command("false")};
  auto results = brisk::run_all(jobs, {.max_parallel = 2});
  check(results.size() == 2 && results[0]->status.success() && !results[1]->status.success(), "run_all");
  auto words = brisk::split_shell_words(R"(a "b c")");
  check(words && words->size() == 2 && brisk::quote("it's") == R"('it'\''s')", "shell words");
  auto token = std::make_shared<brisk::CancelToken>();
  token->cancel();
  check(token->cancelled(), "CancelToken");
}

void netlink_in_own_namespace() {
  namespace nl = brisk::netlink;
  auto conn = nl::Connection::open().value();
  nl::Batch batch(conn);
  batch.set_link({.name = "lo", .up = true});
  batch.add_link({.name = "abi0", .kind = nl::VethOptions{.peer = "abi1"}});
  batch.set_link({.name = "abi0", .up = true});
  batch.add_address({.dev = "abi0", .prefix = "10.99.0.1/24"});
  batch.add_route({.prefix = "10.98.0.0/16", .via = "10.99.0.2"});
  for (const auto& result : batch.flush()) check(bool(result), "Batch::flush");
  auto link = nl::get_link(conn, "abi0");
  check(link && link->kind == "veth", "get_link");
  auto addresses = nl::list_addresses(conn, {.dev = "abi0"});
  check(addresses && addresses->size() == 1, "list_addresses");
  auto routes = nl::list_routes(conn);
  check(routes && !routes->empty(), "list_routes");
  bool caught = false;
  try {
    nl::get_link(conn, "abi-missing").value();
  } catch (const nl::NetlinkException& e) {
    caught = e.error().code == ENODEV;
  }
  check(caught, "NetlinkException across the library boundary");
  check(bool(nl::delete_link(conn, "abi0")), "delete_link");

  check(bool(nl::create_netns("brisk-abi")), "create_netns");
  auto fd = nl::open_netns("brisk-abi");
  auto inside = fd ? nl::Connection::open_in(fd->get()) : nl::NlResult<nl::Connection>(fd.error());
  check(inside && inside->netns_fd() >= 0, "Connection::open_in");
  auto names = nl::list_netns();
  check(names && *names == std::vector<std::string>{"brisk-abi"}, "list_netns");
  check(bool(nl::delete_netns("brisk-abi")), "delete_netns");

  nl::Connection over = nl::Connection::over(std::make_unique<Silent>());
  check(over.receive_buffer() == 1 << 16, "a Transport subclass");
}

}  // namespace

int main(int argc, char** argv) {
  spawn_and_commands();
  if (argc > 1 && std::string(argv[1]) == "--netlink") netlink_in_own_namespace();
  if (failures) return 1;
  std::printf("consumer: every call through the shared libbrisk worked\n");
  return 0;
}
