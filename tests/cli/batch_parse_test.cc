// parse_batch: a long batch split and parsed on two threads must give what
// one thread gives (split_batch, then parse_command per line), wherever the
// cut falls: line numbers, text offsets, errors and their lines.
#include "cli/ip/batch_parse.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/ip/batch_file.h"
#include "cli/ip/batch_rules.h"

namespace brisk::ipcli {
namespace {

// The serial reference for `text`.
struct Serial {
  std::vector<int> lines;
  std::vector<const Verb*> verbs;
  std::vector<std::size_t> ends;
  std::vector<std::string> errors;  // "" where the line parsed
};

Serial serially(const std::string& text, const Globals& g) {
  Serial s;
  auto lines = split_batch(text);
  EXPECT_TRUE(lines);
  for (const auto& line : *lines) {
    auto cmd = parse_command(line.args, g);
    s.lines.push_back(line.line);
    s.verbs.push_back(cmd ? cmd->verb : nullptr);
    s.ends.push_back(line.end);
    s.errors.push_back(cmd ? "" : cmd.error().message);
  }
  return s;
}

void expect_same_as_serial(const std::string& text) {
  Globals g;
  Serial want = serially(text, g);
  auto got = parse_batch(text, g);
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_EQ(got->cmds.size(), want.lines.size());
  // The errors, sparse, each with its line's index, in order.
  std::vector<std::string> errors(want.lines.size());
  std::vector<int> error_lines(want.lines.size());
  std::size_t last = 0;
  for (const auto& [index, error] : got->errors) {
    ASSERT_LT(index, want.lines.size());
    if (last) {
      ASSERT_GT(index, last - 1) << "out of order";
    }
    last = index + 1;
    errors[index] = error.message;
    error_lines[index] = error.line;
  }
  for (std::size_t k = 0; k < want.lines.size(); ++k) {
    EXPECT_EQ(got->ends[k], want.ends[k]) << k;
    EXPECT_EQ(errors[k], want.errors[k]) << k;
    EXPECT_EQ(got->cmds[k].line, want.lines[k]) << k;
    if (want.errors[k].empty()) {
      EXPECT_EQ(got->cmds[k].verb, want.verbs[k]) << k;
    } else {
      EXPECT_EQ(error_lines[k], want.lines[k]) << k;
    }
  }
}

// Long enough to be cut (over 64 KiB), with `odd` lines (comments, blanks,
// continuations, bad lines) every `every` lines, the middle included.
std::string long_batch(const std::string& odd, int every) {
  std::string text;
  for (int i = 0; text.size() < 160 * 1024; ++i) {
    text += "addr add 10.0." + std::to_string(i / 256 % 256) + "." + std::to_string(i % 256) + "/32 dev v" +
            std::to_string(i) + "\n";
    if (i % every == 0) text += odd;
  }
  return text;
}

TEST(IpBatchParse, LongBatchesParseAsOneThreadParsesThem) {
  expect_same_as_serial(long_batch("", 1));
  expect_same_as_serial(long_batch("\n# a comment\n   \n", 7));
  // Continuations everywhere: the cut must fall where no line goes on.
  expect_same_as_serial(long_batch("route add 10.9.0.0/16 \\\n via 10.0.0.1 \\\n dev v0\n", 1));
  expect_same_as_serial(long_batch("addr add nonsense dev v0\nlink set\n", 97));
}

TEST(IpBatchParse, ShortBatchesAndEdges) {
  expect_same_as_serial("");
  expect_same_as_serial("link show\n");
  expect_same_as_serial("link show");
  expect_same_as_serial(long_batch("", 1) + "link show");  // the last line without its newline
}

TEST(IpBatchParse, SplitErrorsAreNumberedInTheWholeFile) {
  std::string text = long_batch("", 1);
  int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  auto quote = parse_batch(text + "link set v0 alias \"oops\n", Globals{});
  ASSERT_FALSE(quote);
  EXPECT_EQ(quote.error().line, lines + 1);
  auto dangling = parse_batch(text + "link show \\\n", Globals{});
  ASSERT_FALSE(dangling);
  EXPECT_EQ(dangling.error().line, lines + 1);
  // In the first half too, before a later one.
  auto early = parse_batch("link set v0 alias 'oops\n" + text + "link set v1 alias \"x\n", Globals{});
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().line, 1);
}

// A batch holds a command per line: the changes it is made of keep no
// show/flush selectors (they are boxed, made only by the lines that select).
TEST(IpBatchParse, ChangesCarryNoShowSelectors) {
  Globals g;
  for (const char* line :
       {"addr add 10.0.0.1/24 brd + dev v0", "addr del 10.0.0.1/24 dev v0",
        "route add 10.1.0.0/16 via 10.0.0.2 dev v0 proto static metric 10",
        "route replace default dev v0 table 100", "rule add from 10.0.0.0/8 table 100 pref 10",
        "link set v0 up mtu 1400", "link add v0 type veth peer name v1", "link del v0",
        "neigh add 10.0.0.9 lladdr 02:00:00:00:00:01 dev v0 nud permanent",
        "fdb add 02:00:00:00:00:02 dev v0 master"}) {
    auto lines = split_batch(line);
    ASSERT_TRUE(lines && lines->size() == 1u) << line;
    auto cmd = parse_command((*lines)[0].args, g);
    ASSERT_TRUE(cmd) << line << ": " << cmd.error().message;
    EXPECT_FALSE(cmd->filters.held()) << line;
  }
  for (const char* line : {"addr show dev v0", "route flush proto static", "neigh show nud reachable"}) {
    auto lines = split_batch(line);
    auto cmd = parse_command((*lines)[0].args, g);
    ASSERT_TRUE(cmd) << line;
    EXPECT_TRUE(cmd->filters.held()) << line;
  }
}

// A plain change keeps only its text, and parse_again gives back the words
// and the command the validating parse saw, wherever the line sits: after
// comments and blank lines, over continuations, or past the two-thread cut.
// Every other line is held whole.
TEST(IpBatchParse, PlainChangesKeepTheirTextAndParseAgainAsBefore) {
  Globals g;
  std::string text = "# head\n\n" + long_batch(
                                        "# c\n\nroute add 10.9.0.0/16 \\\n via 10.0.0.1 \\\n dev v0\n"
                                        "link del v3\nlink set v1 master br0\nlink show dev v2\n"
                                        "neigh add 10.0.0.9 lladdr 02:00:00:00:00:01 dev v0\n",
                                        5);
  auto lines = split_batch(text);
  ASSERT_TRUE(lines);
  auto got = parse_batch(text, g);
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_EQ(got->cmds.size(), lines->size());
  std::size_t plain = 0, held = 0;
  BatchLine scratch;
  for (std::size_t k = 0; k < lines->size(); ++k) {
    const BatchLine& want = (*lines)[k];
    auto cmd = parse_command(want.args, g);
    ASSERT_TRUE(cmd) << k << ": " << cmd.error().message;
    const BatchCommand& kept = got->cmds[k];
    EXPECT_EQ(kept.held == nullptr, is_plain_change(*cmd)) << k;
    EXPECT_EQ(kept.mutates(), cmd->mutates()) << k;
    auto again = parse_again(kept, g, scratch);
    ASSERT_TRUE(again) << k << ": " << again.error().message;
    EXPECT_EQ(again->verb, cmd->verb) << k;
    EXPECT_EQ(again->line, want.line) << k;
    if (kept.held) {
      ++held;
      continue;
    }
    ++plain;
    EXPECT_EQ(scratch.args, want.args) << k;
  }
  EXPECT_GT(plain, 1000u);
  EXPECT_GT(held, 300u);  // link del, master, show and neigh lines
  // A line that did not parse is no change to run.
  auto bad = parse_batch("addr add nonsense dev v0\n", g);
  ASSERT_TRUE(bad);
  EXPECT_FALSE(bad->cmds[0].mutates());
}

// read_batch sizes its string by the file's size where there is one, and
// reads on where there is none (/proc, a pipe): the text is the same.
TEST(IpBatchParse, ReadBatchReadsWholeFilesOfEitherKind) {
  std::string path = "/tmp/brisk-read-batch-" + std::to_string(::getpid());
  std::string text = long_batch("# comment\n", 5);
  std::ofstream(path) << text;
  auto got = read_batch(path);
  ::unlink(path.c_str());
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, text);
  std::ifstream status("/proc/self/status");
  std::string want((std::istreambuf_iterator<char>(status)), std::istreambuf_iterator<char>());
  auto proc = read_batch("/proc/self/status");  // size 0 in stat, and longer than that
  ASSERT_TRUE(proc);
  EXPECT_EQ(proc->substr(0, 5), want.substr(0, 5));
  EXPECT_GT(proc->size(), 100u);
  auto missing = read_batch(path);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("cannot open file"), std::string::npos) << missing.error().message;
}

// A pipe has no size to read by: the text grows, chunk by chunk, until the
// writer is done, and nothing is lost or repeated.
TEST(IpBatchParse, ReadBatchGrowsForAPipe) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  std::string text = long_batch("addr add 10.1.2.3/32 dev v0\n", 9000);  // 160 KiB: three 64 KiB chunks
  ASSERT_GT(text.size(), 2u * 65536);
  std::thread writer([&] {
    std::string_view rest = text;
    while (!rest.empty()) {
      ssize_t n = ::write(fds[1], rest.data(), rest.size());
      if (n <= 0) break;
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
    ::close(fds[1]);
  });
  auto got = read_batch("/dev/fd/" + std::to_string(fds[0]));
  writer.join();
  ::close(fds[0]);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, text);
}

// The devices ip's parser resolves by name (and so syncs), per line, and
// those a line creates here.
TEST(IpBatchRules, NamedAndCreatedDevices) {
  using Names = std::vector<std::string>;
  auto named = [](std::vector<std::string> words) {
    auto cmd = parse_command(words, Globals{});
    EXPECT_TRUE(cmd) << words[0];
    return cmd ? named_devices(*cmd) : Names{};
  };
  EXPECT_EQ(named({"link", "set", "n1", "master", "brn"}), (Names{"n1", "brn"}));
  EXPECT_EQ(named({"link", "set", "dev", "n0", "up"}), Names{"n0"});
  EXPECT_EQ(named({"link", "add", "m0", "link", "n0", "type", "macvlan"}), Names{"n0"});
  EXPECT_EQ(named({"link", "add", "v0", "master", "brn", "type", "veth", "peer", "name", "v1"}),
            Names{"brn"});
  EXPECT_EQ(named({"link", "del", "n0"}), Names{});  // it goes: its state does not matter
  EXPECT_EQ(named({"addr", "add", "10.0.0.1/24", "dev", "n0"}), Names{"n0"});
  EXPECT_EQ(named({"route", "add", "10.1.0.0/16", "nexthop", "via", "10.0.0.2", "dev", "n0", "nexthop", "dev",
                   "n1"}),
            (Names{"n0", "n1"}));
  EXPECT_EQ(named({"route", "add", "10.1.0.0/16", "via", "10.0.0.2"}), Names{});
  EXPECT_EQ(named({"neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "n0"}), Names{"n0"});
  EXPECT_EQ(named({"rule", "add", "iif", "n0", "table", "5"}), Names{});  // ip sends the name itself
  auto created = [](std::vector<std::string> words) {
    auto cmd = parse_command(words, Globals{});
    EXPECT_TRUE(cmd) << words[0];
    return cmd ? created_devices(*cmd) : Names{};
  };
  EXPECT_EQ(created({"link", "add", "n0", "type", "veth", "peer", "name", "n1"}), (Names{"n0", "n1"}));
  EXPECT_EQ(created({"link", "add", "n0", "type", "veth", "peer", "name", "n1", "netns", "other"}),
            Names{"n0"});
  EXPECT_EQ(created({"link", "add", "brn", "type", "bridge"}), Names{"brn"});
  EXPECT_EQ(created({"link", "set", "n0", "up"}), Names{});
}

}  // namespace
}  // namespace brisk::ipcli
