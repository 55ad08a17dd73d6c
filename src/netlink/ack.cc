#include "netlink/ack.h"

#include <cstring>
#include <string>

#include "brisk/netlink/attributes.h"

namespace brisk::netlink {
namespace {

constexpr int kMaxErrno = 4095;  // the kernel's MAX_ERRNO

constexpr AttrPolicy kExtAck[] = {
    /*NLMSGERR_ATTR_UNUSED*/ {},
    /*NLMSGERR_ATTR_MSG*/ {AttrKind::string},
    /*NLMSGERR_ATTR_OFFS*/ {AttrKind::u32},
    /*NLMSGERR_ATTR_COOKIE*/ {},
    /*NLMSGERR_ATTR_POLICY*/ {},
    /*NLMSGERR_ATTR_MISS_TYPE*/ {AttrKind::u32},
    /*NLMSGERR_ATTR_MISS_NEST*/ {AttrKind::u32},
};

}  // namespace

NlResult<void> parse_dump_done(const nlmsghdr& done, const char* op, const std::string& object) {
  const char* base = reinterpret_cast<const char*>(&done);
  int32_t code = 0;
  if (done.nlmsg_len < NLMSG_HDRLEN + sizeof code) return {};  // an old kernel's bare DONE
  std::memcpy(&code, base + NLMSG_HDRLEN, sizeof code);
  if (code >= 0) return {};
  if (code < -kMaxErrno)
    return NetlinkError{.code = EBADMSG,
                        .op = op,
                        .object = object,
                        .detail = "NLMSG_DONE with error " + std::to_string(code)};
  NetlinkError error{.code = -code, .op = op, .object = object, .kernel = true};
  if (!(done.nlmsg_flags & NLM_F_ACK_TLVS)) return error;
  std::size_t tlv_start = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof code);
  if (tlv_start >= done.nlmsg_len) return error;
  auto tlvs = Attributes::parse({base + tlv_start, done.nlmsg_len - tlv_start}, kExtAck);
  if (tlvs) {
    if (auto text = tlvs->string(NLMSGERR_ATTR_MSG)) error.ext_ack = std::string(*text);
  }
  return error;
}

NlResult<void> parse_ack(const nlmsghdr& reply, std::span<const char> request, const char* op,
                         const std::string& object) {
  const char* base = reinterpret_cast<const char*>(&reply);
  if (reply.nlmsg_len < NLMSG_HDRLEN + sizeof(nlmsgerr))
    return NetlinkError{.code = EBADMSG, .op = op, .object = object, .detail = "short NLMSG_ERROR"};
  nlmsgerr err;
  std::memcpy(&err, base + NLMSG_HDRLEN, sizeof err);
  if (err.error == 0) return {};
  // The kernel sends -errno. A value no errno can have (INT_MIN would even
  // overflow the negation) is a malformed reply, not an error code.
  if (err.error < -kMaxErrno || err.error > kMaxErrno)
    return NetlinkError{.code = EBADMSG,
                        .op = op,
                        .object = object,
                        .detail = "NLMSG_ERROR with error " + std::to_string(err.error)};
  NetlinkError error{
      .code = err.error < 0 ? -err.error : err.error, .op = op, .object = object, .kernel = true};
  if (!(reply.nlmsg_flags & NLM_F_ACK_TLVS)) return error;
  // The TLVs follow the echoed request, which NETLINK_CAP_ACK cuts to its
  // header. An echoed length shorter than a header is a lie: no TLVs then.
  std::size_t tlv_start = NLMSG_HDRLEN + sizeof(nlmsgerr);
  if (!(reply.nlmsg_flags & NLM_F_CAPPED)) {
    if (err.msg.nlmsg_len < sizeof(nlmsghdr)) return error;
    tlv_start += NLMSG_ALIGN(std::size_t{err.msg.nlmsg_len}) - sizeof(nlmsghdr);
  }
  if (tlv_start > reply.nlmsg_len) return error;
  auto tlvs = Attributes::parse({base + tlv_start, reply.nlmsg_len - tlv_start}, kExtAck);
  if (!tlvs) return error;  // the errno still stands without the text
  if (auto text = tlvs->string(NLMSGERR_ATTR_MSG)) error.ext_ack = std::string(*text);
  if (auto offset = tlvs->u32(NLMSGERR_ATTR_OFFS)) {
    error.bad_attr_offset = *offset;
    if (*offset + sizeof(nlattr) <= request.size()) {
      nlattr attr;
      std::memcpy(&attr, request.data() + *offset, sizeof attr);
      error.bad_attr_type = attr.nla_type & NLA_TYPE_MASK;
    }
  }
  if (auto missing = tlvs->u32(NLMSGERR_ATTR_MISS_TYPE))
    error.detail = "missing attribute type " + std::to_string(*missing);
  return error;
}

}  // namespace brisk::netlink
