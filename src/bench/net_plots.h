// bench/net_plots.h: the charts of `brisk bench link`, `brisk bench
// containers` and `brisk bench cni`: the cost of one more operation (or container) against how
// many interfaces (containers) already exist, one line per method that ran
// all N. Flat lines are the claim; a rising one would be an O(n) cost.
#pragma once

#include <string>
#include <vector>

#include "bench/cni_bench.h"
#include "bench/containers_bench.h"
#include "bench/link_bench.h"
#include "bench/plot.h"

namespace brisk::bench {

// One chart for `phase` ("veth add", "set up", "addr add"); no series when
// no method ran the phase at full N in more than one round.
PlotSpec link_phase_plot(const LinkBenchReport& report, const std::string& phase);
PlotSpec containers_plot(const ContainersBenchReport& report);
// One pass's ADD or DEL: reference, brisk and the floor, per bucket.
PlotSpec cni_plot(const CniPass& pass, const std::string& phase);

// Writes the charts into dir (link-veth-add, link-set-up, link-addr-add;
// containers) and returns the files written. Throws std::runtime_error
// naming the chart when one cannot be written.
std::vector<std::string> write_plots(const LinkBenchReport& report, const std::string& dir);
std::vector<std::string> write_plots(const ContainersBenchReport& report, const std::string& dir);
// cni-add and cni-del, with -masq for the ipMasq pass.
std::vector<std::string> write_plots(const CniBenchReport& report, const std::string& dir);

}  // namespace brisk::bench
