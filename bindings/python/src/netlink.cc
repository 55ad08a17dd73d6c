// netlink.cc: brisk._brisk.Netlink, one NETLINK_ROUTE socket in one network
// namespace, and the named-namespace calls pyroute2.netns offers.
//
// Python builds every request (brisk/pyroute2/) and parses every reply; this
// file only moves bytes through brisk::netlink::Connection, which pipelines,
// matches replies by sequence number and survives ENOBUFS. Each object holds
// a lock, taken only after the GIL is released, so several Python threads
// may share one (as Neutron's privsep daemon does) without ever holding the
// GIL while they wait for the kernel.
#include <linux/netlink.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#include "bindings.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/message.h"
#include "brisk/netlink/netns.h"

namespace py = pybind11;

namespace brisk::python {
namespace {

using netlink::Connection;
using netlink::Message;
using netlink::NetlinkError;
using netlink::NlResult;
using netlink::Request;

// (errno, the kernel's extended-ACK text): (0, "") on success.
using Status = std::tuple<int, std::string>;

Status status_of(const NlResult<void>& r) {
  if (r) return {0, ""};
  return {r.error().code, r.error().ext_ack.empty() ? r.error().detail : r.error().ext_ack};
}

// A complete message from Python: its header must say its own length.
Message message_of(const std::string& bytes) {
  if (bytes.size() < NLMSG_HDRLEN || bytes.size() > 65536)
    throw py::value_error("a netlink message is 16 to 65536 bytes, this one " + std::to_string(bytes.size()));
  const auto* h = reinterpret_cast<const nlmsghdr*>(bytes.data());
  if (h->nlmsg_len != bytes.size())
    throw py::value_error("nlmsg_len " + std::to_string(h->nlmsg_len) + " is not the message's " +
                          std::to_string(bytes.size()) + " bytes");
  return Message::from_bytes(bytes);
}

std::string copy_of(const nlmsghdr& h) { return {reinterpret_cast<const char*>(&h), h.nlmsg_len}; }

class Netlink {
 public:
  // Without the GIL: the socket is made on a helper thread inside the namespace.
  explicit Netlink(const std::optional<std::string>& netns_path) {
    std::optional<NlResult<Connection>> made;
    {
      py::gil_scoped_release nogil;
      made.emplace(open(netns_path));
    }
    NlResult<Connection>& opened = *made;
    if (!opened) raise_os_error(opened.error().code, netns_path.value_or("NETLINK_ROUTE"));
    conn_.emplace(std::move(opened.value()));
  }

  static NlResult<Connection> open(const std::optional<std::string>& netns_path) {
    if (!netns_path) return Connection::open();
    auto fd = netlink::open_netns_path(*netns_path);
    if (!fd) return NlResult<Connection>(fd.error());
    return Connection::open_in(fd.value().get());
  }

  // One request: a dump's every object, or a GET's answer, or a change's ACK.
  std::tuple<int, std::string, std::vector<py::bytes>> request(const std::string& bytes) {
    Message message = message_of(bytes);
    const bool dump = (message.header()->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
    const bool get = message.type() % 4 == 2;  // RTM_GET*: the third of each type's four
    std::vector<std::string> replies;
    NlResult<void> result;
    {
      py::gil_scoped_release nogil;
      std::lock_guard lock(mutex_);
      Connection& conn = open_connection();
      auto keep = [&](const nlmsghdr& h) -> NlResult<void> {
        replies.push_back(copy_of(h));
        return {};
      };
      if (dump) {
        result = conn.dump(std::move(message), "dump", "", keep, [&] { replies.clear(); });
      } else {
        result = conn.execute(Request{.message = std::move(message),
                                      .op = "request",
                                      .reply_budget = get ? netlink::kGetBudget : netlink::kAckBudget,
                                      .ack = !get,
                                      .on_reply = keep});
      }
    }
    auto [code, text] = status_of(result);
    std::vector<py::bytes> out;
    out.reserve(replies.size());
    for (const auto& r : replies) out.emplace_back(r);
    return {code, text, std::move(out)};
  }

  // Changes pipelined: one status each, in order.
  std::vector<Status> batch(const std::vector<std::string>& messages) {
    std::vector<Request> requests;
    requests.reserve(messages.size());
    for (const auto& m : messages) requests.push_back(Request{.message = message_of(m), .op = "batch"});
    {
      py::gil_scoped_release nogil;
      std::lock_guard lock(mutex_);
      open_connection().execute(requests);
    }
    std::vector<Status> out;
    out.reserve(requests.size());
    for (const auto& r : requests) out.push_back(status_of(r.result));
    return out;
  }

  // Links deleted by ifindex or name, a run of them coalesced into one group
  // delete by brisk::netlink::Batch: each delete alone waits for an RCU
  // grace period in the kernel (about 20 ms here), the group one once.
  std::vector<Status> delete_links(const std::vector<std::variant<int, std::string>>& targets) {
    std::vector<Status> out(targets.size());
    py::gil_scoped_release nogil;
    std::lock_guard lock(mutex_);
    Connection& conn = open_connection();
    // Deletes go by name; ifindexes are named from one dump, taken only if needed.
    std::unordered_map<int, std::string> names;
    if (std::any_of(targets.begin(), targets.end(),
                    [](const auto& t) { return std::holds_alternative<int>(t); })) {
      auto links = netlink::list_links(conn);
      if (!links) {
        for (auto& o : out) o = status_of(NlResult<void>(links.error()));
        return out;
      }
      for (auto& l : links.value()) names.emplace(l.ifindex, std::move(l.name));
    }
    netlink::Batch batch(conn);
    std::vector<std::size_t> slot(targets.size(), SIZE_MAX);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const std::string* name = std::get_if<std::string>(&targets[i]);
      if (!name) {
        auto found = names.find(std::get<int>(targets[i]));
        if (found == names.end()) {
          out[i] = {ENODEV, ""};
          continue;
        }
        name = &found->second;
      }
      slot[i] = batch.delete_link(*name);
    }
    auto results = batch.flush();
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (slot[i] != SIZE_MAX) out[i] = status_of(results[slot[i]]);
    return out;
  }

  void close() {
    py::gil_scoped_release nogil;
    std::lock_guard lock(mutex_);
    conn_.reset();
  }

  int fileno() {
    std::lock_guard lock(mutex_);
    return conn_ ? conn_->fd() : -1;
  }

 private:
  Connection& open_connection() {
    if (!conn_) throw std::system_error(EBADF, std::generic_category(), "the netlink socket is closed");
    return *conn_;
  }

  std::mutex mutex_;
  std::optional<Connection> conn_;
};

NlResult<void> create_named(const std::string& name) { return netlink::create_netns(name); }

// A call on a named namespace, without the GIL; OSError naming it on failure.
template <NlResult<void> (*call)(const std::string&)>
void on_name(const std::string& name) {
  NlResult<void> r;
  {
    py::gil_scoped_release nogil;
    r = call(name);
  }
  if (!r) raise_os_error(r.error().code, name);
}

}  // namespace

void register_netlink(py::module_& m) {
  py::class_<Netlink>(m, "Netlink", "A NETLINK_ROUTE socket made inside one network namespace")
      .def(py::init<const std::optional<std::string>&>(), py::arg("netns_path") = py::none())
      .def("request", &Netlink::request, py::arg("msg"),
           "One request: (errno, extack, replies); a dump's replies are every object")
      .def("batch", &Netlink::batch, py::arg("msgs"), "Changes pipelined: [(errno, extack)] in order")
      .def("delete_links", &Netlink::delete_links, py::arg("targets"),
           "Links deleted by ifindex or name, coalesced: [(errno, extack)] in order")
      .def("close", &Netlink::close)
      .def("fileno", &Netlink::fileno);
  m.def("create_netns", &on_name<create_named>, py::arg("name"), "Like `ip netns add NAME`");
  m.def("delete_netns", &on_name<netlink::delete_netns>, py::arg("name"), "Like `ip netns del NAME`");
  m.def(
      "list_netns",
      [] {
        auto r = netlink::list_netns();
        if (!r) raise_os_error(r.error().code, "/run/netns");
        return r.value();
      },
      "The names under /run/netns, sorted");
}

}  // namespace brisk::python
