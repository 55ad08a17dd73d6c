#include "support/recorded_kernel.h"

#include <cerrno>
#include <cstring>
#include <sstream>

namespace brisk::test {
namespace {

// Each message of `d` with its sequence number and port id set (an error's
// copy of the request too): zero to store, the request's to replay.
void stamp(Datagram& d, uint32_t seq, uint32_t pid) {
  int left = static_cast<int>(d.size());
  for (auto* h = reinterpret_cast<nlmsghdr*>(d.data()); NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
    h->nlmsg_seq = seq;
    h->nlmsg_pid = pid;
    if (h->nlmsg_type == NLMSG_ERROR && h->nlmsg_len >= NLMSG_LENGTH(sizeof(nlmsgerr))) {
      auto* e = static_cast<nlmsgerr*>(NLMSG_DATA(h));
      e->msg.nlmsg_seq = seq;
      e->msg.nlmsg_pid = pid;
    }
  }
}

std::string hex(const Datagram& d) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(d.size() * 2);
  for (char c : d) {
    auto b = static_cast<unsigned char>(c);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

bool unhex(const std::string& s, Datagram& d) {
  if (s.size() % 2) return false;
  auto nibble = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  d.clear();
  for (std::size_t i = 0; i < s.size(); i += 2) {
    int hi = nibble(s[i]), lo = nibble(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    d.push_back(static_cast<char>(hi << 4 | lo));
  }
  return true;
}

// `text` as "KEY |LINE" records, the last "KEY-end |REST" when it has no newline.
void write_text(std::ostringstream& o, const char* key, const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    auto nl = text.find('\n', at);
    if (nl == std::string::npos) {
      o << key << "-end |" << text.substr(at) << "\n";
      return;
    }
    o << key << " |" << text.substr(at, nl - at) << "\n";
    at = nl + 1;
  }
}

}  // namespace

std::string write_fixture(const std::vector<std::string>& header, const std::vector<RecordedCase>& cases) {
  std::ostringstream o;
  std::map<Datagram, std::size_t> written;  // each reply written whole, by its number
  for (const auto& text : header) {
    std::istringstream lines(text);  // a line of several (a script's) is several comments
    for (std::string line; std::getline(lines, line);) o << "#" << (line.empty() ? "" : " ") << line << "\n";
  }
  for (const auto& c : cases) {
    o << "\ncase";
    for (const auto& a : c.args) o << " " << a;
    o << "\nstatus " << c.status << "\n";
    write_text(o, "out", c.out);
    write_text(o, "err", c.err);
    for (const auto& [name, index] : c.lookups) o << "lookup " << name << " " << index << "\n";
    for (const auto& x : c.exchanges) {
      o << "send " << hex(x.request) << "\n";
      for (const auto& r : x.replies) {
        auto [it, first] = written.emplace(r, written.size());
        if (first)
          o << "recv " << hex(r) << "\n";
        else
          o << "recv =" << it->second << "\n";
      }
    }
    o << "end\n";
  }
  return o.str();
}

ParsedFixture read_fixture(const std::string& text) {
  ParsedFixture f;
  std::istringstream in(text);
  RecordedCase* open = nullptr;
  std::vector<Datagram> whole;  // the replies written whole, in order, for "recv =N"
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    auto space = line.find(' ');
    std::string key = line.substr(0, space), rest = space == std::string::npos ? "" : line.substr(space + 1);
    auto fail = [&](const char* why) {
      f.error = "line " + std::to_string(number) + ": " + why + ": " + line;
      return f;
    };
    if (key == "case") {
      if (open) return fail("case inside a case");
      open = &f.cases.emplace_back();
      std::istringstream words(rest);
      for (std::string w; words >> w;) open->args.push_back(w);
      continue;
    }
    if (!open) return fail("outside a case");
    if (key == "end") {
      open = nullptr;
    } else if (key == "status") {
      open->status = std::stoi(rest);
    } else if (key == "out" || key == "out-end" || key == "err" || key == "err-end") {
      if (rest.empty() || rest[0] != '|') return fail("text without its '|'");
      std::string& to = key[0] == 'o' ? open->out : open->err;
      to += rest.substr(1);
      if (key.size() == 3) to += '\n';
    } else if (key == "lookup") {
      auto sp = rest.find(' ');
      if (sp == std::string::npos) return fail("lookup without its index");
      open->lookups[rest.substr(0, sp)] = std::stoi(rest.substr(sp + 1));
    } else if (key == "send" || key == "recv") {
      Datagram d;
      if (key == "recv" && !rest.empty() && rest[0] == '=') {
        std::size_t n = std::stoul(rest.substr(1));
        if (n >= whole.size()) return fail("no such reply yet");
        d = whole[n];
      } else {
        if (!unhex(rest, d)) return fail("bad hex");
        if (key == "recv") whole.push_back(d);
      }
      if (key == "send") {
        open->exchanges.push_back({.request = std::move(d)});
      } else {
        if (open->exchanges.empty()) return fail("recv before any send");
        open->exchanges.back().replies.push_back(std::move(d));
      }
    } else {
      return fail("unknown record");
    }
  }
  if (open) f.error = "the last case has no end";
  return f;
}

netlink::NlResult<void> Recorder::send(std::span<const iovec> parts) {
  Datagram sent;
  for (const auto& part : parts) {
    const char* p = static_cast<const char*>(part.iov_base);
    sent.insert(sent.end(), p, p + part.iov_len);
  }
  int left = static_cast<int>(sent.size());
  for (auto* h = reinterpret_cast<const nlmsghdr*>(sent.data()); NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
    if (h->nlmsg_type < NLMSG_MIN_TYPE) continue;  // a fence: the replay's FakeKernel answers those itself
    const char* start = reinterpret_cast<const char*>(h);
    Datagram request(start, start + h->nlmsg_len);
    stamp(request, 0, 0);
    notes_->by_seq[h->nlmsg_seq] = notes_->exchanges.size();
    notes_->exchanges.push_back({.request = std::move(request)});
  }
  return inner_transport().send(parts);
}

netlink::NlResult<std::size_t> Recorder::receive(std::span<char> buffer, bool wait) {
  auto got = inner_transport().receive(buffer, wait);
  if (!got || *got == 0) return got;
  // The datagram's messages in runs of one sequence number, each run a
  // reply to that request (a fence's ACK to none).
  int left = static_cast<int>(*got);
  Datagram run;
  uint32_t run_seq = 0;
  auto close_run = [&] {
    if (run.empty()) return;
    if (auto it = notes_->by_seq.find(run_seq); it != notes_->by_seq.end()) {
      stamp(run, 0, 0);
      notes_->exchanges[it->second].replies.push_back(std::move(run));
    }
    run.clear();
  };
  for (auto* h = reinterpret_cast<const nlmsghdr*>(buffer.data()); NLMSG_OK(h, left);
       h = NLMSG_NEXT(h, left)) {
    if (!run.empty() && h->nlmsg_seq != run_seq) close_run();
    run_seq = h->nlmsg_seq;
    const char* start = reinterpret_cast<const char*>(h);
    run.insert(run.end(), start, start + NLMSG_ALIGN(h->nlmsg_len));
  }
  close_run();
  return got;
}

netlink::NlResult<int> Recorder::interface_index(const std::string& name) {
  auto index = inner_transport().interface_index(name);
  notes_->lookups[name] = index ? *index : -index.error().code;
  return index;
}

std::unique_ptr<FakeKernel> replay(const RecordedCase& recorded, std::shared_ptr<ReplayMisses> misses) {
  auto used = std::make_shared<std::vector<bool>>(recorded.exchanges.size(), false);
  auto script = [&recorded, used, misses](const nlmsghdr& request) {
    const char* start = reinterpret_cast<const char*>(&request);
    Datagram asked(start, start + request.nlmsg_len);
    stamp(asked, 0, 0);
    const Exchange* match = nullptr;
    for (std::size_t i = 0; i < recorded.exchanges.size(); ++i) {
      if (recorded.exchanges[i].request != asked) continue;
      match = &recorded.exchanges[i];
      if ((*used)[i]) continue;
      (*used)[i] = true;
      break;
    }
    FakeKernel::Answer answer;
    if (!match) {
      misses->requests.push_back(hex(asked));
      answer.datagrams.push_back(ack(request, EOPNOTSUPP));
      return answer;
    }
    for (Datagram d : match->replies) {
      stamp(d, request.nlmsg_seq, request.nlmsg_pid);
      answer.datagrams.push_back(std::move(d));
    }
    return answer;
  };
  auto kernel = std::make_unique<FakeKernel>(script);
  for (const auto& [name, index] : recorded.lookups)
    if (index > 0) kernel->devices[name] = index;
  return kernel;
}

}  // namespace brisk::test
