#include "cli/ip/flush_rounds.h"

namespace brisk::ipcli {

netlink::NlResult<void> flush_in_rounds(Runner& r, const FlushRounds& how,
                                        const std::function<netlink::NlResult<std::size_t>()>& round) {
  const bool stats = r.globals().stats > 0;
  for (int done = 0;; ++done) {
    if (how.max_rounds && done == how.max_rounds) {
      if (!how.out_of_rounds.empty()) {
        r.out() += how.out_of_rounds + std::to_string(how.max_rounds) + "\n";
        return netlink::NetlinkError{.code = 0, .op = kFlushIncomplete};
      }
      return netlink::NetlinkError{
          .code = 0,
          .op = kFlushIncomplete,
          .detail = "*** Flush remains incomplete after " + std::to_string(how.max_rounds) + " rounds. ***"};
    }
    std::size_t deleted = BRISK_TRY(round());
    if (deleted == 0) {
      if (stats)
        r.out() += done == 0 ? std::string("Nothing to flush.\n")
                             : "*** Flush is complete after " + std::to_string(done) + " round" +
                                   (done > 1 ? "s" : "") + " ***\n";
      return {};
    }
    if (stats)
      r.out() += "\n*** Round " + std::to_string(done + 1) + ", deleting " + std::to_string(deleted) + " " +
                 how.counted + " ***\n";
  }
}

}  // namespace brisk::ipcli
