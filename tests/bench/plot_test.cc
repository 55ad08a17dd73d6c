// The plot module: the SVG drawn directly and the PNG made by gnuplot.
#include "bench/plot.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/test_support.h"

namespace brisk::bench {
namespace {

using brisk::test::slurp;

// Well-formedness, enough for what we write: every tag closes in order,
// attributes are quoted, and entities are the five XML ones.
std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  for (std::size_t i = 0; i < xml.size();) {
    if (xml[i] == '&') {
      bool known = false;
      for (const char* e : {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"})
        known |= xml.compare(i, strlen(e), e) == 0;
      if (!known) return "bad entity at " + std::to_string(i);
    }
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    char quote = 0;
    for (; end < xml.size() && (quote || xml[end] != '>'); ++end)
      if (xml[end] == '"' || xml[end] == '\'') quote = quote == xml[end] ? 0 : (quote ? quote : xml[end]);
    if (end >= xml.size()) return "unterminated tag at " + std::to_string(i);
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
      continue;
    }
    if (tag.back() == '/') continue;
    open.push_back(tag.substr(0, tag.find_first_of(" \n\t")));
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

// The text of every <text class="cls" ...>text</text>.
std::vector<std::string> texts_of(const std::string& svg, const std::string& cls) {
  std::vector<std::string> out;
  const std::string marker = "class=\"" + cls + "\"";
  for (std::size_t at = 0; (at = svg.find(marker, at)) != std::string::npos; ++at) {
    std::size_t start = svg.find('>', at) + 1;
    out.push_back(svg.substr(start, svg.find('<', start) - start));
  }
  return out;
}

PlotSpec sample(bool log_y) {
  PlotSpec spec;
  spec.title = "Spawn <cost> & heap";
  spec.x_label = "parent heap (MiB)";
  spec.y_label = "time per spawn (µs)";
  spec.log_x = true;
  spec.log_y = log_y;
  spec.series = {{"brisk", {{10, 900}, {1024, 910}, {4096, 905}}},
                 {"fork", {{10, 1500}, {1024, 21000}, {4096, 80000}}},
                 {"system <sh>", {{10, 3000}, {1024, 3100}, {4096, 3300}}}};
  return spec;
}

TEST(PlotSvg, WellFormedWithAxesTitlesLegendAndLogTicks) {
  test::TempDir dir;
  auto written = write_plot_svg(sample(true), dir.path() + "/spawn.svg");
  ASSERT_TRUE(written) << written.error().message();
  std::string svg = slurp(*written);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Spawn &lt;cost&gt; &amp; heap"), std::string::npos);  // title, escaped
  EXPECT_NE(svg.find("class=\"xlabel\""), std::string::npos);
  EXPECT_NE(svg.find(">parent heap (MiB), log scale<"), std::string::npos);
  EXPECT_NE(svg.find(">time per spawn (µs), log scale<"), std::string::npos);
  EXPECT_EQ(texts_of(svg, "legend-entry"), (std::vector<std::string>{"brisk", "fork", "system &lt;sh&gt;"}));
  // Log axes: decade ticks labelled, minor ticks between them.
  EXPECT_EQ(texts_of(svg, "xtick"), (std::vector<std::string>{"10", "100", "1000", "10000"}));
  EXPECT_EQ(texts_of(svg, "ytick"), (std::vector<std::string>{"100", "1000", "10000", "100000"}));
  EXPECT_NE(svg.find("class=\"grid-minor\""), std::string::npos);
  // One polyline per series plus the frame.
  std::size_t polylines = 0;
  for (std::size_t at = 0; (at = svg.find("<polyline", at)) != std::string::npos; ++at) ++polylines;
  EXPECT_EQ(polylines, 4u);
}

TEST(PlotSvg, LinearAxisStartsAtZeroWithEvenTicks) {
  test::TempDir dir;
  PlotSpec spec = sample(false);
  spec.log_x = false;
  auto written = write_plot_svg(spec, dir.path() + "/linear.svg");
  ASSERT_TRUE(written) << written.error().message();
  std::string svg = slurp(*written);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("class=\"ytick\" x=\"80\" y=\"484.0\" text-anchor=\"end\">0<"), std::string::npos);
  EXPECT_EQ(svg.find("log scale"), std::string::npos);
  EXPECT_EQ(svg.find("grid-minor"), std::string::npos);
}

TEST(PlotSvg, RejectsWhatCannotBeDrawn) {
  test::TempDir dir;
  PlotSpec empty;
  auto none = write_plot_svg(empty, dir.path() + "/none.svg");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message().find("no data points"), std::string::npos);

  PlotSpec zero = sample(true);
  zero.series[0].points[0].second = 0;
  auto bad = write_plot_svg(zero, dir.path() + "/zero.svg");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, EINVAL);
  EXPECT_NE(bad.error().message().find("brisk"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/zero.svg"));

  auto unwritable = write_plot_svg(sample(true), dir.path() + "/no/such/dir/x.svg");
  ASSERT_FALSE(unwritable);
  EXPECT_NE(unwritable.error().message().find("x.svg"), std::string::npos);
}

TEST(PlotPng, GnuplotWritesAPng) {
  if (find_gnuplot().empty()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  auto written = write_plot_png(sample(true), dir.path() + "/spawn.png");
  ASSERT_TRUE(written) << written.error().message();
  std::string png = slurp(*written);
  ASSERT_GT(png.size(), 5000u);  // a drawn chart, not an empty canvas
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(PlotPng, GnuplotFailureCarriesContext) {
  if (find_gnuplot().empty()) GTEST_SKIP() << "gnuplot is not installed";
  test::TempDir dir;
  auto written = write_plot_png(sample(false), dir.path() + "/missing/dir/spawn.png");
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().message().find("spawn.png"), std::string::npos) << written.error().message();
}

// write_plot picks PNG with gnuplot on PATH, the SVG without it.
TEST(Plot, PicksTheBackEndFromPath) {
  test::TempDir dir, empty_path;
  std::string saved = getenv("PATH") ? getenv("PATH") : "";
  ::setenv("PATH", empty_path.path().c_str(), 1);
  auto svg = write_plot(sample(true), dir.path() + "/a");
  ::setenv("PATH", saved.c_str(), 1);
  ASSERT_TRUE(svg) << svg.error().message();
  EXPECT_EQ(*svg, dir.path() + "/a.svg");
  EXPECT_TRUE(std::filesystem::exists(*svg));

  if (find_gnuplot().empty()) GTEST_SKIP() << "gnuplot is not installed";
  auto png = write_plot(sample(true), dir.path() + "/b");
  ASSERT_TRUE(png) << png.error().message();
  EXPECT_EQ(*png, dir.path() + "/b.png");
}

TEST(Plot, LogScaleWantedOnlyForWideRanges) {
  EXPECT_TRUE(wants_log_scale(sample(true).series, false));  // 900 .. 80000
  EXPECT_TRUE(wants_log_scale(sample(true).series, true));   // 10 .. 4096
  EXPECT_FALSE(wants_log_scale({{"a", {{1, 100}, {2, 300}}}}, false));
}

}  // namespace
}  // namespace brisk::bench
