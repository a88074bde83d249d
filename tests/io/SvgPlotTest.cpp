// The SVG line-plot writer (sim/io/SvgPlot.h) that charts the joint-zone metrics: nice
// ticks, well-formed XML, axis ranges, edge cases, the atomic write.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/io/SvgPlot.h"

namespace hg {
namespace {

// --- SVG plots ---------------------------------------------------------------------------

/// A small XML checker: balanced, properly nested tags, one root element, quoted
/// attributes free of '<', and '&' only in the five predefined entities. Returns "" when
/// well formed, else what is wrong.
std::string xmlProblem(const std::string& xml) {
  std::vector<std::string> open;
  int roots = 0;
  const auto entityOk = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      if (xml.compare(at, std::char_traits<char>::length(e), e) == 0) return true;
    return false;
  };
  std::size_t i = 0;
  while (i < xml.size()) {
    const char c = xml[i];
    if (c == '&') {
      if (!entityOk(i)) return "bad entity at " + std::to_string(i);
      ++i;
      continue;
    }
    if (c == '>') return "stray '>' at " + std::to_string(i);
    if (c != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(c))) return "text outside the root";
      ++i;
      continue;
    }
    if (xml.compare(i, 2, "<?") == 0) {
      const std::size_t end = xml.find("?>", i);
      if (end == std::string::npos) return "unclosed <?";
      i = end + 2;
      continue;
    }
    if (xml.compare(i, 4, "<!--") == 0) {
      const std::size_t end = xml.find("-->", i);
      if (end == std::string::npos) return "unclosed comment";
      i = end + 3;
      continue;
    }
    const bool closing = i + 1 < xml.size() && xml[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    std::string name;
    while (j < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[j])) || xml[j] == '-' || xml[j] == ':'))
      name += xml[j++];
    if (name.empty()) return "tag without a name at " + std::to_string(i);
    // Attributes: name="value" pairs up to '>' or '/>'.
    bool selfClosing = false;
    while (true) {
      while (j < xml.size() && std::isspace(static_cast<unsigned char>(xml[j]))) ++j;
      if (j >= xml.size()) return "unterminated tag " + name;
      if (xml[j] == '>') {
        ++j;
        break;
      }
      if (xml.compare(j, 2, "/>") == 0) {
        selfClosing = true;
        j += 2;
        break;
      }
      if (closing) return "attributes in a closing tag " + name;
      const std::size_t eq = xml.find('=', j);
      if (eq == std::string::npos || eq + 1 >= xml.size() || xml[eq + 1] != '"') return "bad attribute in " + name;
      const std::size_t end = xml.find('"', eq + 2);
      if (end == std::string::npos) return "unterminated attribute in " + name;
      for (std::size_t k = eq + 2; k < end; ++k) {
        if (xml[k] == '<') return "'<' in an attribute of " + name;
        if (xml[k] == '&' && !entityOk(k)) return "bad entity in an attribute of " + name;
      }
      j = end + 1;
    }
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> does not close <" + (open.empty() ? "" : open.back()) + ">";
      open.pop_back();
    } else {
      if (open.empty()) ++roots;
      if (!selfClosing) open.push_back(name);
    }
    i = j;
  }
  if (!open.empty()) return "<" + open.back() + "> is not closed";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return "";
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

LinePlot samplePlot() {
  LinePlot plot;
  plot.title = "Volume ratio vs bend angle <LBS & DQS>";
  plot.xLabel = "bend angle (deg)";
  plot.yLabel = "volume / rest volume";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  plot.series.push_back({"LBS <linear>", {0, 30, 60, 90, 120}, {1.0, 0.97, 0.88, 0.74, 0.55}});
  plot.series.push_back({"DQS \"dual\" & 'quat'", {0, 30, 60, 90, 120}, {1.0, 1.01, 1.03, 1.06, 1.1}});
  plot.series.push_back({"particles", {0, 30, 60, 90, 120, 150}, {1.0, 0.99, nan, 0.98, 0.97, 0.96}});
  plot.referenceLines = {0.95};
  return plot;
}

struct Rect {
  double x, y, width, height;
};

Rect plotArea(const std::string& svg) {
  const std::regex area(
      R"re(<rect class="plot-area" x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" height="([-0-9.]+)")re");
  std::smatch m;
  EXPECT_TRUE(std::regex_search(svg, m, area));
  if (m.empty()) return {0, 0, 0, 0};
  return {std::stod(m[1]), std::stod(m[2]), std::stod(m[3]), std::stod(m[4])};
}

TEST(SvgPlot, NiceTickSteps) {
  EXPECT_DOUBLE_EQ(niceTickStep(1.0, 5), 0.2);
  EXPECT_DOUBLE_EQ(niceTickStep(10.0, 5), 2.0);
  EXPECT_DOUBLE_EQ(niceTickStep(120.0, 6), 20.0);
  EXPECT_DOUBLE_EQ(niceTickStep(0.002, 4), 0.0005);
  EXPECT_DOUBLE_EQ(niceTickStep(0.0, 5), 1.0);  // degenerate span
  for (double span : {3e-4, 0.0123, 0.77, 1.0, 4.2, 37.0, 180.0, 9.9e5}) {
    const double step = niceTickStep(span, 5);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    EXPECT_TRUE(std::abs(mantissa - 1.0) < 1e-9 || std::abs(mantissa - 2.0) < 1e-9 || std::abs(mantissa - 5.0) < 1e-9)
        << span << " -> " << step;
    const double intervals = span / step;
    EXPECT_GE(intervals, 2.0) << span;
    EXPECT_LE(intervals, 12.0) << span;
  }
  // Rounded out: the ticks enclose the data; fixed: the ticks lie inside the range.
  for (auto [lo, hi] : std::vector<std::pair<double, double>>{{0.13, 0.97}, {-3.3, 12.1}, {0.0, 180.0}, {0.55, 1.1}}) {
    const AxisTicks out = niceAxisTicks(lo, hi, true);
    EXPECT_LE(out.first, lo);
    EXPECT_GE(out.value(out.count - 1), hi - 1e-12);
    EXPECT_LT(out.first, lo + out.step);
    const AxisTicks in = niceAxisTicks(lo, hi, false);
    EXPECT_GE(in.first, lo - 1e-12);
    EXPECT_LE(in.value(in.count - 1), hi + 1e-12);
    EXPECT_GE(in.count, 2);
  }
  const AxisTicks exact = niceAxisTicks(0.0, 1.0, true);
  EXPECT_EQ(exact.count, 6);  // 0, 0.2, ..., 1: exact multiples are not pushed out
  EXPECT_DOUBLE_EQ(exact.first, 0.0);
}

TEST(SvgPlot, WellFormedWithOnePathPerSeries) {
  const LinePlot plot = samplePlot();
  const std::string svg = svgLinePlot(plot);
  EXPECT_EQ(xmlProblem(svg), "");
  EXPECT_EQ(occurrences(svg, "<path "), plot.series.size());
  EXPECT_EQ(occurrences(svg, "<svg "), 1u);
  // Names and title escaped.
  EXPECT_NE(svg.find("LBS &lt;linear&gt;"), std::string::npos);
  EXPECT_NE(svg.find("DQS &quot;dual&quot; &amp; &apos;quat&apos;"), std::string::npos);
  EXPECT_NE(svg.find("&lt;LBS &amp; DQS&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<linear>"), std::string::npos);
  EXPECT_NE(svg.find("bend angle (deg)"), std::string::npos);
  // Distinct colours, one per series (in the legend's sample lines).
  std::vector<std::string> colours;
  const std::regex stroke(R"re(<path d="[^"]*" fill="none" stroke="([^"]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), stroke); it != std::sregex_iterator(); ++it)
    colours.push_back((*it)[1]);
  ASSERT_EQ(colours.size(), 3u);
  EXPECT_NE(colours[0], colours[1]);
  EXPECT_NE(colours[1], colours[2]);
  EXPECT_NE(colours[0], colours[2]);
  // The NaN breaks the third line into two subpaths; its marker is skipped.
  const std::regex path(R"re(<path d="([^"]*)")re");
  std::vector<std::string> ds;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), path); it != std::sregex_iterator(); ++it)
    ds.push_back((*it)[1]);
  ASSERT_EQ(ds.size(), 3u);
  EXPECT_EQ(occurrences(ds[0], "M"), 1u);
  EXPECT_EQ(occurrences(ds[0], "L"), 4u);
  EXPECT_EQ(occurrences(ds[2], "M"), 2u);
  EXPECT_EQ(occurrences(ds[2], "L"), 3u);
  EXPECT_EQ(occurrences(svg, "<circle class=\"marker\""), 5u + 5u + 5u);
  EXPECT_EQ(occurrences(svg, "stroke-dasharray"), 1u);  // the reference line
  EXPECT_NE(svg.find(">0.95<"), std::string::npos);
}

TEST(SvgPlot, AxisRangesIncludeTheData) {
  const LinePlot plot = samplePlot();
  const std::string svg = svgLinePlot(plot);
  const Rect area = plotArea(svg);
  ASSERT_GT(area.width, 100.0);
  ASSERT_GT(area.height, 100.0);
  const std::regex marker(R"re(<circle class="marker" cx="([-0-9.]+)" cy="([-0-9.]+)")re");
  std::vector<std::pair<double, double>> points;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), marker); it != std::sregex_iterator(); ++it)
    points.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  ASSERT_EQ(points.size(), 15u);
  double minX = 1e9, maxX = -1e9, minY = 1e9, maxY = -1e9;
  for (auto [x, y] : points) {
    EXPECT_GE(x, area.x - 1e-6);
    EXPECT_LE(x, area.x + area.width + 1e-6);
    EXPECT_GE(y, area.y - 1e-6);
    EXPECT_LE(y, area.y + area.height + 1e-6);
    minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y), maxY = std::max(maxY, y);
  }
  // x runs 0 .. 150 on ticks of 20 or 50: the axis is 0 .. 150 or 160; the points spread.
  EXPECT_NEAR(minX, area.x, 1e-6);  // x = 0 is a tick, the left edge
  EXPECT_GT(maxX - minX, 0.8 * area.width);
  // y: the highest value (1.1) is below the top edge or on it, 0.55 at or above the bottom.
  EXPECT_GT(maxY - minY, 0.6 * area.height);
  // The reference line at 0.95 is inside the plot area.
  const std::regex dashed(R"re(<line x1="[-0-9.]+" y1="([-0-9.]+)"[^>]*stroke-dasharray)re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, dashed));
  const double ref = std::stod(m[1]);
  EXPECT_GT(ref, area.y);
  EXPECT_LT(ref, area.y + area.height);

  // A fixed y range: ticks at its ends; data outside it is kept in the path (clipped).
  LinePlot fixed = plot;
  fixed.yMin = 0.0;
  fixed.yMax = 1.0;
  const std::string fixedSvg = svgLinePlot(fixed);
  EXPECT_EQ(xmlProblem(fixedSvg), "");
  EXPECT_NE(fixedSvg.find(">0.0</text>"), std::string::npos);
  EXPECT_NE(fixedSvg.find(">1.0</text>"), std::string::npos);
  EXPECT_NE(fixedSvg.find("clip-path=\"url(#plot-clip)\""), std::string::npos);
}

TEST(SvgPlot, EdgeCasesStayWellFormed) {
  LinePlot empty;
  EXPECT_EQ(xmlProblem(svgLinePlot(empty)), "");
  LinePlot flat;
  flat.series.push_back({"constant", {1, 1, 1}, {2, 2, 2}});                 // zero-width ranges
  flat.series.push_back({"all NaN", {std::nan(""), 1}, {0, std::nan("")}});  // nothing to draw
  const std::string svg = svgLinePlot(flat);
  EXPECT_EQ(xmlProblem(svg), "");
  EXPECT_EQ(occurrences(svg, "<path "), 2u);
  EXPECT_NE(svg.find("<path d=\"\""), std::string::npos);
  LinePlot many;
  for (int s = 0; s < 14; ++s) {
    PlotSeries series;
    series.name = std::string(1, 's');
    series.name += std::to_string(s);  // (gcc 12's -Wrestrict misfires on "s" + std::to_string(s))
    series.x = {0.0, 1.0};
    series.y = {double(s), double(s) + 1.0};
    many.series.push_back(std::move(series));
  }
  const std::string manySvg = svgLinePlot(many);
  EXPECT_EQ(xmlProblem(manySvg), "");
  std::vector<std::string> colours;
  const std::regex stroke(R"re(<path d="[^"]*" fill="none" stroke="([^"]+)")re");
  for (auto it = std::sregex_iterator(manySvg.begin(), manySvg.end(), stroke); it != std::sregex_iterator(); ++it)
    colours.push_back((*it)[1]);
  ASSERT_EQ(colours.size(), 14u);
  std::sort(colours.begin(), colours.end());
  EXPECT_EQ(std::unique(colours.begin(), colours.end()), colours.end());
}

TEST(SvgPlot, WritesTheFileAtomically) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (std::string("hg_svgplot_test_") += std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  const std::filesystem::path file = dir / "sub" / "plot.svg";
  const LinePlot plot = samplePlot();
  const Status status = writeSvgLinePlot(plot, file);
  ASSERT_TRUE(status.ok()) << status.error().message;
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), svgLinePlot(plot));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hg
